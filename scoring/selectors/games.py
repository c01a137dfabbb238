"""Reads of one game: as the pad, its poll and a save's answer see it (``game_state``), as the
game file writes it (``game_data``), and what the start form offers (saved comb layouts, the
names of the players the keeper has played with)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from django.db.models import (
    Count,
    F,
    FilteredRelation,
    Min,
    Prefetch,
    Q,
    QuerySet,
)
from django.db.models.functions import Coalesce

from scoring.actors import Keeper
from scoring.fields import PadField
from scoring.gamefile import (
    MAX_AUTHOR_LENGTH,
    ChangeData,
    GameData,
    PlayerData,
    entry_of_field,
    value_of_text,
)
from scoring.models import (
    Change,
    CombLayoutSector,
    Game,
    GameLink,
    GameMember,
    GameSector,
    HibernationTokens,
    LinkHolder,
    Player,
    Seat,
    Tally,
)
from scoring.rules.categories import Category, Section, categories_of, entry_at_start
from scoring.rules.engine import GameResult, PlayerSheet, Sector, score_game
from scoring.rules.sums import input_text
from scoring.tallies import counts as tallies_count

EXPORT_ORDER = ("played_on", "created_at", "id")  # oldest first, as the game file lists them


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
    page: str  # the page and the save number that wrote it last (fields.Guard)
    seq: int
    # The latest save number each recent page gave it (that one's too): a page's save that comes
    # back after another page wrote (a retry, a resent request) is still known as already in.
    seen: dict[str, int]


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
        return [
            {
                sector.pk: self.tokens[seat.pk, sector.pk]
                for sector in self.sectors
                if (seat.pk, sector.pk) in self.tokens
            }
            for seat in self.seats
        ]

    def stored(self, pad: PadField) -> Stored:
        """What a field of this game holds, for the pad (its cell) and a save (its guard)."""
        seat = pad.seat
        value = self.tokens.get((seat.pk, pad.sector.pk)) if pad.sector is not None else getattr(seat, pad.key)
        text = input_text(value, seat.sums.get(pad.key, "") if pad.category is not None else "")
        entry = list(seat.revisions.get(pad.key) or [])  # [version, page, seq(, {page: seq})] (services.pad)
        version, page, seq = (entry + [0, "", 0])[:3]
        seen = {str(name): int(number) for name, number in (entry[3] if len(entry) > 3 else {}).items()}
        if page:
            seen.setdefault(page, int(seq))  # (an entry written before pages were remembered: its last one)
        return Stored(value, text, int(version), page, int(seq), seen)

    def score(self) -> GameResult:
        return score_game(
            [Sector(sector.first_vp, sector.second_vp) for sector in self.sectors],
            [
                PlayerSheet(
                    entries=seat.entries(),
                    active_workers=seat.workers,
                    tokens=[self.tokens.get((seat.pk, sector.pk), 0) for sector in self.sectors],
                )
                for seat in self.seats
            ],
            self.game.during,
        )

    @property
    def counted(self) -> bool:
        """Whether its seats count in the tallies (a finished game of an account)."""
        return tallies_count(self.game)

    def anything_entered(self) -> bool:
        """Whether any player has entered a value yet: an entry (a yes ticked; the breakdown's
        starting VP as the game filled them in aside), a token count or active workers."""
        during = self.game.during

        def typed(seat: Seat, category: Category) -> bool:
            value = getattr(seat, category.key)
            return value is not None and value is not False and value != entry_at_start(category, during, seat.number)

        return bool(self.tokens) or any(
            seat.active_workers is not None or any(typed(seat, category) for category in categories_of(during))
            for seat in self.seats
        )

    def during_entered(self) -> list[tuple[Seat, Category]]:
        """The during-the-game values entered the way the game counts them now, seat by seat (the
        breakdown's starting VP as the game filled them in aside): while there is none, the game
        may count them the other way (``services.pad.game_mode_change``)."""
        during = self.game.during
        return [
            (seat, category)
            for seat in self.seats
            for category in categories_of(during, Section.DURING)
            if getattr(seat, category.key) not in (None, entry_at_start(category, during, seat.number))
        ]


def game_state(game: Game) -> GameState:
    """The game's seats (each with the game's row, read again: a write that has just locked the
    game sees it as it stands) and its comb: two statements, whatever the number of players and
    sectors. The comb comes as rows of sectors, each joined to the tokens placed there."""
    seats = list(Seat.objects.filter(game_id=game.pk).select_related("game").order_by("number"))
    comb = (
        GameSector.objects.filter(game_id=game.pk)
        .order_by("position", "tokens__seat_id")
        .values_list("pk", "position", "first_vp", "second_vp", "tokens__seat_id", "tokens__count")
    )
    sectors: dict[int, GameSector] = {}
    tokens: dict[tuple[int, int], int] = {}
    for pk, position, first_vp, second_vp, seat_id, count in comb:
        if pk not in sectors:
            sectors[pk] = GameSector(pk=pk, game_id=game.pk, position=position, first_vp=first_vp, second_vp=second_vp)
        if seat_id is not None:
            tokens[seat_id, pk] = count
    return GameState(game=seats[0].game if seats else game, sectors=list(sectors.values()), seats=seats, tokens=tokens)


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
            history.append(
                ChangeData(
                    player=seat_numbers[row.seat_id],
                    entry=entry_of_field(row.field),
                    old=value_of_text(row.old),
                    new=value_of_text(row.new),
                    at=row.at,
                    by=row.author[:MAX_AUTHOR_LENGTH].strip(),  # a display name may be longer than the file allows
                    by_link=row.by_link_holder,  # the name apart: a link's holder is never taken for the owner
                    undoes=undoes,  # None too when the undone change is not earlier in the list
                )
            )
    return GameData(
        players=players,
        comb=[Sector(sector.first_vp, sector.second_vp) for sector in sectors],
        played_on=game.played_on,
        notes=game.notes,
        play_minutes=game.play_minutes,
        started_at=game.created_at,
        finished_at=game.finished_at,
        end_trigger_token=game.end_trigger_token,
        during=game.during,
        changes=history,
    )


def game_result(game: Game) -> GameResult:
    """The engine's result for a game loaded with ``games_with_everything``."""
    return game_data(game).score()


def games_downloaded(keeper: Keeper) -> QuerySet[Game]:
    """The games of ``keeper`` (an account's, or a visitor's browser's) as *Your data* downloads
    them: oldest first, with everything the game file and the spreadsheet read."""
    return games_with_everything().filter(pk__in=keeper.games().values("pk")).order_by(*EXPORT_ORDER)


def games_for_export(owner=None, *, keeper: Keeper | None = None) -> list[GameData]:
    """Every stored game (or every game of ``owner``, or of ``keeper``), oldest first, as
    game-file data with its change history."""
    games = games_with_everything()
    if keeper is not None:
        games = games_downloaded(keeper)
    elif owner is not None:
        games = games.filter(owner=owner)
    games = games.prefetch_related(
        Prefetch("changes", queryset=Change.objects.select_related("by_user").order_by("at", "id"))
    )
    return [game_data(game, changes=True) for game in games.order_by(*EXPORT_ORDER)]


def comb_layouts(keeper: Keeper) -> list:
    """The keeper's saved comb layouts (an account's, or a visitor's browser's), the one used
    last first."""
    return list(
        keeper.layouts().prefetch_related(Prefetch("sectors", queryset=CombLayoutSector.objects.order_by("position")))
    )


def known_player_names(keeper: Keeper) -> list[str]:
    """The names of the keeper's players (an account's Player records, the Automa aside), most
    finished games first, for the start form's and the history's suggestions: one query, read
    from the tallies. A visitor has no Player records yet: the names of its games' seats, most
    games first."""
    if keeper.is_visitor:
        return list(
            Seat.objects.filter(game__in=keeper.games(), is_automa=False)
            .values("name_key")
            .annotate(seats=Count("pk"), shown=Min("name"))
            .order_by("-seats", "name_key")
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


def games_kept_count(keeper: Keeper) -> int:
    """How many games the keeper owns (an account's, or a visitor's browser's)."""
    return keeper.games().count()


def games_of_links_count(links: Iterable[int]) -> int:
    """How many games those share links (by id) still reach."""
    return games_of_links(links).count()


def link_live(token: str) -> GameLink | None:
    """The live share link of that token, with its game (None: no such link, or revoked)."""
    return GameLink.objects.select_related("game").filter(token=token, revoked_at__isnull=True).first()


def games_of_links(links: Iterable[int]) -> QuerySet[Game]:
    """The games of those share links (by id) that are still live."""
    return Game.objects.filter(links__pk__in=list(links), links__revoked_at__isnull=True).distinct()


def game_played_next(game: Game) -> Game | None:
    """The next game of ``game``'s table, started after it with *Play again* (the latest, should
    its owner have started two)."""
    return Game.objects.filter(played_after=game).order_by("-created_at", "-pk").first()


def seat_of_same_player(seat_number: int | None, before: Game, game: Game) -> Seat | None:
    """The seat of ``game`` where the player of ``before``'s seat ``seat_number`` sits now (the
    same name, as the history matches names: ``Seat.name_key``), if they play it."""
    if not seat_number:
        return None
    was = Seat.objects.filter(game=before, number=seat_number).values_list("name_key", flat=True).first()
    return Seat.objects.filter(game=game, name_key=was, is_automa=False).first() if was else None


def game_links_live(game: Game) -> list[GameLink]:
    """The game's live share links, edit first, each with who is in the game by it (``holders``,
    first in first, with their accounts)."""
    return list(
        game.links.filter(revoked_at__isnull=True)
        .prefetch_related(Prefetch("holders", queryset=LinkHolder.objects.select_related("user")))
        .order_by("access")
    )


def game_shared(game: Game) -> bool:
    """Whether the game has a live share link (its table's phones may hold it)."""
    return game.links.filter(revoked_at__isnull=True).exists()


def visible_games(user) -> QuerySet[Game]:
    """The games a signed-in user sees in their history: those they own and those they joined
    through a link that is still live."""
    if not user.is_authenticated:
        return Game.objects.none()
    joined = list(memberships(user).values_list("game_id", flat=True))
    if not joined:  # most users: their own games only, read through the history's index
        return Game.objects.filter(owner=user)
    return Game.objects.filter(Q(owner=user) | Q(pk__in=joined))


def joined_games(user) -> QuerySet[Game]:
    """The games a signed-in user joined through a link that is still live (not their own), found
    from their memberships: a query that reads the user's few memberships, never the games of the
    accounts they belong to."""
    return Game.objects.filter(pk__in=memberships(user).values("game_id")).exclude(owner=user)


def memberships(user) -> QuerySet[GameMember]:
    """The user's memberships of games, through links that are still live."""
    return GameMember.objects.filter(user=user, link__revoked_at__isnull=True)


def is_member(user, game: Game) -> bool:
    """Whether the user is a member of the game through a link that is still live."""
    return memberships(user).filter(game=game).exists()
