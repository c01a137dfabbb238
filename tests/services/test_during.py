"""Specification of the two ways a game counts its during-the-game points (docs/scoring-rules.md,
"During the game"), through the services: a game started on the VP track or as the breakdown
(``game_create``), the pad's saves of each way's fields (``field_save``), and the way changed on
the pad (``game_mode_change``), allowed while the way the game counts now holds no value and
refused, in words, otherwise.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from scoring.fields import FieldAddress
from scoring.models import Change, Game, Seat
from scoring.rules.categories import DURING_CATEGORIES, During, Section, categories_of
from scoring.selectors.games import game_state
from scoring.services.finishing import game_finish, game_reopen
from scoring.services.games import PlayerSetup, game_create, game_start
from scoring.services.outcomes import OUTCOME_FIELDS
from scoring.services.pad import Outcome, field_save, game_mode_change
from tests.support.factories import (
    game_scored,
    game_started,
    owner,
    player,
    save_tokens,
    save_value,
    save_workers,
    seat_of,
)
from tests.support.pages import text_of

pytestmark = pytest.mark.django_db

BREAKDOWN_KEYS = [category.key for category in categories_of(During.BREAKDOWN, Section.DURING)]
DURING_KEYS = [category.key for category in DURING_CATEGORIES]


def during_entries(game: Game) -> list[dict]:
    """Each seat's during-the-game entries as stored (None: not entered)."""
    return list(Seat.objects.filter(game=game).order_by("number").values(*DURING_KEYS))


def stored(game: Game) -> tuple[str, int]:
    """The game's way of counting and its revision, as stored."""
    return Game.objects.values_list("during_mode", "revision").get(pk=game.pk)


def outcomes(game: Game) -> list[tuple[int, int, int]]:
    return list(Seat.objects.filter(game=game).order_by("number").values_list("score_during", "score_total", "rank"))


# ---------------------------------------------------------------------------------------------
# A new game


def test_a_new_game_counts_the_vp_track_with_nothing_entered_not_even_the_starting_vp():
    """The marker starts on the seat's starting VP: the track's number includes it."""
    game = game_create(players=[PlayerSetup("Alice"), PlayerSetup("Bruno")], sectors=[(9, 4)], owner=owner())

    assert stored(game) == ("track", 0)
    assert during_entries(game) == [dict.fromkeys(DURING_KEYS)] * 2
    assert outcomes(game) == [(0, 0, 1), (0, 0, 1)]


def test_a_game_started_as_the_breakdown_has_its_starting_vp_filled_in_and_no_track():
    game = game_start(players=[PlayerSetup("Ann")], solo=True, during=During.BREAKDOWN, owner=owner())

    assert stored(game) == ("breakdown", 0)
    assert [(entries["starting_vp"], entries["vp_track"]) for entries in during_entries(game)] == [(1, None), (2, None)]


def test_a_solo_game_on_the_track_seats_the_automa_first_with_nothing_entered():
    game = game_start(players=[PlayerSetup("Ann")], solo=True, owner=owner())

    assert list(Seat.objects.filter(game=game).order_by("number").values_list("name", "is_automa", "starting_vp")) == [
        ("Automa", True, None),
        ("Ann", False, None),
    ]


# ---------------------------------------------------------------------------------------------
# The pad's saves: a game has the fields of its own way only


def test_a_track_game_saves_its_track_and_scores_it_as_the_whole_during_the_game_part():
    game = game_started("Alice", "Bruno", during=During.TRACK)

    result = save_value(seat=seat_of(game, 1), key="vp_track", value=57, sum_text="50+7")
    save_value(seat=seat_of(game, 2), key="vp_track", value=61)

    assert (result.outcome, result.value, result.text, result.version) == (Outcome.SAVED, 57, "50+7", 1)
    assert outcomes(game) == [(57, 57, 2), (61, 61, 1)]


@pytest.mark.parametrize(
    ("during", "key"),
    [
        pytest.param(During.TRACK, "starting_vp", id="the-breakdowns-starting-vp-in-a-track-game"),
        pytest.param(During.TRACK, "farm_income", id="the-breakdowns-farm-income-in-a-track-game"),
        pytest.param(During.BREAKDOWN, "vp_track", id="the-track-in-a-breakdown-game"),
    ],
)
def test_a_field_of_the_other_way_is_no_field_of_the_game_and_writes_nothing(during, key):
    game = game_started("Alice", during=during)
    before = during_entries(game)

    result = field_save(game=game, address=FieldAddress(1, key), value=9)

    assert (result.outcome, result.field, result.change) == (Outcome.NO_FIELD, None, None)
    assert during_entries(game) == before
    assert stored(game)[1] == 0


# ---------------------------------------------------------------------------------------------
# game_mode_change


def test_a_new_breakdown_game_changes_to_the_track_its_starting_vp_emptied():
    game = game_started("Alice", "Bruno")

    assert game_mode_change(game=game, during=During.TRACK) is True

    assert stored(game) == ("track", 1)
    assert game.during_mode == "track"
    assert during_entries(game) == [dict.fromkeys(DURING_KEYS)] * 2
    assert outcomes(game) == [(0, 0, 1), (0, 0, 1)]  # the outcomes follow
    # The starting VP written get a new version: a phone still showing them cannot save over them unseen.
    assert seat_of(game, 2).revisions == {"starting_vp": [1, "", 0]}
    assert not Change.objects.filter(game=game).exists()  # (the way of counting is no value of a player)


def test_a_new_track_game_changes_to_the_breakdown_its_starting_vp_filled_in():
    game = game_started("Alice", "Bruno", "Carla", during=During.TRACK)

    assert game_mode_change(game=game, during=During.BREAKDOWN) is True

    assert stored(game) == ("breakdown", 1)
    assert [entries["starting_vp"] for entries in during_entries(game)] == [1, 2, 3]
    assert outcomes(game) == [(1, 1, 3), (2, 2, 2), (3, 3, 1)]


def test_the_way_can_change_back_and_forth_while_nothing_is_entered():
    game = game_started("Alice", "Bruno")

    game_mode_change(game=game, during=During.TRACK)
    game_mode_change(game=game, during=During.BREAKDOWN)

    assert stored(game) == ("breakdown", 2)
    assert [entries["starting_vp"] for entries in during_entries(game)] == [1, 2]
    assert seat_of(game, 1).revisions == {"starting_vp": [2, "", 0]}


def test_a_starting_vp_emptied_is_nothing_entered():
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="starting_vp", value=None)

    assert game_mode_change(game=game, during=During.TRACK) is True


def test_the_other_fields_of_the_game_stay_as_they_are():
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farms", value=4)
    save_workers(seat=seat_of(game, 1), workers=2)
    save_tokens(seat=seat_of(game, 2), sector=game_state(game).sectors[0], count=3)

    game_mode_change(game=game, during=During.TRACK)

    alice = seat_of(game, 1)
    assert (alice.farms, alice.active_workers) == (4, 2)
    assert outcomes(game) == [(0, 4, 2), (0, 9, 1)]  # Bruno alone in sector 1 (9 VP)


@pytest.mark.parametrize(
    ("during", "key", "value", "words"),
    [
        pytest.param(During.BREAKDOWN, "farm_income", 6, "Alice’s Farm income", id="a-breakdown-entry"),
        pytest.param(During.BREAKDOWN, "starting_vp", 5, "Alice’s Starting VP", id="a-starting-vp-changed"),
        pytest.param(During.TRACK, "vp_track", 40, "Alice’s VP on the track at the end", id="the-track"),
    ],
)
def test_a_change_is_refused_in_words_while_the_way_the_game_counts_holds_a_value(during, key, value, words):
    game = game_started("Alice", "Bruno", during=during)
    save_value(seat=seat_of(game, 1), key=key, value=value)
    before = (stored(game), during_entries(game), outcomes(game))
    other = During.TRACK if during is During.BREAKDOWN else During.BREAKDOWN

    with pytest.raises(ValidationError) as refused:
        game_mode_change(game=game, during=other)

    (message,) = [text_of(message) for message in refused.value.messages]
    assert words in message
    assert message.startswith(
        "Values are already entered in the breakdown: "
        if during is During.BREAKDOWN
        else "Values are already entered on the VP track: "
    )
    assert message.endswith(
        "Clear them first to switch to the VP track."
        if during is During.BREAKDOWN
        else "Clear them first to switch to the breakdown."
    )
    assert (stored(game), during_entries(game), outcomes(game)) == before  # nothing written, not even the revision


def test_the_refusal_names_every_value_entered():
    game = game_started("Alice", "Bruno", during=During.TRACK)
    save_value(seat=seat_of(game, 1), key="vp_track", value=40)
    save_value(seat=seat_of(game, 2), key="vp_track", value=0)  # 0 is a value entered too

    with pytest.raises(ValidationError) as refused:
        game_mode_change(game=game, during=During.BREAKDOWN)

    assert ": Alice’s VP on the track at the end and Bruno’s VP on the track at the end. " in text_of(
        refused.value.messages[0]
    )


def test_changing_to_the_way_the_game_already_counts_writes_nothing():
    game = game_started("Alice", during=During.TRACK)

    assert game_mode_change(game=game, during=During.TRACK) is False

    assert stored(game) == ("track", 0)


def test_a_game_deleted_meanwhile_changes_nothing():
    game = game_started("Alice")
    Game.objects.filter(pk=game.pk).delete()

    assert game_mode_change(game=game, during=During.TRACK) is False


def test_a_finished_games_way_is_changed_only_once_its_owner_has_reopened_it():
    """A finished game takes no more changes (``game_finish``); reopened, its way changes, and
    finished again its tallies are the ones a rebuild computes."""
    from scoring.services.tallies import tallies_rebuild

    game = game_started("Alice", "Bruno")
    game_finish(game=game)
    with pytest.raises(ValidationError, match="finished"):
        game_mode_change(game=game, during=During.TRACK)
    assert Game.objects.get(pk=game.pk).during == During.BREAKDOWN

    game_reopen(game=game)
    game_mode_change(game=game, during=During.TRACK)
    game_finish(game=game)

    assert Game.objects.get(pk=game.pk).during == During.TRACK
    assert not tallies_rebuild(owner())  # the kept tallies are the ones a rebuild computes


# ---------------------------------------------------------------------------------------------
# The same game both ways


def test_the_same_game_typed_both_ways_stores_the_same_totals_and_ranking():
    """A breakdown game typed on the pad, and the same game typed on the VP track (each player's
    track showing their breakdown's sum), store the same subtotals, totals and ranks."""
    breakdown = game_started("Alice", "Bruno", "Carla")
    track = game_started("Alice", "Bruno", "Carla", during=During.TRACK)
    typed = {
        1: {"farm_income": 9, "tile_abilities": 4, "carvings": -2, "farms": 3},
        2: {"explore_tokens": 12, "queens_favor": 2, "frames_filled": 1},
        3: {"starting_vp": 2, "comb_pods": 10, "hive_mat_full": True},
    }  # (Carla's starting VP corrected)
    for number, entries in typed.items():
        for key, value in entries.items():
            save_value(seat=seat_of(breakdown, number), key=key, value=value)
            if key not in BREAKDOWN_KEYS:
                save_value(seat=seat_of(track, number), key=key, value=value)
        save_workers(seat=seat_of(breakdown, number), workers=number % 2)
        save_workers(seat=seat_of(track, number), workers=number % 2)
    for number, during in enumerate(
        [seat.score_during for seat in Seat.objects.filter(game=breakdown).order_by("number")], start=1
    ):
        save_value(seat=seat_of(track, number), key="vp_track", value=during)

    stored_outcomes = list(Seat.objects.filter(game=breakdown).order_by("number").values_list(*OUTCOME_FIELDS))
    assert list(Seat.objects.filter(game=track).order_by("number").values_list(*OUTCOME_FIELDS)) == stored_outcomes
    assert [outcome[3] for outcome in stored_outcomes] == [1 + 9 + 4 - 2 + 3, 2 + 12 + 2 + 8, 2 + 10 + 8]


def test_a_track_game_stored_from_a_file_keeps_its_track_and_leaves_the_breakdown_not_entered():
    game = game_scored(player("Ann", vp_track=40, farms=2), player("Ben", vp_track=38), during=During.TRACK)

    assert stored(game)[0] == "track"
    assert [
        (entries["vp_track"], entries["starting_vp"], entries["farm_income"]) for entries in during_entries(game)
    ] == [(40, None, None), (38, None, None)]
    assert outcomes(game) == [(40, 42, 1), (38, 38, 2)]
