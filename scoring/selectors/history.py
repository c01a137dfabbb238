"""The history: a page of games at a time, filtered, from their stored outcomes (never a game
scored again to list it)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.core.paginator import Page, Paginator
from django.db.models import (
    Exists,
    OuterRef,
    QuerySet,
)
from django.utils.functional import cached_property

from scoring.actors import Keeper
from scoring.models import (
    Game,
    Seat,
)
from scoring.selectors.games import visible_games


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

    object_list: QuerySet[Game]
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
            Exists(Seat.objects.filter(game=OuterRef("pk"), number=filters.players + 1))
        )
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
