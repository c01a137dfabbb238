"""Small helpers that create games the way the app does: through ``scoring.services``.

``game_started`` is a game as the start form creates it (``services.games.game_create``: seats in order),
its during-the-game points as the breakdown (starting VP 1, 2, 3, ...) unless ``during`` says the
VP track (a new game's default on the start form). ``game_scored`` is a game with entries, active
workers and comb tokens already filled in (``services.imports.game_store``, as an import does),
for pages that show results.

Every game has an owner: the user ``owner()`` (the same account in a test, the one that
``tests/conftest.py``'s ``owner`` fixture gives), unless the test passes ``owner=`` itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from scoring.actors import NOBODY, Actor
from scoring.fields import WORKERS, FieldAddress, tokens_key
from scoring.gamefile import GameData, PlayerData
from scoring.models import Game, GameSector, Seat
from scoring.rules.categories import During, categories_of
from scoring.rules.engine import Sector
from scoring.selectors.games import game_state
from scoring.services.finishing import game_finish, game_reopen
from scoring.services.games import PlayerSetup, game_create
from scoring.services.imports import game_store
from scoring.services.outcomes import OUTCOME_FIELDS
from scoring.services.pad import NO_GUARD, Guard, SaveResult, field_save

# The comb most tests use: sector 1 (9 / 4 VP), sector 2 (13 / 0: no 2nd place), sector 3 (6 / 3).
COMB: tuple[tuple[int, int], ...] = ((9, 4), (13, 0), (6, 3))
THREE_PLAYERS: tuple[str, ...] = ("Alice", "Bruno", "Carla")
# The number categories of a breakdown game (every category but the yes/no entries), by key.
NUMBER_KEYS: tuple[str, ...] = tuple(c.key for c in categories_of(During.BREAKDOWN) if not c.is_flag)
OWNER = "owner"  # the user name of the account that owns the games of the tests
PASSWORD = "a-long-pass-phrase-of-the-owner"

_DEFAULT = object()


MEMBER_SINCE = timedelta(days=90)  # how long ago ``user``'s accounts were made: none is a new account


def user(username: str, *, new: bool = False) -> User:
    """An account (created the first time it is asked for), with the password PASSWORD: made
    MEMBER_SINCE ago, or now when ``new`` (the import's waiting room bounds new accounts tighter)."""
    found = User.objects.filter(username=username).first()
    if found is not None:
        return found
    joined = timezone.now() - (timedelta(0) if new else MEMBER_SINCE)
    return User.objects.create_user(username, password=PASSWORD, date_joined=joined)


def owner() -> User:
    """The account that owns the games the factories create (unless told otherwise)."""
    return user(OWNER)


def _owner(given):
    return owner() if given is _DEFAULT else given


def game_started(
    *names: str,
    sectors: Sequence[tuple[int, int]] = COMB,
    played_on: date | None = None,
    end_trigger_token: int = 7,
    notes: str = "",
    during: During = During.BREAKDOWN,
    owner=_DEFAULT,
    visitor: str | None = None,
) -> Game:
    """A game just started from the start form, with these players in turn order (default: three),
    its during-the-game points ``during`` (the breakdown unless told), owned by ``owner()`` unless
    ``owner`` is given (None: a game from before accounts) or ``visitor`` is (a visitor's game: a
    browser's without an account, no owner)."""
    return game_create(
        players=[PlayerSetup(name) for name in (names or THREE_PLAYERS)],
        sectors=sectors,
        played_on=played_on,
        notes=notes,
        end_trigger_token=end_trigger_token,
        during=during,
        owner=None if visitor else _owner(owner),
        visitor=visitor,
    )


def player(
    name: str,
    *,
    workers: int = 0,
    tokens: Sequence[int] = (),
    faction: str = "",
    automa: bool = False,
    **entries: int | bool,
) -> PlayerData:
    """One player of ``game_scored``: entries by category key, e.g. ``player("Alice", farm_income=12)``.

    The seat number is given by ``game_scored`` from the player's position.
    """
    return PlayerData(
        name=name,
        seat=0,
        faction=faction,
        automa=automa,
        active_workers=workers,
        entries=dict(entries),
        hibernation=list(tokens),
    )


def game_scored(
    *players: PlayerData,
    sectors: Sequence[tuple[int, int]] = COMB,
    played_on: date | None = None,
    finished: bool = False,
    end_trigger_token: int = 7,
    during: During = During.BREAKDOWN,
    owner=_DEFAULT,
    visitor: str | None = None,
) -> Game:
    """A game with its scores already entered; tokens default to none in every sector; its
    during-the-game points ``during`` (the breakdown unless told: ``player(..., vp_track=40)``
    for the VP track). Owned by ``owner()`` unless ``owner`` is given (or a visitor's, as
    ``game_started``)."""
    seated = []
    for number, data in enumerate(players, start=1):
        data.seat = number
        if data.hibernation and len(data.hibernation) != len(sectors):
            raise ValueError(f"{data.name} has tokens for {len(data.hibernation)} sectors, not {len(sectors)}")
        seated.append(data)
    game = game_store(
        GameData(
            players=seated,
            comb=[Sector(first, second) for first, second in sectors],
            played_on=played_on,
            end_trigger_token=end_trigger_token,
            during=during,
        ),
        finished=finished,
        owner=None if visitor else _owner(owner),
        visitor=visitor,
    )
    return game


def game_all_entered(**kwargs) -> Game:
    """A breakdown game of Alice and Bruno on ``COMB`` with nothing for *Finish* to ask: every number
    category entered for Alice, a token on the comb, both players' active workers."""
    return game_scored(
        player("Alice", workers=1, tokens=[1, 0, 0], **dict.fromkeys(NUMBER_KEYS, 1)),
        player("Bruno", workers=2),
        **kwargs,
    )


def save_value(
    *, seat: Seat, key: str, value=None, sum_text: str = "", delta: int = 0, guard: Guard = NO_GUARD, by: Actor = NOBODY
) -> SaveResult:
    """One value of a seat saved as the pad saves it (``services.pad.field_save``), the seat object
    read again after it."""
    result = field_save(
        game=seat.game,
        address=FieldAddress(seat.number, key),
        value=value,
        sum_text=sum_text,
        step=delta,
        guard=guard,
        by=by,
    )
    seat.refresh_from_db()
    return result


def value_corrected(*, seat: Seat, key: str, value=None, sum_text: str = "", by: Actor = NOBODY) -> SaveResult:
    """A value of a finished game corrected as its owner corrects it: the game reopened, the value
    saved, the game finished again (a finished game takes no value: ``Outcome.FINISHED``)."""
    game_reopen(game=seat.game, by=by)
    result = save_value(seat=seat, key=key, value=value, sum_text=sum_text, by=by)
    game_finish(game=seat.game, by=by)
    return result


def save_tokens(
    *,
    seat: Seat,
    sector: GameSector,
    count: int | None = None,
    delta: int = 0,
    guard: Guard = NO_GUARD,
    by: Actor = NOBODY,
) -> SaveResult:
    """A seat's tokens in a sector saved as the pad saves them."""
    return save_value(seat=seat, key=tokens_key(sector.position), value=count, delta=delta, guard=guard, by=by)


def save_workers(
    *, seat: Seat, workers: int | None = None, delta: int = 0, guard: Guard = NO_GUARD, by: Actor = NOBODY
) -> SaveResult:
    """A seat's active workers saved as the pad saves them."""
    return save_value(seat=seat, key=WORKERS, value=workers, delta=delta, guard=guard, by=by)


def seat_of(game: Game, number: int) -> Seat:
    """The seat, read again from the database (to see what a request stored)."""
    return Seat.objects.get(game=game, number=number)


def tokens_of(game: Game, number: int) -> list[int]:
    """The seat's tokens per sector, in sector order, read again from the database."""
    state = game_state(game)
    seat = next(seat for seat in state.seats if seat.number == number)
    return [state.tokens.get((seat.pk, sector.pk), 0) for sector in state.sectors]


def total_of(game: Game, number: int) -> int:
    """The seat's total VP as the engine scores the stored game."""
    return game_state(game).score().players[number - 1].total


def revision_of(game: Game) -> int:
    """The game's revision as stored (every write moves it on by one)."""
    return Game.objects.values_list("revision", flat=True).get(pk=game.pk)


def stored_outcomes(game: Game) -> list[tuple]:
    """What each seat of the game stores of its outcome (``services.outcomes.OUTCOME_FIELDS``), seat by seat."""
    return list(Seat.objects.filter(game=game).order_by("number").values_list(*OUTCOME_FIELDS))
