"""Reads: what the pages and commands need of stored games, in one or two queries each."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from django.core.paginator import Page, Paginator
from django.db.models import Count, Prefetch, QuerySet

from scoring.access import visible_games
from scoring.engine import GameResult, Sector
from scoring.gamefile import MAX_AUTHOR_LENGTH, ChangeData, GameData, PlayerData, entry_of_field, value_of_text
from scoring.models import Change, CombLayout, CombLayoutSector, Game, GameSector, HibernationTokens, Seat


def games_with_everything() -> QuerySet[Game]:
    """Games with their sectors, seats and tokens prefetched (ordered for scoring)."""
    return Game.objects.prefetch_related(
        Prefetch("sectors", queryset=GameSector.objects.order_by("position")),
        Prefetch("seats", queryset=Seat.objects.order_by("number")),
        Prefetch("seats__tokens", queryset=HibernationTokens.objects.select_related("sector")),
    )


def game_get(game_id: int) -> Game:
    """One game with everything it needs for scoring; raises Game.DoesNotExist."""
    return games_with_everything().get(pk=game_id)


def seat_tokens(seat: Seat, sectors: Iterable[GameSector]) -> list[int]:
    """The seat's tokens per sector, in sector order (uses the prefetched tokens)."""
    by_sector = {tokens.sector_id: tokens.count for tokens in seat.tokens.all()}
    return [by_sector.get(sector.pk, 0) for sector in sectors]


def game_data(game: Game, *, changes: bool = False) -> GameData:
    """A stored game as the game file sees it (entries not made yet count as 0).

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
            entries=seat.entries(),
            hibernation=seat_tokens(seat, sectors),
        )
        for seat in seats
    ]
    history: list[ChangeData] = []
    if changes:
        if "changes" in getattr(game, "_prefetched_objects_cache", {}):
            rows = list(game.changes.all())
        else:
            rows = list(Change.objects.filter(game=game).select_related("by_user", "by_link"))
        rows.sort(key=lambda row: (row.at, row.pk))  # oldest first, whatever order they came in
        seat_numbers = {seat.pk: seat.number for seat in seats}
        index_of: dict[int, int] = {}
        for row in rows:
            if row.by_user is not None:
                by = row.by_user.get_username()
            elif row.by_name.strip():
                by = row.by_name
            elif row.by_link is not None:
                by = f"{row.by_link.access} link"  # "edit link" or "view link"
            else:
                by = ""
            undoes = index_of.get(row.undoes_id) if row.undoes_id is not None else None
            index_of[row.pk] = len(history)
            history.append(ChangeData(
                player=seat_numbers[row.seat_id],
                entry=entry_of_field(row.field),
                old=value_of_text(row.old),
                new=value_of_text(row.new),
                at=row.at,
                by=by.strip()[:MAX_AUTHOR_LENGTH],  # a username may be longer than the file allows
                undoes=undoes,  # None too when the undone change is not earlier in the list
            ))
    return GameData(
        players=players,
        comb=[Sector(sector.first_vp, sector.second_vp) for sector in sectors],
        played_on=game.played_on,
        notes=game.notes,
        end_trigger_token=game.end_trigger_token,
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
        Prefetch("changes", queryset=Change.objects.select_related("by_user", "by_link").order_by("at", "id"))
    )
    return [game_data(game, changes=True) for game in games.order_by("played_on", "created_at", "id")]


def comb_layouts(user) -> list:
    """The user's saved comb layouts, the one used last first."""
    return list(
        CombLayout.objects.filter(owner=user).prefetch_related(
            Prefetch("sectors", queryset=CombLayoutSector.objects.order_by("position"))
        )
    )


def known_player_names(user) -> list[str]:
    """Names from the user's earlier games, most used first, for the start form's suggestions."""
    rows = (
        Seat.objects.filter(is_automa=False, game__in=visible_games(user))
        .values("name")
        .annotate(games=Count("id"))
        .order_by("-games", "name")[:50]
    )
    seen: set[str] = set()
    names = []
    for row in rows:
        if row["name"].casefold() not in seen:
            seen.add(row["name"].casefold())
            names.append(row["name"])
    return names


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


def history_page(user, filters: HistoryFilters, page_number) -> tuple[Page, list[HistoryEntry]]:
    """One page of the user's games, newest first, narrowed by ``filters``: a count, the page's
    games and their seats (three queries, whatever the number of games), never scored again."""
    games = visible_games(user).annotate(player_count=Count("seats", distinct=True))
    if filters.player:
        games = games.filter(pk__in=Seat.objects.filter(name_key__contains=filters.player.strip().casefold())
                             .values("game_id"))
    if filters.faction:
        games = games.filter(pk__in=Seat.objects.filter(faction=filters.faction).values("game_id"))
    if filters.since:
        games = games.filter(played_on__gte=filters.since)
    if filters.until:
        games = games.filter(played_on__lte=filters.until)
    if filters.players:
        games = games.filter(player_count=filters.players)
    if filters.status == "finished":
        games = games.filter(finished_at__isnull=False)
    elif filters.status == "in-progress":
        games = games.filter(finished_at__isnull=True)
    games = games.order_by("-played_on", "-created_at", "-id")
    page = Paginator(games, HISTORY_PAGE_SIZE).get_page(page_number)
    seats = Seat.objects.filter(game__in=[game.pk for game in page.object_list]).order_by("game_id", "number")
    by_game: dict[int, list[Seat]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    return page, [HistoryEntry(game=game, seats=by_game.get(game.pk, [])) for game in page.object_list]


def history(user) -> list[HistoryEntry]:
    """The user's games (owned or joined through a live link), newest first, with their
    players, totals and winners as stored: two queries, and no game is scored again."""
    games = (
        visible_games(user)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.order_by("number")))
        .order_by("-played_on", "-created_at", "-id")
    )
    return [HistoryEntry(game=game, seats=list(game.seats.all())) for game in games]


@dataclass
class PlayerStatistics:
    name: str
    games: int = 0
    wins: int = 0
    best: int = 0
    total_vp: int = 0

    @property
    def average(self) -> float:
        return round(self.total_vp / self.games, 1) if self.games else 0.0

    @property
    def win_rate(self) -> int:
        return round(100 * self.wins / self.games) if self.games else 0


def player_statistics(user) -> list[PlayerStatistics]:
    """Per player name (ignoring case) over finished games: games, wins, best and average score.
    The Automa is not a player to keep statistics of."""
    stats: dict[str, PlayerStatistics] = {}
    for entry in history(user):
        if not entry.game.is_finished:
            continue
        for seat, outcome in entry.players:
            if seat.is_automa:
                continue
            item = stats.setdefault(seat.name.casefold(), PlayerStatistics(name=seat.name))
            item.games += 1
            item.wins += 1 if outcome.winner else 0
            item.best = max(item.best, outcome.total)
            item.total_vp += outcome.total
    return sorted(stats.values(), key=lambda s: (-s.wins, -s.games, s.name.casefold()))


def recent_changes(game: Game, limit: int = 8) -> list[Change]:
    """The game's latest changes, newest first, with who made them (for the pad's history)."""
    return list(
        Change.objects.filter(game=game).select_related("seat", "by_user", "by_link", "undoes")
        .prefetch_related("undone_by")[:limit]
    )
