"""Specification of the database constraints of ``scoring/models.py``.

The database itself refuses every row that breaks a rule of ``docs/game-file.md`` and
``docs/scoring-rules.md``: each CheckConstraint and UniqueConstraint is shown to reject a bad
row with IntegrityError (and the rows just inside the limits are shown to be accepted). The last
test checks that no constraint of the models is left without a case here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.db import IntegrityError, models, transaction

from scoring.models import (
    CombLayout,
    CombLayoutSector,
    Game,
    GameEvent,
    GameLink,
    GameMember,
    GameSector,
    HibernationTokens,
    LinkHolder,
    OwnerTally,
    Player,
    PlayerAlias,
    PlayerTally,
    Seat,
)
from tests.support.factories import user

pytestmark = pytest.mark.django_db

VISITOR = "v" * 32  # a visitor's id (a browser's, without an account)


def make_game(**fields: Any) -> Game:
    return Game.objects.create(**fields)


def make_seat(game: Game | None = None, **fields: Any) -> Seat:
    fields = {"number": 1, "name": "Alice", **fields}
    return Seat.objects.create(game=game or make_game(), **fields)


def make_sector(game: Game | None = None, **fields: Any) -> GameSector:
    fields = {"position": 0, "first_vp": 9, "second_vp": 4, **fields}
    return GameSector.objects.create(game=game or make_game(), **fields)


def make_tokens(**fields: Any) -> HibernationTokens:
    game = make_game()
    fields = {"seat": make_seat(game), "sector": make_sector(game), "count": 2, **fields}
    return HibernationTokens.objects.create(**fields)


def make_layout_sector(**fields: Any) -> CombLayoutSector:
    fields = {"position": 0, "first_vp": 9, "second_vp": 4, **fields}
    return CombLayoutSector.objects.create(layout=CombLayout.objects.create(name="Base"), **fields)


# Entry limits from FORMAT.md (written out, not read from scoring.rules.categories).
ENTRY_LIMITS = {
    **dict.fromkeys(
        (
            "vp_track",
            "starting_vp",
            "explore_tokens",
            "farm_income",
            "comb_pods",
            "hive_build_bonuses",
            "advance_strength4",
            "explore_strength4",
            "tile_abilities",
            "seed_card_benefits",
            "planted_seed_cards",
            "recruits",
            "developments",
            "queens_favor",
            "faction_ability",
        ),
        (0, 999),
    ),
    "carvings": (-99, 999),
    "farms": (0, 99),
    "frames_filled": (0, 15),
}


def check(id: str, create: Callable[[], Any], constraint: str) -> Any:
    return pytest.param(create, constraint, id=id)


# A row that breaks one CheckConstraint, and the name of that constraint.
CHECK_VIOLATIONS = [
    check("game-end_trigger_token-5", lambda: make_game(end_trigger_token=5), "game_end_trigger_token_6_or_7"),
    check("game-end_trigger_token-8", lambda: make_game(end_trigger_token=8), "game_end_trigger_token_6_or_7"),
    check("game-during_mode-both", lambda: make_game(during_mode="both"), "game_during_mode_track_or_breakdown"),
    check("game-during_mode-empty", lambda: make_game(during_mode=""), "game_during_mode_track_or_breakdown"),
    check("game-play_minutes-0", lambda: make_game(play_minutes=0), "game_play_minutes_range"),
    check("game-play_minutes-1441", lambda: make_game(play_minutes=24 * 60 + 1), "game_play_minutes_range"),
    check("seat-number-0", lambda: make_seat(number=0), "seat_number_range"),
    check("seat-number-6", lambda: make_seat(number=6), "seat_number_range"),
    check("seat-name-empty", lambda: make_seat(name=""), "seat_name_not_empty"),
    check("seat-active_workers-5", lambda: make_seat(active_workers=5), "seat_active_workers_range"),
    *[
        check(f"seat-{key}={value}", lambda key=key, value=value: make_seat(**{key: value}), f"seat_{key}_range")
        for key, (low, high) in ENTRY_LIMITS.items()
        for value in (low - 1, high + 1)
    ],
    check("sector-position-20", lambda: make_sector(position=20), "gamesector_position_range"),
    check("sector-first_vp-100", lambda: make_sector(first_vp=100), "gamesector_first_vp_range"),
    check("sector-second_vp-100", lambda: make_sector(second_vp=100), "gamesector_second_vp_range"),
    check("tokens-count-8", lambda: make_tokens(count=8), "tokens_count_range"),
    check("layout-name-empty", lambda: CombLayout.objects.create(name=""), "layout_name_not_empty"),
    # An account's or a visitor's (a browser without an account), never both.
    check(
        "game-owner-and-visitor",
        lambda: make_game(owner=user("ann"), visitor=VISITOR),
        "game_owner_or_visitor_not_both",
    ),
    check(
        "layout-owner-and-visitor",
        lambda: CombLayout.objects.create(owner=user("ann"), visitor=VISITOR, name="Base"),
        "layout_owner_or_visitor_not_both",
    ),
    check(
        "link-access-other", lambda: GameLink.objects.create(game=make_game(), access="own"), "link_access_edit_or_view"
    ),
    check(
        "game-event-what-other",
        lambda: GameEvent.objects.create(game=make_game(), what="paused"),
        "game_event_what_known",
    ),
    check(
        "game-event-minutes-not-a-length",
        lambda: GameEvent.objects.create(game=make_game(), what="finished", minutes=85),
        "game_event_minutes_of_length",
    ),
    check("layout-sector-position-20", lambda: make_layout_sector(position=20), "comblayoutsector_position_range"),
    check("layout-sector-first_vp-100", lambda: make_layout_sector(first_vp=100), "comblayoutsector_first_vp_range"),
    check("layout-sector-second_vp-100", lambda: make_layout_sector(second_vp=100), "comblayoutsector_second_vp_range"),
    check("player-name-empty", lambda: Player.objects.create(owner=user("ann"), name=""), "player_name_not_empty"),
    check(
        "player-alias-empty",
        lambda: PlayerAlias.objects.create(
            owner=user("ann"), player=Player.objects.create(owner=user("ann"), name="Ann"), name=""
        ),
        "player_alias_not_empty",
    ),
]


@pytest.mark.parametrize("create, constraint", CHECK_VIOLATIONS)
def test_check_constraint_rejects_a_bad_row(create, constraint):
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        create()
    # Both SQLite ("CHECK constraint failed: <name>") and PostgreSQL name the constraint.
    assert constraint in str(caught.value)


def _two_seats(first: dict[str, Any], second: dict[str, Any], same_game: bool = True) -> Callable[[], None]:
    def create() -> None:
        game = make_game()
        make_seat(game, **first)
        make_seat(game if same_game else make_game(), **second)

    return create


def _two_sectors(same_game: bool = True) -> Callable[[], None]:
    def create() -> None:
        game = make_game()
        make_sector(game, position=3)
        make_sector(game if same_game else make_game(), position=3)

    return create


def _tokens_twice() -> None:
    game = make_game()
    seat, sector = make_seat(game), make_sector(game)
    HibernationTokens.objects.create(seat=seat, sector=sector, count=1)
    HibernationTokens.objects.create(seat=seat, sector=sector, count=2)


def _layout_sector_twice() -> None:
    layout = CombLayout.objects.create(name="Base")
    CombLayoutSector.objects.create(layout=layout, position=0, first_vp=9)
    CombLayoutSector.objects.create(layout=layout, position=0, first_vp=6)


def _layout_name_twice(same_owner: bool = True) -> Callable[[], None]:
    def create() -> None:
        CombLayout.objects.create(owner=user("ann"), name="Base")
        CombLayout.objects.create(owner=user("ann" if same_owner else "ben"), name="Base")

    return create


def _visitor_layout_name_twice(same_visitor: bool = True) -> Callable[[], None]:
    def create() -> None:
        CombLayout.objects.create(visitor=VISITOR, name="Base")
        CombLayout.objects.create(visitor=VISITOR if same_visitor else "w" * 32, name="Base")

    return create


def _two_live_links(access: str, same_access: bool = True, revoke_first: bool = False) -> Callable[[], None]:
    def create() -> None:
        game = make_game()
        first = GameLink.objects.create(game=game, access=access)
        if revoke_first:
            first.revoked_at = first.created_at
            first.save()
        GameLink.objects.create(game=game, access=access if same_access else ("view" if access == "edit" else "edit"))

    return create


def _member_twice() -> None:
    link = GameLink.objects.create(game=make_game(), access="edit")
    GameMember.objects.create(game=link.game, user=user("ben"), link=link)
    GameMember.objects.create(game=link.game, user=user("ben"), link=link)


def _holder_twice() -> None:
    link = GameLink.objects.create(game=make_game(), access="edit")
    LinkHolder.objects.create(link=link, phone="a-phone-tag")
    LinkHolder.objects.create(link=link, phone="a-phone-tag", seat=1)


def _two_players(first: dict, second: dict, *, same_owner: bool = True) -> Callable[[], None]:
    def create() -> None:
        Player.objects.create(owner=user("ann"), **first)
        Player.objects.create(owner=user("ann" if same_owner else "ben"), **second)

    return create


def _owner_tally_twice() -> None:
    OwnerTally.objects.create(owner=user("ann"), scope="faction", key="Ana")
    OwnerTally.objects.create(owner=user("ann"), scope="faction", key="Ana")


def _alias_twice() -> None:
    ann = Player.objects.create(owner=user("ann"), name="Ann")
    PlayerAlias.objects.create(owner=ann.owner, player=ann, name="Annie")
    PlayerAlias.objects.create(owner=ann.owner, player=Player.objects.create(owner=ann.owner, name="Bob"), name="ANNIE")


def _player_tally_twice() -> None:
    player = Player.objects.create(owner=user("ann"), name="Ann")
    PlayerTally.objects.create(player=player, scope="all", key="")
    PlayerTally.objects.create(player=player, scope="all", key="")


def unique(id: str, create: Callable[[], None], constraint: str) -> Any:
    return pytest.param(create, constraint, id=id)


# Two rows that break one UniqueConstraint (the second one is refused).
UNIQUE_VIOLATIONS = [
    unique("seat-number-duplicate", _two_seats({"name": "Alice"}, {"name": "Bob"}), "seat_number_unique_per_game"),
    unique(
        "seat-name-duplicate",
        _two_seats({"name": "Alice"}, {"name": "Alice", "number": 2}),
        "seat_name_unique_per_game_ignoring_case",
    ),
    unique(
        "seat-name-duplicate-ignoring-case",
        _two_seats({"name": "Alice"}, {"name": "alice", "number": 2}),
        "seat_name_unique_per_game_ignoring_case",
    ),
    unique(
        "seat-name-duplicate-ignoring-case-upper",
        _two_seats({"name": "bob"}, {"name": "BOB", "number": 2}),
        "seat_name_unique_per_game_ignoring_case",
    ),
    # FORMAT.md: "unique within the game, ignoring case" -- for every name, not only ASCII ones.
    unique(
        "seat-name-duplicate-ignoring-case-non-ascii",
        _two_seats({"name": "Émile"}, {"name": "émile", "number": 2}),
        "seat_name_unique_per_game_ignoring_case",
    ),
    unique(
        "seat-two-automa",
        _two_seats({"name": "Bot", "is_automa": True}, {"name": "Bot 2", "number": 2, "is_automa": True}),
        "seat_one_automa_per_game",
    ),
    unique("sector-position-duplicate", _two_sectors(), "sector_position_unique_per_game"),
    unique("tokens-seat-and-sector-duplicate", _tokens_twice, "tokens_unique_per_seat_and_sector"),
    unique("layout-sector-position-duplicate", _layout_sector_twice, "layout_sector_position_unique"),
    unique("layout-name-duplicate-for-one-owner", _layout_name_twice(), "layout_name_unique_per_owner"),
    unique("layout-name-duplicate-for-one-visitor", _visitor_layout_name_twice(), "layout_name_unique_per_visitor"),
    unique("two-live-edit-links", _two_live_links("edit"), "one_live_link_per_access"),
    unique("two-live-view-links", _two_live_links("view"), "one_live_link_per_access"),
    unique("member-twice-through-one-link", _member_twice, "member_once_per_link"),
    unique("phone-held-twice-by-one-link", _holder_twice, "link_holder_once_per_phone"),
    unique(
        "player-name-duplicate-for-one-owner-ignoring-case",
        _two_players({"name": "Émile"}, {"name": "émile"}),
        "player_name_unique_per_owner_ignoring_case",
    ),
    unique(
        "player-two-automa-for-one-owner",
        _two_players({"name": "Automa", "is_automa": True}, {"name": "Bot", "is_automa": True}),
        "player_one_automa_per_owner",
    ),
    unique("alias-twice-for-one-owner-ignoring-case", _alias_twice, "player_alias_unique_per_owner"),
    unique("owner-tally-row-twice", _owner_tally_twice, "owner_tally_unique"),
    unique("player-tally-row-twice", _player_tally_twice, "player_tally_unique"),
]


@pytest.mark.parametrize("create, constraint", UNIQUE_VIOLATIONS)
def test_unique_constraint_rejects_a_second_row(create, constraint):
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


# Rows just inside the limits, and rows that only look like duplicates: all accepted.
ACCEPTED = [
    pytest.param(lambda: make_game(end_trigger_token=6), id="game-end_trigger_token-6"),
    pytest.param(lambda: make_game(end_trigger_token=7), id="game-end_trigger_token-7"),
    pytest.param(lambda: make_game(during_mode="track"), id="game-during_mode-track"),
    pytest.param(lambda: make_game(during_mode="breakdown"), id="game-during_mode-breakdown"),
    pytest.param(lambda: make_game(play_minutes=1), id="game-play_minutes-1"),
    pytest.param(lambda: make_game(play_minutes=24 * 60), id="game-play_minutes-1440"),
    pytest.param(lambda: make_seat(number=1), id="seat-number-1"),
    pytest.param(lambda: make_seat(number=5), id="seat-number-5"),
    pytest.param(lambda: make_seat(name="N" * 40), id="seat-name-40-chars"),
    pytest.param(lambda: make_seat(active_workers=4), id="seat-active_workers-4"),
    pytest.param(lambda: make_seat(hive_mat_full=True), id="seat-hive_mat_full-true"),
    *[
        pytest.param(lambda key=key, value=value: make_seat(**{key: value}), id=f"seat-{key}={value}")
        for key, (low, high) in ENTRY_LIMITS.items()
        for value in (low, high)
    ],
    pytest.param(lambda: make_sector(position=19, first_vp=99, second_vp=99), id="sector-position-19-vp-99"),
    pytest.param(lambda: make_sector(first_vp=0, second_vp=0), id="sector-vp-0"),
    pytest.param(lambda: make_tokens(count=7), id="tokens-count-7"),
    pytest.param(lambda: make_tokens(count=0), id="tokens-count-0"),
    pytest.param(lambda: make_layout_sector(position=19, first_vp=99, second_vp=99), id="layout-sector-19-vp-99"),
    pytest.param(_two_seats({"name": "Alice"}, {"name": "Alicia", "number": 2}), id="seat-names-distinct"),
    pytest.param(_two_seats({"name": "Alice"}, {"name": "alice"}, same_game=False), id="seat-same-name-other-game"),
    pytest.param(_two_seats({"name": "Alice"}, {"name": "Bob"}, same_game=False), id="seat-same-number-other-game"),
    pytest.param(
        _two_seats({"name": "Bot", "is_automa": True}, {"name": "Bot", "is_automa": True}, same_game=False),
        id="seat-automa-in-each-game",
    ),
    pytest.param(_two_seats({"name": "Alice"}, {"name": "Bob", "number": 2}), id="seat-two-humans"),
    pytest.param(
        _two_seats({"name": "Bot", "is_automa": True}, {"name": "Bob", "number": 2}), id="seat-one-automa-one-human"
    ),
    pytest.param(_two_sectors(same_game=False), id="sector-same-position-other-game"),
    pytest.param(_layout_name_twice(same_owner=False), id="layout-same-name-other-owner"),
    pytest.param(_visitor_layout_name_twice(same_visitor=False), id="layout-same-name-other-visitor"),
    pytest.param(lambda: make_game(visitor=VISITOR), id="game-of-a-visitor"),
    pytest.param(lambda: make_game(), id="game-of-nobody"),
    pytest.param(_two_live_links("edit", same_access=False), id="live-edit-and-view-links"),
    pytest.param(_two_live_links("edit", revoke_first=True), id="new-edit-link-after-a-revoked-one"),
    pytest.param(_two_players({"name": "Ann"}, {"name": "ann"}, same_owner=False), id="player-same-name-other-owner"),
    pytest.param(
        _two_players({"name": "Automa", "is_automa": True}, {"name": "Automa"}),
        id="player-automa-and-a-person-called-automa",
    ),
]


@pytest.mark.parametrize("create", ACCEPTED)
def test_row_inside_the_limits_is_accepted(create):
    with transaction.atomic():
        create()


def test_every_constraint_of_the_models_has_a_case():
    declared = {
        constraint.name
        for model in apps.get_app_config("scoring").get_models()
        for constraint in model._meta.constraints
        if isinstance(constraint, (models.CheckConstraint, models.UniqueConstraint))
    }
    covered = {param.values[1] for param in CHECK_VIOLATIONS + UNIQUE_VIOLATIONS}
    assert declared - covered == set()
    # Every entry category with limits has its own range constraint.
    assert {f"seat_{key}_range" for key in ENTRY_LIMITS} <= declared
