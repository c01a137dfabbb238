"""Reads: what the pages and commands need of stored games, in one or two queries each."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from django.core.paginator import Page, Paginator
from django.db.models import Avg, Case, Count, F, FloatField, IntegerField, Max, Prefetch, Q, QuerySet, Sum, Value, When
from django.db.models.functions import Cast, Coalesce
from django.utils import timezone
from django.utils.translation import gettext

from scoring.access import visible_games
from scoring.categories import CATEGORIES, MAJORITY_LABEL
from scoring.engine import GameResult, Sector
from scoring.gamefile import (
    MAX_AUTHOR_LENGTH,
    ChangeData,
    GameData,
    PlayerData,
    entry_of_field,
    game_fingerprint,
    value_of_text,
)
from scoring.models import Change, CombLayout, CombLayoutSector, Game, GameSector, HibernationTokens, Player, Seat


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
    """The names of the user's players (their Player records, the Automa aside), most games
    first, for the start form's suggestions: one query."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(
        Player.objects.filter(owner=user, is_automa=False)
        .annotate(games=Count("seats"))
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


def history_page(user, filters: HistoryFilters, page_number) -> tuple[Page, list[HistoryEntry]]:
    """One page of the user's games, newest first, narrowed by ``filters``: a count, the page's
    games and their seats (three queries, whatever the number of games), never scored again."""
    games = visible_games(user)
    if filters.player:
        games = games.filter(pk__in=Seat.objects.filter(name_key__contains=filters.player.strip().casefold())
                             .values("game_id"))
    if filters.faction:
        games = games.filter(pk__in=Seat.objects.filter(faction=filters.faction).values("game_id"))
    if filters.since:
        games = games.filter(played_on__gte=filters.since)
    if filters.until:
        games = games.filter(played_on__lte=filters.until)
    if filters.players:  # counted only when asked: a count per game costs a join over every seat
        games = games.annotate(player_count=Count("seats", distinct=True)).filter(player_count=filters.players)
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


def recent_changes(game: Game, limit: int = 8) -> list[Change]:
    """The game's latest changes, newest first, with who made them (for the pad's history)."""
    return list(
        Change.objects.filter(game=game).select_related("seat", "by_user", "by_link", "undoes")
        .prefetch_related("undone_by")[:limit]
    )


# ---------------------------------------------------------------------------------------------
# People across games: the players list and a player's page. Only finished games count; every
# figure is computed by the database (aggregates over the seats), so a page makes the same
# number of queries whatever the number of games.

FINISHED = Q(seats__game__finished_at__isnull=False)


def _rate(wins: int, games: int) -> int:
    return round(100 * wins / games) if games else 0


def _one_decimal(value) -> float | None:
    return None if value is None else round(float(value), 1)


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


def players_table(user) -> list[PlayerRow]:
    """Every person of the user's games (the Automa aside) with games, wins, average and best
    score over finished games; most wins first, then most games, then the name. One query."""
    rows = (
        players_of(user).filter(is_automa=False)
        .annotate(
            n_games=Count("seats", filter=FINISHED),
            n_wins=Count("seats", filter=FINISHED & Q(seats__is_winner=True)),
            average=Avg("seats__score_total", filter=FINISHED),
            best=Max("seats__score_total", filter=FINISHED),
        )
        .order_by("-n_wins", "-n_games", "name_key")
    )
    return [PlayerRow(player=row, games=row.n_games, wins=row.n_wins, average=_one_decimal(row.average),
                      best=row.best) for row in rows]


@dataclass
class CategoryAverage:
    label: str
    average: float


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
    scores: list[ScorePoint]  # oldest first
    others: list[Player]  # the user's other players this one may be merged into

    @property
    def win_rate(self) -> int:
        return _rate(self.wins, self.games)

    @property
    def latest(self) -> ScorePoint | None:
        return self.scores[-1] if self.scores else None


def _category_vp(category) -> Coalesce:
    """A seat's VP of a category in SQL: entries × VP per unit, an entry not made counting 0."""
    value = Cast(F(category.key), IntegerField()) if category.is_flag else F(category.key)
    return Coalesce(value, 0) * Value(category.vp_each)


def player_page(player: Player) -> PlayerPage:
    """A player's figures over finished games: four queries whatever the number of games (the
    figures with every category's average, the factions, the totals by date, the other players)."""
    seats = Seat.objects.filter(player=player, game__finished_at__isnull=False)
    figures = seats.aggregate(
        n_games=Count("id"),
        n_wins=Count("id", filter=Q(is_winner=True)),
        average=Avg("score_total"),
        best=Max("score_total"),
        **{f"vp_{category.key}": Avg(_category_vp(category), output_field=FloatField()) for category in CATEGORIES},
    )
    factions = (
        seats.exclude(faction="").values("faction")
        .annotate(played=Count("id"), won=Count("id", filter=Q(is_winner=True)))
        .order_by("-played", "-won", "faction")
    )
    scores = seats.order_by("game__played_on", "game__created_at", "game_id").values_list(
        "game__played_on", "game__public_id", "score_total", "is_winner"
    )
    others = [] if player.is_automa else list(
        Player.objects.filter(owner_id=player.owner_id, is_automa=False).exclude(pk=player.pk).order_by("name_key")
    )
    return PlayerPage(
        player=player,
        games=figures["n_games"],
        wins=figures["n_wins"],
        average=_one_decimal(figures["average"]),
        best=figures["best"],
        categories=[
            CategoryAverage(label=gettext(category.label), average=_one_decimal(figures[f"vp_{category.key}"]) or 0.0)
            for category in CATEGORIES
        ] if figures["n_games"] else [],
        factions=[FactionRow(row["faction"], row["played"], row["won"]) for row in factions],
        scores=[ScorePoint(played_on, game_id, total, winner) for played_on, game_id, total, winner in scores],
        others=others,
    )


# ---------------------------------------------------------------------------------------------
# Overall statistics, computed in the database (aggregates over the stored outcomes)


@dataclass(frozen=True)
class Share:
    label: str
    vp: int
    percent: float


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


def _category_vp(category):
    """A category's VP in one seat, as a database expression (not entered counts as 0)."""
    if category.is_flag:
        return Case(When(**{category.key: True}, then=Value(category.vp_each)), default=Value(0))
    return Coalesce(F(category.key), Value(0)) * Value(category.vp_each)


def overall_statistics(user) -> OverallStatistics:
    """Over the user's finished games: the average winning score, each category's share of all
    points, and the win rate by faction and by seat, each with the number behind it; four
    aggregate queries, whatever the number of games."""
    seats = Seat.objects.filter(game__in=visible_games(user).filter(finished_at__isnull=False))
    sums = seats.aggregate(
        games=Count("game", distinct=True),
        winning=Avg("score_total", filter=Q(is_winner=True)),
        everything=Sum("score_total"),
        majorities=Sum("score_majority"),
        **{f"vp_{category.key}": Sum(_category_vp(category)) for category in CATEGORIES},
    )
    everything = sums["everything"] or 0
    parts = [(category.label, sums[f"vp_{category.key}"] or 0) for category in CATEGORIES]
    parts.append((MAJORITY_LABEL, sums["majorities"] or 0))
    shares = [Share(label, vp, round(100 * vp / everything, 1) if everything else 0.0) for label, vp in parts]

    def rates(group: str) -> list[WinRate]:
        rows = (seats.exclude(**{group: ""}) if group == "faction" else seats).values(group).annotate(
            played=Count("id"), won=Count("id", filter=Q(is_winner=True))).order_by(group)
        return [WinRate(str(row[group]), row["played"], row["won"]) for row in rows]

    return OverallStatistics(
        games=sums["games"],
        average_winning_score=round(sums["winning"], 1) if sums["winning"] is not None else None,
        shares=shares,
        by_faction=rates("faction"),
        by_seat=rates("number"),
    )


def already_stored(owner, games: Sequence[GameData]) -> list[bool]:
    """For each game of a document, whether ``owner`` already has it: a stored game with the
    same fingerprint (``gamefile.game_fingerprint``; docs/game-file.md, "Importing the same
    games twice"). Only the owner's games of the document's dates can match."""
    today = timezone.localdate()  # what services.game_store gives a game without a date
    dates = {game.played_on or today for game in games}
    known = {
        game_fingerprint(game_data(stored))
        for stored in games_with_everything().filter(owner=owner, played_on__in=dates)
    }
    return [game_fingerprint(game, undated_as=today) in known for game in games]
