"""Reads: what the pages and commands need of stored games, in one or two queries each, by subject:

- ``games``: one game, as the pad, its poll and a save's answer see it (``game_state``) and as the
  game file writes it; the start form's comb layouts and known names;
- ``changes``: a game's recent changes, its finishing and reopening among them;
- ``history``: a page of the history, filtered;
- ``people``: the players list and a player's page;
- ``statistics``: the overall statistics;
- ``imports``: the fingerprints of the games already stored, and an import's preview;
- ``accounts``: an account's language.

Callers import them from here: ``from scoring import selectors``.
"""

from scoring.selectors.accounts import (  # noqa: F401
    account_language,
    spoken_language,
)
from scoring.selectors.changes import (  # noqa: F401
    finish_event,
    recent_changes,
)
from scoring.selectors.games import (  # noqa: F401
    GameState,
    Stored,
    comb_layouts,
    game_data,
    game_links_live,
    game_played_next,
    game_result,
    game_shared,
    game_state,
    games_downloaded,
    games_for_export,
    games_of_links,
    games_with_everything,
    known_player_names,
    seat_of_same_player,
    seat_tokens,
)
from scoring.selectors.history import (  # noqa: F401
    HISTORY_PAGE_SIZE,
    HistoryEntry,
    HistoryFilters,
    LookAheadPaginator,
    StoredOutcome,
    history_page,
)
from scoring.selectors.imports import (  # noqa: F401
    FINGERPRINTS_ASKED,
    Preview,
    PreviewGame,
    already_stored,
    fingerprints_stored,
    games_added_since,
    import_preview,
)
from scoring.selectors.people import (  # noqa: F401
    CHART_GAMES,
    CategoryAverage,
    FactionRow,
    PlayerPage,
    PlayerRow,
    ScorePoint,
    average,
    player_latest_scores,
    player_page,
    players_of,
    players_table,
)
from scoring.selectors.statistics import (  # noqa: F401
    OverallStatistics,
    Share,
    WinRate,
    overall_statistics,
)
