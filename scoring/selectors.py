"""Reads: what the pages and commands need of stored games, in one or two queries each."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import NamedTuple

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db.models import (
    BooleanField,
    Count,
    Exists,
    ExpressionWrapper,
    F,
    FilteredRelation,
    Min,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext

from scoring.access import Keeper, joined_games, visible_games
from scoring.categories import (
    CATEGORIES,
    MAJORITY_LABEL,
    MAJORITY_SHORT_LABEL,
    Category,
    Section,
    categories_of,
    entry_at_start,
)
from scoring.engine import GameResult, PlayerSheet, Sector, score_game
from scoring.fields import PadField
from scoring.gamefile import (
    MAX_AUTHOR_LENGTH,
    ChangeData,
    GameData,
    PlayerData,
    entry_of_field,
    game_fingerprint,
    value_of_text,
)
from scoring.models import (
    Change,
    CombLayoutSector,
    Game,
    GameEvent,
    GameSector,
    HibernationTokens,
    LanguagePreference,
    OwnerTally,
    Player,
    PlayerTally,
    Seat,
    Tally,
)
from scoring.sums import input_text
from scoring.tallies import counts as tallies_count
from scoring.tallies import row_measures, seat_measures, seat_scopes


def games_with_everything() -> QuerySet[Game]:
    """Games with their sectors, seats and tokens prefetched (ordered for scoring): what the game
    file's writer reads (``game_data``), many games at a time."""
    return Game.objects.prefetch_related(
        Prefetch("sectors", queryset=GameSector.objects.order_by("position")),
        Prefetch("seats", queryset=Seat.objects.order_by("number")),
        Prefetch("seats__tokens", queryset=HibernationTokens.objects.select_related("sector")),
    )


class Stored(NamedTuple):
    """What one field of the pad holds (``GameState.stored``)."""

    value: int | bool | None  # None: not entered
    text: str  # the value as its input shows it (a sum as typed)
    version: int
    page: str  # the page and the save number that wrote it last (services.pad.Guard)
    seq: int


@dataclass
class GameState:
    """One game as the pad, its poll, a save's answer and the results read it: its row, its
    comb sectors, its seats and the tokens entered. A write changes it in memory as it changes
    the database, so its answer is drawn from it without reading the game again."""

    game: Game
    sectors: list[GameSector]
    seats: list[Seat]
    tokens: dict[tuple[int, int], int]  # (seat id, sector id): the count entered

    def entered_tokens(self) -> list[dict[int, int]]:
        """Per seat, the counts entered by sector id (a sector not entered is missing)."""
        return [{sector.pk: self.tokens[seat.pk, sector.pk] for sector in self.sectors
                 if (seat.pk, sector.pk) in self.tokens} for seat in self.seats]

    def stored(self, pad: PadField) -> Stored:
        """What a field of this game holds, for the pad (its cell) and a save (its guard)."""
        seat = pad.seat
        value = self.tokens.get((seat.pk, pad.sector.pk)) if pad.is_tokens else getattr(seat, pad.key)
        text = input_text(value, seat.sums.get(pad.key, "") if pad.category is not None else "")
        version, page, seq = (list(seat.revisions.get(pad.key) or []) + [0, "", 0])[:3]
        return Stored(value, text, int(version), page, int(seq))

    def score(self) -> GameResult:
        return score_game(
            [Sector(sector.first_vp, sector.second_vp) for sector in self.sectors],
            [PlayerSheet(entries=seat.entries(), active_workers=seat.workers,
                         tokens=[self.tokens.get((seat.pk, sector.pk), 0) for sector in self.sectors])
             for seat in self.seats],
            self.game.during,
        )

    @property
    def counted(self) -> bool:
        """Whether its seats count in the tallies (a finished game of an account)."""
        return tallies_count(self.game)

    def during_entered(self) -> list[tuple[Seat, Category]]:
        """The during-the-game values entered the way the game counts them now, seat by seat (the
        breakdown's starting VP as the game filled them in aside): while there is none, the game
        may count them the other way (``services.game_mode_change``)."""
        during = self.game.during
        return [(seat, category) for seat in self.seats for category in categories_of(during, Section.DURING)
                if getattr(seat, category.key) not in (None, entry_at_start(category, during, seat.number))]


def game_state(game: Game) -> GameState:
    """The game's seats (each with the game's row, read again: a write that has just locked the
    game sees it as it stands) and its comb: two statements, whatever the number of players and
    sectors. The comb comes as rows of sectors, each joined to the tokens placed there."""
    seats = list(Seat.objects.filter(game_id=game.pk).select_related("game").order_by("number"))
    comb = (GameSector.objects.filter(game_id=game.pk).order_by("position", "tokens__seat_id")
            .values_list("pk", "position", "first_vp", "second_vp", "tokens__seat_id", "tokens__count"))
    sectors: dict[int, GameSector] = {}
    tokens: dict[tuple[int, int], int] = {}
    for pk, position, first_vp, second_vp, seat_id, count in comb:
        if pk not in sectors:
            sectors[pk] = GameSector(pk=pk, game_id=game.pk, position=position, first_vp=first_vp,
                                     second_vp=second_vp)
        if seat_id is not None:
            tokens[seat_id, pk] = count
    return GameState(game=seats[0].game if seats else game, sectors=list(sectors.values()), seats=seats,
                     tokens=tokens)


def seat_tokens(seat: Seat, sectors: Iterable[GameSector]) -> list[int]:
    """The seat's tokens per sector, in sector order (uses the prefetched tokens)."""
    by_sector = {tokens.sector_id: tokens.count for tokens in seat.tokens.all()}
    return [by_sector.get(sector.pk, 0) for sector in sectors]


def game_data(game: Game, *, changes: bool = False) -> GameData:
    """A stored game as the game file sees it (entries not made yet count as 0; only those of
    its way of scoring the during-the-game points).

    With ``changes`` it carries the game's change history too, oldest first, for an export
    (one more query, none when ``games_for_export`` prefetched it); scoring never needs it.
    """
    sectors = list(game.sectors.all())
    seats = list(game.seats.all())
    players = [
        PlayerData(
            name=seat.name,
            seat=seat.number,
            faction=seat.faction,
            automa=seat.is_automa,
            active_workers=seat.workers,
            entries=seat.entries(game.during),
            hibernation=seat_tokens(seat, sectors),
        )
        for seat in seats
    ]
    history: list[ChangeData] = []
    if changes:
        if "changes" in getattr(game, "_prefetched_objects_cache", {}):
            rows = list(game.changes.all())
        else:
            rows = list(Change.objects.filter(game=game).select_related("by_user"))
        rows.sort(key=lambda row: (row.at, row.pk))  # oldest first, whatever order they came in
        seat_numbers = {seat.pk: seat.number for seat in seats}
        index_of: dict[int, int] = {}
        for row in rows:
            undoes = index_of.get(row.undoes_id) if row.undoes_id is not None else None
            index_of[row.pk] = len(history)
            history.append(ChangeData(
                player=seat_numbers[row.seat_id],
                entry=entry_of_field(row.field),
                old=value_of_text(row.old),
                new=value_of_text(row.new),
                at=row.at,
                by=row.author[:MAX_AUTHOR_LENGTH].strip(),  # a display name may be longer than the file allows
                by_link=row.by_link_holder,  # the name apart: a link's holder is never taken for the owner
                undoes=undoes,  # None too when the undone change is not earlier in the list
            ))
    return GameData(
        players=players,
        comb=[Sector(sector.first_vp, sector.second_vp) for sector in sectors],
        played_on=game.played_on,
        notes=game.notes,
        end_trigger_token=game.end_trigger_token,
        during=game.during,
        changes=history,
    )


def game_result(game: Game) -> GameResult:
    """The engine's result for a game loaded with ``games_with_everything``."""
    return game_data(game).score()


def games_for_export(owner=None) -> list[GameData]:
    """Every stored game (or every game of ``owner``), oldest first, as game-file data with
    its change history."""
    games = games_with_everything() if owner is None else games_with_everything().filter(owner=owner)
    games = games.prefetch_related(
        Prefetch("changes", queryset=Change.objects.select_related("by_user").order_by("at", "id"))
    )
    return [game_data(game, changes=True) for game in games.order_by("played_on", "created_at", "id")]


def comb_layouts(keeper: Keeper) -> list:
    """The keeper's saved comb layouts (an account's, or a visitor's browser's), the one used
    last first."""
    return list(
        keeper.layouts().prefetch_related(
            Prefetch("sectors", queryset=CombLayoutSector.objects.order_by("position"))
        )
    )


def known_player_names(keeper: Keeper) -> list[str]:
    """The names of the keeper's players (an account's Player records, the Automa aside), most
    finished games first, for the start form's and the history's suggestions: one query, read
    from the tallies. A visitor has no Player records yet: the names of its games' seats, most
    games first."""
    if keeper.is_visitor:
        return list(
            Seat.objects.filter(game__in=keeper.games(), is_automa=False).values("name_key")
            .annotate(seats=Count("pk"), shown=Min("name")).order_by("-seats", "name_key")
            .values_list("shown", flat=True)[:50]
        )
    user = keeper.user
    return list(
        Player.objects.filter(owner=user, is_automa=False)
        .annotate(overall=FilteredRelation("tallies", condition=Q(tallies__scope=Tally.Scope.ALL)))
        .annotate(games=Coalesce(F("overall__seats"), 0))
        .order_by("-games", "name_key")
        .values_list("name", flat=True)[:50]
    )


@dataclass
class HistoryEntry:
    """One game of a history, with its players' stored outcomes (never scored again here)."""

    game: Game
    seats: list[Seat]

    @property
    def players(self) -> list[tuple[Seat, StoredOutcome]]:
        return [(seat, StoredOutcome.of(seat)) for seat in self.seats]

    @property
    def winners(self) -> list[Seat]:
        return [seat for seat in self.seats if seat.is_winner]


@dataclass(frozen=True)
class StoredOutcome:
    """A seat's outcome as services.game_outcome_store stored it."""

    total: int
    rank: int
    winner: bool

    @classmethod
    def of(cls, seat: Seat) -> StoredOutcome:
        return cls(total=seat.score_total, rank=seat.rank, winner=seat.is_winner)


@dataclass(frozen=True)
class HistoryFilters:
    """What the history is narrowed to (each from the page's address, so it can be bookmarked)."""

    player: str = ""  # part of a player's name, any case
    since: date | None = None
    until: date | None = None
    players: int | None = None  # how many players the game had
    faction: str = ""
    status: str = ""  # "finished", "in-progress" or "" for both

    @property
    def active(self) -> bool:
        return any((self.player, self.since, self.until, self.players, self.faction, self.status))


HISTORY_PAGE_SIZE = 20


class LookAheadPaginator(Paginator):
    """A paginator that counts the games only up to a few pages past the one asked for: the count
    then costs the same at 1,000 games as at 100,000 (a full count reads every row), and the pager
    says "Page 3 of 13 or more" until the last pages are near (``capped``)."""

    look_ahead_pages = 10
    last_page_asked = 1_000_000

    def __init__(self, object_list, per_page, *, wanted_page) -> None:
        super().__init__(object_list, per_page)
        try:  # (no history has a million pages: a bigger number is a last page asked for, or nonsense)
            self.wanted_page = min(max(1, int(wanted_page)), self.last_page_asked)
        except (TypeError, ValueError, OverflowError):
            self.wanted_page = 1
        self.capped = False

    @cached_property
    def count(self) -> int:
        limit = (self.wanted_page + self.look_ahead_pages) * self.per_page + 1
        counted = self.object_list[:limit].count()
        self.capped = counted == limit
        return counted


def history_page(keeper: Keeper, filters: HistoryFilters, page_number) -> tuple[Page, list[HistoryEntry]]:
    """One page of the keeper's games (an account's own and joined, or a visitor's browser's),
    newest first, narrowed by ``filters``: a count (up to a few pages ahead), the page's games and
    their seats. Three queries whatever the number of games, each read newest first through the
    history's index (every filter asks each game in turn whether it matches, so a page stops
    reading once it has its games); never scored again, so a visitor's games show their stored
    totals and winners as an account's do."""
    games = keeper.games() if keeper.is_visitor else visible_games(keeper.user)
    if filters.player:
        key = filters.player.strip().casefold()
        games = games.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), name_key__contains=key)))
    if filters.faction:
        games = games.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), faction=filters.faction)))
    if filters.since:
        games = games.filter(played_on__gte=filters.since)
    if filters.until:
        games = games.filter(played_on__lte=filters.until)
    if filters.players:  # seats are numbered from 1 (services.game_start): n players have a seat n, not n + 1
        games = games.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), number=filters.players))).exclude(
            Exists(Seat.objects.filter(game=OuterRef("pk"), number=filters.players + 1)))
    if filters.status == "finished":
        games = games.filter(finished_at__isnull=False)
    elif filters.status == "in-progress":
        games = games.filter(finished_at__isnull=True)
    games = games.order_by("-played_on", "-created_at", "-id")
    page = LookAheadPaginator(games, HISTORY_PAGE_SIZE, wanted_page=page_number).get_page(page_number)
    seats = Seat.objects.filter(game__in=[game.pk for game in page.object_list]).order_by("game_id", "number")
    by_game: dict[int, list[Seat]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    return page, [HistoryEntry(game=game, seats=by_game.get(game.pk, [])) for game in page.object_list]


def recent_changes(game: Game, limit: int = 8) -> list[Change | GameEvent]:
    """The game's latest changes, newest first, with who made them, whether a later change undid
    them (``is_undone``) and whether they are still their value's latest (``is_latest``: only
    then can they be undone, ``services.change_undo``), and whether a visitor made it, the owner
    of a game started without an account (``by_visitor``); among them the game's finishing and
    reopening (``GameEvent``), for the pad's history: two statements."""
    later = Change.objects.filter(seat=OuterRef("seat"), field=OuterRef("field"), pk__gt=OuterRef("pk"))
    changes = list(
        Change.objects.filter(game=game).select_related("seat", "by_user")
        .only("field", "old", "new", "at", "by_name", "by_link_holder", "seat__name", "by_user__first_name",
              "by_user__last_name")
        .annotate(is_undone=Exists(Change.objects.filter(undoes=OuterRef("pk"))), is_latest=~Exists(later),
                  by_visitor=_by_visitor())[:limit]
    )
    events = list(_events(game)[:limit])
    return sorted([*changes, *events], key=lambda item: item.at, reverse=True)[:limit]


def finish_event(game: Game) -> GameEvent | None:
    """Who finished the game, and when (None for a game not finished, or finished before games
    said who: an import, an older game)."""
    if not game.is_finished:
        return None
    return _events(game).filter(what=GameEvent.What.FINISHED).first()


def _events(game: Game):
    return (GameEvent.objects.filter(game=game).select_related("by_user")
            .only("what", "at", "by_name", "by_link_holder", "by_user__first_name", "by_user__last_name")
            .annotate(by_visitor=_by_visitor()))


def _by_visitor() -> ExpressionWrapper:
    """Whether the owner of a game started without an account (a visitor) did it."""
    return ExpressionWrapper(Q(game__visitor__isnull=False, by_link_holder=False), output_field=BooleanField())


# ---------------------------------------------------------------------------------------------
# People across games: the players list and a player's page. Only finished games count; every
# figure is read from the tallies (scoring.tallies), so a page makes the same queries and reads
# the same rows whatever the number of games.


def _rate(wins: int, games: int) -> int:
    return round(100 * wins / games) if games else 0


def players_of(user) -> QuerySet[Player]:
    """The user's own players (the Automa too): the only ones their pages may show."""
    if not getattr(user, "is_authenticated", False):
        return Player.objects.none()
    return Player.objects.filter(owner=user)


@dataclass
class PlayerRow:
    """One line of the players list: a person's figures over finished games."""

    player: Player
    games: int
    wins: int
    average: float | None  # None: no finished game yet
    best: int | None

    @property
    def name(self) -> str:
        return self.player.name

    @property
    def win_rate(self) -> int:
        return _rate(self.wins, self.games)


def _tally_sums(rows) -> dict[tuple[str, str], dict]:
    """Tally rows by (scope, key), with their measures (rows moved back to no seat left out)."""
    return {(row.scope, row.key): row_measures(row) | {"best": getattr(row, "best", None)} for row in rows if row.seats}


def _average(points: int, seats: int) -> float | None:
    return round(points / seats, 1) if seats else None


def players_table(user) -> list[PlayerRow]:
    """Every person of the user's games (the Automa aside) with games, wins, average and best
    score over finished games; most wins first, then most games, then the name. One query, read
    from the players' tallies: the same cost at 10 games as at 100,000."""
    rows = (
        players_of(user).filter(is_automa=False)
        .annotate(overall=FilteredRelation("tallies", condition=Q(tallies__scope=Tally.Scope.ALL)))
        .annotate(
            n_games=Coalesce(F("overall__seats"), 0),
            n_wins=Coalesce(F("overall__wins"), 0),
            points=Coalesce(F("overall__points"), 0),
            best=F("overall__best"),
        )
        .order_by("-n_wins", "-n_games", "name_key")
    )
    return [PlayerRow(player=row, games=row.n_games, wins=row.n_wins, average=_average(row.points, row.n_games),
                      best=row.best if row.n_games else None) for row in rows]


@dataclass
class CategoryAverage:
    label: str  # the edition's full words, a tap away
    average: float
    short: str = ""  # the row's short words (the pad's)


@dataclass
class FactionRow:
    faction: str
    played: int
    won: int


@dataclass
class ScorePoint:
    played_on: date
    game_id: str  # the game's public id
    total: int
    winner: bool


CHART_GAMES = 50  # a player's chart shows their latest games, up to this many


@dataclass
class PlayerPage:
    """What a player's page shows, over their finished games (``games`` of them behind every figure)."""

    player: Player
    games: int
    wins: int
    average: float | None
    best: int | None
    categories: list[CategoryAverage]
    factions: list[FactionRow]
    scores: list[ScorePoint]  # their latest finished games (up to CHART_GAMES), oldest first
    others: list[Player]  # the user's other players this one may be merged into
    aliases: list[str]  # the names of the records merged into this one
    @property
    def win_rate(self) -> int:
        return _rate(self.wins, self.games)

    @property
    def latest(self) -> ScorePoint | None:
        return self.scores[-1] if self.scores else None


def player_latest_scores(player: Player, limit: int = CHART_GAMES) -> list[ScorePoint]:
    """The player's latest finished games, oldest first: read newest first through the history's
    index, each game asked whether the player sat at it, so the cost follows ``limit``, not the
    number of games."""
    seat = Seat.objects.filter(game=OuterRef("pk"), player=player)
    games = (
        Game.objects.filter(owner_id=player.owner_id, finished_at__isnull=False)
        .annotate(total=Subquery(seat.values("score_total")[:1]), won=Subquery(seat.values("is_winner")[:1]))
        .filter(total__isnull=False)
        .order_by("-played_on", "-created_at", "-id")
        .values_list("played_on", "public_id", "total", "won")[:limit]
    )
    return [ScorePoint(played_on, game_id, total, bool(won)) for played_on, game_id, total, won in reversed(games)]


def player_page(player: Player) -> PlayerPage:
    """A player's figures over finished games, read from their tallies: four queries whatever
    the number of games (the tallies, their latest games, their other names, the other players)."""
    sums = _tally_sums(PlayerTally.objects.filter(player=player))
    aliases = list(player.aliases.order_by("name_key").values_list("name", flat=True))
    overall = sums.get((Tally.Scope.ALL, ""))
    others = [] if player.is_automa else list(
        Player.objects.filter(owner_id=player.owner_id, is_automa=False).exclude(pk=player.pk).order_by("name_key")
    )
    if overall is None:
        return PlayerPage(player=player, games=0, wins=0, average=None, best=None, categories=[], factions=[],
                          scores=[], others=others, aliases=aliases)
    factions = sorted(
        (FactionRow(key, row["seats"], row["wins"])
         for (scope, key), row in sums.items() if scope == Tally.Scope.FACTION),
        key=lambda row: (-row.played, -row.won, row.faction),
    )
    return PlayerPage(
        player=player,
        games=overall["seats"],
        wins=overall["wins"],
        average=_average(overall["points"], overall["seats"]),
        best=overall["best"],
        categories=[
            CategoryAverage(label=gettext(category.label),
                            average=_average(overall[f"vp_{category.key}"], overall["seats"]),
                            short=gettext(category.short_label or category.label))
            for category in CATEGORIES
        ],
        factions=factions,
        scores=player_latest_scores(player),
        others=others,
        aliases=aliases,
    )


# ---------------------------------------------------------------------------------------------
# Overall statistics, from the tallies (and the few games joined through links, summed here)


@dataclass(frozen=True)
class Share:
    label: str  # English (the template translates it): the edition's full words, a tap away
    vp: int
    percent: float
    short: str = ""  # English too: the row's short words (the pad's)


@dataclass(frozen=True)
class WinRate:
    label: str
    seats: int  # how many times it was played
    wins: int

    @property
    def percent(self) -> int:
        return round(100 * self.wins / self.seats) if self.seats else 0


@dataclass(frozen=True)
class OverallStatistics:
    games: int  # finished games behind every figure
    average_winning_score: float | None
    shares: list[Share]  # each category's share of all points
    by_faction: list[WinRate]
    by_seat: list[WinRate]


def overall_statistics(user) -> OverallStatistics:
    """Over the user's finished games (their own, and those joined through a live link): the
    average winning score, each category's share of all points, and the win rate by faction and
    by seat, each with the number behind it. The account's tallies, and the seats of the games
    it joined (another account's games, summed here): the same queries whatever the number of
    games."""
    sums: dict[tuple[str, str], Counter] = defaultdict(Counter)
    if getattr(user, "is_authenticated", False):
        for row in OwnerTally.objects.filter(owner=user):
            sums[row.scope, row.key].update(row_measures(row))
        joined = joined_games(user).filter(finished_at__isnull=False)
        for seat in Seat.objects.filter(game__in=joined):
            measures = seat_measures(seat)
            for scope_and_key in seat_scopes(seat):
                sums[scope_and_key].update(measures)
    overall = sums[Tally.Scope.ALL, ""]
    everything = overall["points"]
    parts = [(category.label, category.short_label or category.label, overall[f"vp_{category.key}"])
             for category in CATEGORIES]
    parts.append((MAJORITY_LABEL, MAJORITY_SHORT_LABEL, overall["vp_majority"]))
    shares = [Share(label, vp, round(100 * vp / everything, 1) if everything else 0.0, short)
              for label, short, vp in parts]

    def rates(scope: str) -> list[WinRate]:
        rows = [(key, row) for (kind, key), row in sums.items() if kind == scope and row["seats"]]
        rows.sort(key=lambda item: int(item[0]) if scope == Tally.Scope.SEAT else item[0])
        return [WinRate(key, row["seats"], row["wins"]) for key, row in rows]

    return OverallStatistics(
        games=overall["games"],
        average_winning_score=_average(overall["winner_points"], overall["wins"]),
        shares=shares,
        by_faction=rates(Tally.Scope.FACTION),
        by_seat=rates(Tally.Scope.SEAT),
    )


def already_stored(owner, games: Sequence[GameData]) -> list[bool]:
    """For each game of a document, whether ``owner`` already has it: a stored game with the
    same fingerprint (``gamefile.game_fingerprint``; docs/game-file.md, "Importing the same
    games twice"). A game without a date counts as played today, the date an import gives it."""
    today = timezone.localdate()
    fingerprints = [game_fingerprint(game, undated_as=today) for game in games]
    known = fingerprints_stored(owner, fingerprints)
    return [fingerprint in known for fingerprint in fingerprints]


FINGERPRINTS_ASKED = 500  # fingerprints looked up in one query (far below any database's limit)


def fingerprints_stored(owner, fingerprints: Sequence[str]) -> set[str]:
    """Those of ``fingerprints`` that one of the owner's games has (owner None: a game of
    nobody), looked up in the database (``Game.fingerprint``, indexed by owner), a few hundred
    at a time: never the games themselves."""
    wanted = sorted(set(fingerprints))
    found: set[str] = set()
    for start in range(0, len(wanted), FINGERPRINTS_ASKED):
        found.update(Game.objects.filter(owner=owner, fingerprint__in=wanted[start:start + FINGERPRINTS_ASKED])
                     .order_by().values_list("fingerprint", flat=True))  # (unordered: by the index alone)
    return found


def games_added_since(owner, games: Sequence[GameData], since: datetime) -> int:
    """How many of a document's games ``owner`` has among its games stored since ``since`` (when
    the file was sent): what importing the file added, whichever requests stored them (two tabs
    adding one file each store part of it, and each finds the other's games already stored). A
    game the document holds twice counts once, as it is stored once."""
    today = timezone.localdate()
    wanted = sorted({game_fingerprint(game, undated_as=today) for game in games})
    added = 0
    for start in range(0, len(wanted), FINGERPRINTS_ASKED):
        asked = wanted[start : start + FINGERPRINTS_ASKED]
        stored = Game.objects.filter(owner=owner, created_at__gte=since, fingerprint__in=asked)
        added += stored.order_by().values("fingerprint").distinct().count()
    return added


# ---------------------------------------------------------------------------------------------
# An account's language


def spoken_language(code: str | None) -> str | None:
    """``code`` when it is one of the site's languages (settings.LANGUAGES), else None."""
    codes = {language for language, _name in settings.LANGUAGES}
    return code if code in codes else None


def account_language(user) -> str | None:
    """The language the account chose, or None when it never chose one."""
    if not getattr(user, "is_authenticated", False):
        return None
    preference = LanguagePreference.objects.filter(user=user).values_list("language", flat=True).first()
    return spoken_language(preference)
