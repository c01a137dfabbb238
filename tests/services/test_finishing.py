"""Specification of finishing a game (``scoring/services/finishing.py``), called directly (no views).

*Finish* on the pad (``pad_finish``) saves what the phone changed first, then reads the game as
it stands (``finish_check``): a player with more tokens on the comb than they own stops it; the
categories nobody entered, an empty comb, no active workers at a table of several, values far
from what games record and an overfilled comb are asked about, as is every finish by a link's
holder (it ends the game for the whole table); once confirmed, the game is finished
(``game_finish``) and takes no more values until its owner reopens it (``game_reopen``).
"""

from __future__ import annotations

import pytest

from scoring.actors import Actor
from scoring.fields import FieldAddress
from scoring.models import Change, Game, GameEvent
from scoring.selectors.changes import recent_changes
from scoring.selectors.games import game_state
from scoring.services.finishing import (
    FinishCheck,
    FinishOutcome,
    finish_check,
    game_finish,
    game_reopen,
    pad_finish,
    play_length_set,
)
from scoring.services.pad import Guard, Outcome, ValueSave, change_undo, values_save
from scoring.services.sharing import link_renew, link_revoke
from tests.support.factories import (
    NUMBER_KEYS,
    game_all_entered,
    game_scored,
    game_started,
    player,
    revision_of,
    save_tokens,
    save_value,
    seat_of,
)

pytestmark = pytest.mark.django_db


def check_of(game: Game) -> FinishCheck:
    return finish_check(game_state(game))


# ---------------------------------------------------------------------------------------------
# finish_check: what the values say before the game is finished


def test_a_game_with_everything_entered_asks_nothing():
    check = check_of(game_all_entered())

    assert not check.blocks and not check.asks


def test_the_categories_nobody_entered_are_asked_about_in_the_pads_order():
    game = game_started("Alice", "Bruno")
    for key in NUMBER_KEYS[1:-1]:  # all but the starting VP (filled in) and the faction's endgame ability
        save_value(seat=seat_of(game, 2), key=key, value=0)

    check = check_of(game)

    assert [category.key for category in check.empty] == ["faction_ability"]
    assert check.comb_empty and check.workers_empty and check.asks and not check.blocks


@pytest.mark.parametrize(
    ("names", "sectors", "tokens", "comb_empty", "workers_empty"),
    [
        (("Alice", "Bruno"), ((9, 4),), None, True, True),
        (("Alice", "Bruno"), (), None, False, True),
        (("Alice", "Bruno"), ((9, 4),), 0, False, True),  # a count of 0 is entered
        (("Alice",), ((9, 4),), None, True, False),  # alone, no tie to break
    ],
    ids=["no-token", "no-comb", "zero-tokens", "one-player"],
)
def test_the_comb_and_the_workers_are_asked_about_only_when_they_matter(
    names, sectors, tokens, comb_empty, workers_empty
):
    game = game_started(*names, sectors=sectors)
    if tokens is not None:
        save_tokens(seat=seat_of(game, 1), sector=game.sectors.first(), count=tokens)

    check = check_of(game)

    assert (check.comb_empty, check.workers_empty) == (comb_empty, workers_empty)


def test_unusual_values_are_listed_row_by_row_then_seat_by_seat():
    game = game_all_entered()
    save_value(seat=seat_of(game, 2), key="queens_favor", value=999)
    save_value(seat=seat_of(game, 1), key="frames_filled", value=9)
    save_value(seat=seat_of(game, 1), key="queens_favor", value=500)

    check = check_of(game)

    assert [(pad.key, pad.seat.number) for pad in check.unusual] == [
        ("queens_favor", 1),
        ("queens_favor", 2),
        ("frames_filled", 1),
    ]
    assert check.asks and not check.blocks


def test_more_tokens_than_a_player_owns_blocks_and_more_than_the_comb_holds_asks():
    over_owned = game_scored(player("Alice", tokens=[5, 3, 0], workers=1), player("Bruno", workers=1))
    overfilled = game_scored(*(player(name, tokens=[4, 3, 0], workers=1) for name in ("Ann", "Ben", "Cid")))

    blocked, asked = check_of(over_owned), check_of(overfilled)

    assert [seat.name for seat in blocked.over_owned] == ["Alice"] and blocked.blocks
    assert (asked.tokens_on_comb, asked.comb_spaces, asked.comb_overfilled) == (21, 12, True)
    assert asked.asks and not asked.blocks


# ---------------------------------------------------------------------------------------------
# pad_finish: the pad's Finish


def test_finish_with_nothing_to_ask_finishes_the_game():
    game = game_all_entered()

    result = pad_finish(game=game)

    assert result.outcome is FinishOutcome.FINISHED
    assert Game.objects.get(pk=game.pk).is_finished


def test_finish_asks_first_and_finishes_once_confirmed():
    game = game_started("Alice", "Bruno")

    asked = pad_finish(game=game)
    assert asked.outcome is FinishOutcome.ASKS and asked.check.asks
    assert not Game.objects.get(pk=game.pk).is_finished

    assert pad_finish(game=game, confirmed=True).outcome is FinishOutcome.FINISHED
    assert Game.objects.get(pk=game.pk).is_finished


def test_a_link_holder_is_always_asked_since_they_finish_for_the_whole_table():
    game = game_all_entered()
    holder = Actor(name="Ben", link=link_renew(game=game, access="edit"))

    assert pad_finish(game=game, by=holder).outcome is FinishOutcome.ASKS
    assert pad_finish(game=game, by=holder, confirmed=True).outcome is FinishOutcome.FINISHED
    assert GameEvent.objects.get(game=game).by_name == "Ben"


def test_a_player_over_their_tokens_blocks_finishing_even_confirmed():
    game = game_scored(player("Alice", tokens=[5, 3, 0], workers=1), player("Bruno", workers=1))

    result = pad_finish(game=game, confirmed=True)

    assert result.outcome is FinishOutcome.BLOCKED
    assert not Game.objects.get(pk=game.pk).is_finished


def test_finish_saves_the_values_first_and_stops_at_one_not_saved():
    game = game_all_entered()
    farms = ValueSave(FieldAddress(2, "farms"), value=4)
    stale = ValueSave(FieldAddress(2, "recruits"), value=5, guard=Guard(version=7))

    result = pad_finish(game=game, saves=[farms, stale], confirmed=True)

    assert result.outcome is FinishOutcome.NOT_SAVED
    assert [saved.outcome for saved in result.saves] == [Outcome.SAVED, Outcome.CONFLICT]
    assert seat_of(game, 2).farms == 4 and seat_of(game, 2).recruits is None
    assert not Game.objects.get(pk=game.pk).is_finished


def test_finish_does_not_finish_when_the_form_refused_a_value():
    game = game_all_entered()

    result = pad_finish(game=game, saves=[ValueSave(FieldAddress(2, "farms"), value=4)], refused=True)

    assert result.outcome is FinishOutcome.NOT_SAVED
    assert seat_of(game, 2).farms == 4  # (the others are saved)
    assert not Game.objects.get(pk=game.pk).is_finished


def test_finish_of_a_game_finished_meanwhile_or_gone_changes_nothing():
    finished = game_all_entered()
    game_finish(game=finished)
    gone = game_all_entered()
    Game.objects.filter(pk=gone.pk).delete()

    assert pad_finish(game=finished).outcome is FinishOutcome.ALREADY
    assert pad_finish(game=gone).outcome is FinishOutcome.GONE


# ---------------------------------------------------------------------------------------------
# values_save: a plain post's values


def test_values_save_saves_each_value_and_a_refusal_leaves_the_others_saved():
    game = game_started("Alice", "Bruno")
    saves = [
        ValueSave(FieldAddress(1, "farms"), value=3),
        ValueSave(FieldAddress(1, "t0"), value=8),  # more tokens than a player owns: refused
        ValueSave(FieldAddress(2, "recruits"), value=6, sum_text="2+4"),
    ]

    results = values_save(game=game, saves=saves)

    assert [result.outcome for result in results] == [Outcome.SAVED, Outcome.REFUSED, Outcome.SAVED]
    assert (seat_of(game, 1).farms, seat_of(game, 2).recruits, seat_of(game, 2).sums) == (3, 6, {"recruits": "2+4"})
    assert Change.objects.filter(game=game).count() == 2


def test_values_save_stops_at_a_game_gone():
    game = game_started("Alice", "Bruno")
    Game.objects.filter(pk=game.pk).delete()

    results = values_save(
        game=game, saves=[ValueSave(FieldAddress(1, "farms"), value=3), ValueSave(FieldAddress(1, "recruits"), value=1)]
    )

    assert [result.outcome for result in results] == [Outcome.GONE]


# ---------------------------------------------------------------------------------------------
# game_finish and game_reopen


def test_game_finish_marks_the_game_finished_once():
    game = game_started("Alice", "Bruno")

    assert game_finish(game=game) is True
    first = Game.objects.get(pk=game.pk).finished_at
    assert game_finish(game=Game.objects.get(pk=game.pk)) is False
    assert game_finish(game=game) is False

    assert first is not None
    assert Game.objects.get(pk=game.pk).finished_at == first
    assert revision_of(game) == 1  # (a finish that finds it finished changes nothing, its revision included)


def test_game_finish_through_a_stale_copy_keeps_the_first_time():
    game = game_started("Alice", "Bruno")
    stale = Game.objects.get(pk=game.pk)
    game_finish(game=game)
    first = Game.objects.get(pk=game.pk).finished_at

    assert game_finish(game=stale) is False

    assert Game.objects.get(pk=game.pk).finished_at == first


def test_finishing_a_game_deleted_meanwhile_does_nothing():
    game = game_started("Alice", "Bruno")
    Game.objects.filter(pk=game.pk).delete()

    assert game_finish(game=game) is False


def test_a_finished_game_takes_no_more_values_from_any_phone_and_stores_nothing():
    """Finished is finished on every phone: a save, a step, an undo that reach the game after it
    was finished are refused (nothing written, its revision unmoved), until its owner reopens it."""
    game = game_started("Alice", "Bruno")
    change = save_value(seat=seat_of(game, 1), key="farms", value=3).change
    game_finish(game=game)
    before = revision_of(game)

    for result in (
        save_value(seat=seat_of(game, 1), key="farms", value=4),
        save_value(seat=seat_of(game, 1), key="farms", delta=1),
        change_undo(game=game, change=change),
    ):
        assert result.outcome is Outcome.FINISHED

    assert seat_of(game, 1).farms == 3
    assert revision_of(game) == before
    assert Change.objects.filter(game=game).count() == 1


def test_finishing_and_reopening_say_who_and_when_in_the_games_history():
    game = game_started("Alice", "Bruno")
    ben = Actor(name="Ben", link=link_renew(game=game, access="edit"))

    assert game_finish(game=game, by=ben) is True
    assert game_reopen(game=game, by=Actor(user=game.owner)) is True
    assert game_reopen(game=game) is False  # (not finished: nothing to reopen)

    reopened, finished = GameEvent.objects.filter(game=game)
    assert (finished.what, finished.by_name, finished.by_link_holder) == ("finished", "Ben", True)
    assert (reopened.what, reopened.by_user, reopened.by_link_holder) == ("reopened", game.owner, False)
    assert finished.at <= reopened.at
    assert Game.objects.get(pk=game.pk).finished_at is None
    save_value(seat=seat_of(game, 1), key="farms", value=5)  # (reopened: it takes values again)
    assert [item.what if isinstance(item, GameEvent) else item.field for item in recent_changes(game)] == [
        "farms",
        "reopened",
        "finished",
    ]


def test_the_owner_is_asked_too_while_a_share_link_is_live_and_not_once_it_is_revoked():
    """Finishing ends the game on every phone: while the owner's share link is live, other phones
    may be scoring, and one stray tap would stop them all."""
    game = game_all_entered()
    link_renew(game=game, access="edit")

    asked = pad_finish(game=game)
    assert (asked.outcome, asked.for_table) == (FinishOutcome.ASKS, True)

    link_revoke(game=game, access="edit")
    assert pad_finish(game=game).outcome is FinishOutcome.FINISHED


def test_the_play_length_is_said_of_a_finished_game_and_in_its_history():
    """Issue 47, point 6: as the rest of a finished game, with who said it and when; the same
    length again says nothing, taking it back is said too."""
    game = game_started("Alice", "Bruno")
    owner = Actor(user=game.owner)

    assert play_length_set(game=game, minutes=85, by=owner) is False  # (in progress: nothing)
    assert Game.objects.get(pk=game.pk).play_minutes is None
    game_finish(game=game, by=owner)

    assert play_length_set(game=game, minutes=85, by=owner) is True
    assert play_length_set(game=game, minutes=85, by=owner) is False
    assert play_length_set(game=game, minutes=None, by=owner) is True

    assert Game.objects.get(pk=game.pk).play_minutes is None
    taken_back, said = GameEvent.objects.filter(game=game, what="length")
    assert (said.minutes, said.by_user, taken_back.minutes) == (85, game.owner, None)
    assert [item.what for item in recent_changes(game)][:2] == ["length", "length"]
