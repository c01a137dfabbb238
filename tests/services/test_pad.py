"""Specification of the pad's writes (``scoring/services/pad.py``), called directly (no views).

Several phones score one game at once. Every save of one pad value goes through
``services.pad.field_save``, names what it is based on (a ``Guard``: the value's version the page
showed, or the value it showed, and the page and the number of its save) and answers a
``SaveResult``:

- SAVED: written (the value's version goes up by one, one change recorded), or nothing to write
  (the value was already stored so, a step at a limit);
- SUPERSEDED: the same page already saved this value with this save or a later one (a retry, or
  an older save arriving late): ignored;
- CONFLICT: the value changed on another page since this page saw it: nothing written;
- REFUSED: not a value the game can hold (more than 7 tokens in all), ``message`` says why:
  nothing written;
- NO_FIELD: the game has no such seat or sector; GONE: the game was deleted meanwhile.

Every save first locks the game by moving its revision on (``locking.game_lock``); a save that
then writes nothing rolls back, the revision with it: the revision, the value, its version and
the change history move only when something is written.

A step (``step``, a stepper's +1/-1) applies to the stored value whatever it is, within the
value's limits: only the page's order counts. Number entries, active workers and tokens are None
(not entered) until entered; None counts as 0 in every score.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.fields import FieldAddress
from scoring.models import Change, Game, GameSector, HibernationTokens, Seat
from scoring.rules.categories import CATEGORY_BY_KEY
from scoring.selectors.games import game_state
from scoring.services.pad import PAGES_REMEMBERED, Guard, Outcome, SaveResult, change_undo, field_save
from tests.support.factories import (
    game_scored,
    game_started,
    player,
    revision_of,
    save_tokens,
    save_value,
    save_workers,
    seat_of,
    tokens_of,
    total_of,
)
from tests.support.pages import text_of

pytestmark = pytest.mark.django_db


def sector(game: Game, position: int) -> GameSector:
    return GameSector.objects.get(game=game, position=position)


def token_rows(game: Game, number: int) -> dict[int, int]:
    """The seat's stored token rows, by sector position (a sector without a row is missing)."""
    rows = HibernationTokens.objects.filter(seat__game=game, seat__number=number)
    return dict(rows.values_list("sector__position", "count"))


def seen(result: SaveResult) -> tuple[Outcome, int | bool | None, int]:
    """What a save answers the page: its outcome, the value stored after it and that value's
    version. (The change it records, with its author, is specified in ``tests/test_history.py``.)"""
    return result.outcome, result.value, result.version


def set_entry(game: Game, number: int, key: str, value=None, **kwargs) -> SaveResult:
    return save_value(seat=seat_of(game, number), key=key, value=value, **kwargs)


def set_workers(game: Game, number: int, workers=None, **kwargs) -> SaveResult:
    return save_workers(seat=seat_of(game, number), workers=workers, **kwargs)


def set_tokens(game: Game, number: int, position: int, count=None, **kwargs) -> SaveResult:
    return save_tokens(seat=seat_of(game, number), sector=sector(game, position), count=count, **kwargs)


# ---------------------------------------------------------------------------------------------
# field_save: a value


def test_a_save_without_a_guard_is_saved_and_counts_versions_from_1():
    game = game_started("Alice", "Bruno")

    first = field_save(game=game, address=FieldAddress(1, "farms"), value=4)
    second = field_save(game=game, address=FieldAddress(1, "farms"), value=5)

    assert seen(first) == (Outcome.SAVED, 4, 1)
    assert seen(second) == (Outcome.SAVED, 5, 2)
    assert second.saved
    assert seat_of(game, 1).farms == 5
    assert seat_of(game, 1).revisions == {"farms": [2, "", 0]}


def test_a_save_answers_its_field_the_value_as_its_input_shows_it_and_the_game_scored():
    game = game_started("Alice", "Bruno")

    result = set_entry(game, 1, "farm_income", 11, sum_text="3+6+2")

    assert result.field.name == "s1-farm_income" and result.field.category is CATEGORY_BY_KEY["farm_income"]
    assert (result.value, result.text, result.message) == (11, "3+6+2", "")
    assert result.change == Change.objects.get(game=game)
    assert [player.total for player in result.scored.players] == [total_of(game, 1), total_of(game, 2)] == [12, 2]


def test_a_saves_state_is_the_game_as_it_stands_after_the_save():
    """The answer is drawn from ``result.state`` without reading the game again: it must be what
    a fresh read finds (the game's row with its revision, every seat, the comb and its tokens)."""
    game = game_scored(player("Alice", tokens=[1, 0, 0]), player("Bruno", recruits=3))
    Seat.objects.filter(game=game, number=2).update(recruits=20)  # another phone, before this save

    result = set_tokens(game, 1, 2, 2)

    fresh = game_state(game)
    assert result.state.game.revision == fresh.game.revision == revision_of(game)
    assert result.state.tokens == fresh.tokens
    assert [(seat.pk, seat.recruits, seat.revisions) for seat in result.state.seats] == [
        (seat.pk, seat.recruits, seat.revisions) for seat in fresh.seats
    ]
    assert result.state.seats[1].recruits == 20
    assert [sector.pk for sector in result.state.sectors] == [sector.pk for sector in fresh.sectors]
    assert result.state.score() == fresh.score() == result.scored


def test_a_save_keeps_its_version_page_and_save_number_per_field():
    game = game_started("Alice", "Bruno")

    set_entry(game, 1, "farms", 4, guard=Guard(version=0, page="phone-a", seq=7))
    set_entry(game, 1, "recruits", 9, guard=Guard(version=0, page="phone-b", seq=2))

    assert seat_of(game, 1).revisions == {"farms": [1, "phone-a", 7], "recruits": [1, "phone-b", 2]}
    assert seat_of(game, 2).revisions == {}


def test_a_save_changes_only_its_own_value_even_when_the_seat_changed_since_the_page_read_it():
    game = game_scored(player("Alice", farm_income=10, recruits=3, workers=2, tokens=[1, 0, 0]), player("Bruno"))
    seat = seat_of(game, 1)
    Seat.objects.filter(pk=seat.pk).update(recruits=20)  # another phone, after this seat was read

    save_value(seat=seat, key="farm_income", value=12)

    stored = seat_of(game, 1)
    assert (stored.farm_income, stored.recruits, stored.active_workers) == (12, 20, 2)
    assert stored.revisions == {"farm_income": [1, "", 0]}
    assert tokens_of(game, 1) == [1, 0, 0]


def test_every_save_moves_the_games_revision_on_by_one():
    game = game_started("Alice", "Bruno")

    set_entry(game, 1, "farms", 4)
    assert revision_of(game) == 1
    set_workers(game, 2, 3)
    assert revision_of(game) == 2
    set_tokens(game, 1, 0, 2)
    assert revision_of(game) == 3
    set_entry(game, 1, "farms", delta=1)
    assert revision_of(game) == 4
    set_tokens(game, 1, 0, None)
    assert revision_of(game) == 5


def test_a_save_that_writes_nothing_leaves_the_revision_the_value_its_version_and_the_history():
    """A save that finds nothing to write (a conflict, a superseded save, a refusal, a value
    already stored, a step at a limit) rolls back, the lock's move of the revision with it, and
    answers with the revision as it stands."""
    game = game_started("Alice", "Bruno")
    set_entry(game, 1, "farms", 4, guard=Guard(version=0, page="a", seq=1))
    stored = seat_of(game, 1)

    results = [
        set_entry(game, 1, "farms", 5, guard=Guard(version=0, page="b", seq=1)),
        set_entry(game, 1, "farms", 5, guard=Guard(version=0, page="a", seq=1)),
        set_tokens(game, 1, 0, 8),
        set_entry(game, 1, "farms", 4),
        set_workers(game, 1, delta=-1),
    ]

    assert [result.outcome for result in results] == [
        Outcome.CONFLICT,
        Outcome.SUPERSEDED,
        Outcome.REFUSED,
        Outcome.SAVED,
        Outcome.SAVED,
    ]
    assert [(result.change, result.scored) for result in results] == [(None, None)] * 5
    assert revision_of(game) == 1
    assert [result.state.game.revision for result in results] == [1] * 5
    after = seat_of(game, 1)
    assert (after.farms, after.active_workers, after.revisions) == (4, None, stored.revisions)
    assert token_rows(game, 1) == {}
    assert Change.objects.filter(game=game).count() == 1


def test_a_sum_keeps_its_text_and_a_plain_number_forgets_it():
    game = game_started("Alice", "Bruno")

    set_entry(game, 1, "farm_income", 11, sum_text="3+6+2")
    assert (seat_of(game, 1).farm_income, seat_of(game, 1).sums) == (11, {"farm_income": "3+6+2"})

    result = set_entry(game, 1, "farm_income", 5)
    assert (seat_of(game, 1).farm_income, seat_of(game, 1).sums) == (5, {})
    assert result.text == "5"


def test_the_same_value_typed_as_another_sum_is_a_change():
    game = game_started("Alice", "Bruno")
    set_entry(game, 1, "farm_income", 11, sum_text="3+6+2")

    result = set_entry(game, 1, "farm_income", 11, sum_text="5+6")

    assert seen(result) == (Outcome.SAVED, 11, 2)
    assert seat_of(game, 1).sums == {"farm_income": "5+6"}


def test_none_clears_an_entry_back_to_not_entered():
    game = game_scored(player("Alice", farms=4), player("Bruno"))
    set_entry(game, 1, "farm_income", 11, sum_text="3+6+2")

    result = set_entry(game, 1, "farm_income", None)
    set_entry(game, 1, "farms", None)

    assert seen(result) == (Outcome.SAVED, None, 2)
    assert result.text == ""
    assert (seat_of(game, 1).farm_income, seat_of(game, 1).farms, seat_of(game, 1).sums) == (None, None, {})
    assert total_of(game, 1) == 0  # no starting VP given to game_scored's Alice


def test_a_flag_stays_a_yes_or_no():
    game = game_started("Alice", "Bruno")

    assert seen(set_entry(game, 1, "hive_mat_full", True)) == (Outcome.SAVED, True, 1)
    assert seat_of(game, 1).hive_mat_full is True
    assert set_entry(game, 1, "hive_mat_full", False, guard=Guard(value=True)).saved
    assert seat_of(game, 1).hive_mat_full is False


@pytest.mark.parametrize(
    "address",
    [
        pytest.param(FieldAddress(3, "farms"), id="no-such-seat"),
        pytest.param(FieldAddress(1, "t3"), id="no-such-sector"),
    ],
)
def test_a_value_the_game_does_not_have_is_no_field_and_writes_nothing(address):
    game = game_started("Alice", "Bruno")

    result = field_save(game=game, address=address, value=3)

    assert (result.outcome, result.field, result.change) == (Outcome.NO_FIELD, None, None)
    assert [seat.pk for seat in result.state.seats] == [seat.pk for seat in Seat.objects.filter(game=game)]
    assert not Change.objects.filter(game=game).exists()
    assert not HibernationTokens.objects.filter(seat__game=game).exists()


def test_an_address_whose_key_names_no_value_is_no_field():
    """``field_address`` never makes such an address from a posted name; a caller that builds
    one by hand must not write another value."""
    game = game_started("Alice")

    result = field_save(game=game, address=FieldAddress(1, "nonsense"), value=3)

    assert result.outcome is Outcome.NO_FIELD
    assert seat_of(game, 1).active_workers is None


def test_a_save_to_a_game_deleted_meanwhile_is_gone():
    game = game_started("Alice", "Bruno")
    Game.objects.filter(pk=game.pk).delete()  # another phone deleted it

    result = field_save(game=game, address=FieldAddress(1, "farms"), value=3)

    assert (result.outcome, result.state) == (Outcome.GONE, None)
    assert not Change.objects.exists()


# -- the guard: versions (the pad's script) --------------------------------------------------


def test_a_save_based_on_the_stored_version_is_saved():
    game = game_started("Alice", "Bruno")
    set_entry(game, 1, "farms", 4, guard=Guard(version=0, page="a", seq=1))

    result = set_entry(game, 1, "farms", 6, guard=Guard(version=1, page="b", seq=1))

    assert seen(result) == (Outcome.SAVED, 6, 2)
    assert seat_of(game, 1).revisions["farms"] == [2, "b", 1, {"a": 1}]  # (and page a's save, still known)


def test_a_save_based_on_an_older_version_from_another_page_is_a_conflict_and_writes_nothing():
    game = game_started("Alice", "Bruno")
    set_entry(game, 1, "farms", 4, guard=Guard(version=0, page="a", seq=1))

    result = set_entry(game, 1, "farms", 6, sum_text="3+3", guard=Guard(version=0, page="b", seq=5))

    assert seen(result) == (Outcome.CONFLICT, 4, 1)  # what is stored, and its version
    assert (result.text, result.change) == ("4", None)
    assert not result.saved
    stored = seat_of(game, 1)
    assert (stored.farms, stored.sums, stored.revisions) == (4, {}, {"farms": [1, "a", 1]})


def test_a_save_based_on_a_newer_version_than_the_stored_one_is_a_conflict_too():
    game = game_started("Alice", "Bruno")

    assert set_entry(game, 1, "farms", 6, guard=Guard(version=3, page="b", seq=1)).outcome is Outcome.CONFLICT
    assert seat_of(game, 1).farms is None


def test_a_save_based_on_an_old_version_that_finds_its_value_already_stored_is_no_conflict():
    """Two phones typed the same value: the second finds it stored, nothing to refuse or write."""
    game = game_started("Alice", "Bruno")
    set_entry(game, 1, "farms", 4, guard=Guard(version=0, page="a", seq=1))

    result = set_entry(game, 1, "farms", 4, guard=Guard(version=0, page="b", seq=1))

    assert seen(result) == (Outcome.SAVED, 4, 1)
    assert result.change is None


def test_a_pages_own_earlier_save_is_no_conflict_for_its_later_save():
    """Page a sends two saves before hearing back from the first: both name version 0."""
    game = game_started("Alice", "Bruno")
    set_entry(game, 1, "farms", 4, guard=Guard(version=0, page="a", seq=1))

    result = set_entry(game, 1, "farms", 5, guard=Guard(version=0, page="a", seq=2))

    assert seen(result) == (Outcome.SAVED, 5, 2)


def test_an_older_save_of_the_same_page_arriving_late_is_superseded_and_ignored():
    game = game_started("Alice", "Bruno")
    set_entry(game, 1, "farms", 5, guard=Guard(version=0, page="a", seq=2))

    result = set_entry(game, 1, "farms", 4, guard=Guard(version=0, page="a", seq=1))

    assert seen(result) == (Outcome.SUPERSEDED, 5, 1)
    assert not result.saved
    assert seat_of(game, 1).farms == 5


@pytest.mark.parametrize(
    "write",
    [
        pytest.param(lambda game, value, guard: set_entry(game, 1, "farms", value, guard=guard), id="entry"),
        pytest.param(lambda game, value, guard: set_workers(game, 1, value, guard=guard), id="active-workers"),
        pytest.param(lambda game, value, guard: set_tokens(game, 1, 0, value, guard=guard), id="tokens"),
    ],
)
def test_a_later_save_that_finds_its_value_already_stored_still_supersedes_the_pages_earlier_save(write):
    """Page a typed 3, then cleared the field again (saves 1 and 2, both based on version 0); the
    network delivers save 2 first. Save 2 finds the field already empty: nothing to write, but the
    field must remember that page a's save 2 is in, so that save 1, arriving late, is ignored."""
    game = game_started("Alice", "Bruno")

    assert write(game, None, Guard(version=0, page="a", seq=2)).saved
    late = write(game, 3, Guard(version=0, page="a", seq=1))

    assert late.outcome is Outcome.SUPERSEDED
    seat = seat_of(game, 1)
    assert (seat.farms, seat.active_workers, tokens_of(game, 1)) == (None, None, [0, 0, 0])  # still cleared


def test_a_retried_save_is_applied_once():
    game = game_started("Alice", "Bruno")
    set_entry(game, 1, "farms", 4, guard=Guard(version=0, page="a", seq=3))

    again = set_entry(game, 1, "farms", 4, guard=Guard(version=0, page="a", seq=3))

    assert again.outcome is Outcome.SUPERSEDED
    assert seat_of(game, 1).revisions["farms"] == [1, "a", 3]
    assert Change.objects.filter(game=game).count() == 1


def test_a_page_that_another_page_wrote_after_is_checked_again():
    """a wrote, then b wrote over it: a's next save, still based on a's version, is a conflict."""
    game = game_started("Alice", "Bruno")
    set_entry(game, 1, "farms", 4, guard=Guard(version=0, page="a", seq=1))
    set_entry(game, 1, "farms", 7, guard=Guard(version=1, page="b", seq=1))

    result = set_entry(game, 1, "farms", 5, guard=Guard(version=1, page="a", seq=2))

    assert seen(result) == (Outcome.CONFLICT, 7, 2)


def test_versions_are_per_field_and_per_seat():
    game = game_started("Alice", "Bruno")
    set_entry(game, 1, "farms", 4, guard=Guard(version=0, page="a", seq=1))

    assert set_entry(game, 1, "recruits", 3, guard=Guard(version=0, page="b", seq=1)).saved
    assert set_entry(game, 2, "farms", 3, guard=Guard(version=0, page="b", seq=2)).saved


# -- the guard: values (plain form posts) ----------------------------------------------------


def test_a_save_based_on_the_stored_value_is_saved():
    game = game_scored(player("Alice", farms=4), player("Bruno"))

    assert seen(set_entry(game, 1, "farms", 6, guard=Guard(value=4))) == (Outcome.SAVED, 6, 1)
    assert set_entry(game, 1, "recruits", 2, guard=Guard(value=None)).saved  # it showed "not entered"


def test_a_save_based_on_another_value_than_the_stored_one_is_a_conflict_and_writes_nothing():
    game = game_scored(player("Alice", farms=4), player("Bruno"))

    result = set_entry(game, 1, "farms", 6, guard=Guard(value=3))

    assert seen(result) == (Outcome.CONFLICT, 4, 0)
    assert seat_of(game, 1).farms == 4
    assert set_entry(game, 1, "recruits", 6, guard=Guard(value=0)).outcome is Outcome.CONFLICT  # 0 is not None


# -- steps -----------------------------------------------------------------------------------


def test_a_step_applies_to_the_stored_value_and_an_empty_entry_counts_as_0():
    game = game_started("Alice", "Bruno")

    assert seen(set_entry(game, 1, "farms", delta=1)) == (Outcome.SAVED, 1, 1)
    assert seen(set_entry(game, 1, "farms", delta=3)) == (Outcome.SAVED, 4, 2)
    assert seen(set_entry(game, 1, "farms", delta=-1)) == (Outcome.SAVED, 3, 3)
    assert seat_of(game, 1).farms == 3


def test_two_stale_steps_from_two_pages_both_count():
    """Two phones both showed 1 and both tapped +: the entry is 3 (a value would have given 2)."""
    game = game_scored(player("Alice", farms=1), player("Bruno"))

    set_entry(game, 1, "farms", delta=1, guard=Guard(version=0, value=1, page="a", seq=1))
    set_entry(game, 1, "farms", delta=1, guard=Guard(version=0, value=1, page="b", seq=1))

    assert seat_of(game, 1).farms == 3


def test_a_step_ignores_the_version_and_value_but_not_the_pages_order():
    game = game_started("Alice", "Bruno")
    set_entry(game, 1, "farms", 5, guard=Guard(version=0, page="a", seq=4))

    assert set_entry(game, 1, "farms", delta=1, guard=Guard(version=0, value=0, page="b", seq=1)).saved
    late = set_entry(game, 1, "farms", delta=1, guard=Guard(page="b", seq=1))  # the same step, retried
    older = set_entry(game, 2, "farms", delta=1, guard=Guard(page="a", seq=9))  # another field: its own order

    assert seen(late) == (Outcome.SUPERSEDED, 6, 2)
    assert older.saved
    assert seat_of(game, 1).farms == 6


def test_a_step_resent_after_another_pages_step_counts_once():
    """Issue 47, point 5: A taps + (seq 7), B taps +, then A's very request comes again (a worker
    that died after its commit, a browser resending on a new connection): it is known as in."""
    game = game_started("Alice", "Bruno")
    assert set_entry(game, 1, "farms", delta=1, guard=Guard(page="a", seq=7)).saved
    assert set_entry(game, 1, "farms", delta=1, guard=Guard(page="b", seq=1)).saved

    again = set_entry(game, 1, "farms", delta=1, guard=Guard(page="a", seq=7))

    assert again.outcome is Outcome.SUPERSEDED
    assert seat_of(game, 1).farms == 2
    assert set_entry(game, 1, "farms", delta=1, guard=Guard(page="a", seq=8)).saved  # (its next tap counts)
    assert seat_of(game, 1).farms == 3


def test_a_field_remembers_the_latest_pages_only():
    game = game_started("Alice", "Bruno")
    for number in range(PAGES_REMEMBERED + 2):
        set_entry(game, 1, "farms", delta=1, guard=Guard(page=f"p{number}", seq=1))

    entry = seat_of(game, 1).revisions["farms"]
    assert len({entry[1], *entry[3]}) == PAGES_REMEMBERED and "p0" not in entry[3] and "p1" not in entry[3]


def test_a_step_forgets_the_sum_the_entry_was_typed_as():
    game = game_started("Alice", "Bruno")
    set_entry(game, 1, "farms", 5, sum_text="3+2")

    set_entry(game, 1, "farms", delta=1)

    assert (seat_of(game, 1).farms, seat_of(game, 1).sums) == (6, {})


@pytest.mark.parametrize(
    ("key", "start", "delta", "expected"),
    [
        pytest.param("farms", 98, 5, 99, id="farms-up-to-99"),
        pytest.param("farms", 1, -3, 0, id="farms-down-to-0"),
        pytest.param("farms", None, -1, None, id="minus-on-an-empty-field-leaves-it-empty"),
        pytest.param("frames_filled", 14, 20, 15, id="frames-up-to-15"),
        pytest.param("carvings", -98, -5, -99, id="carvings-down-to-minus-99"),
        pytest.param("farm_income", 998, 2, 999, id="vp-up-to-999"),
    ],
)
def test_a_step_stops_at_the_categorys_limits(key, start, delta, expected):
    game = game_started("Alice")
    if start is not None:
        set_entry(game, 1, key, start)

    result = set_entry(game, 1, key, delta=delta)

    assert (result.outcome, result.value) == (Outcome.SAVED, expected)
    assert getattr(seat_of(game, 1), key) == expected
    low, high = CATEGORY_BY_KEY[key].minimum, CATEGORY_BY_KEY[key].maximum
    assert expected is None or low <= expected <= high


def test_a_step_at_a_limit_writes_nothing():
    game = game_started("Alice")
    set_entry(game, 1, "frames_filled", 15)

    result = set_entry(game, 1, "frames_filled", delta=1)

    assert seen(result) == (Outcome.SAVED, 15, 1)
    assert (result.change, result.scored) == (None, None)
    assert Change.objects.filter(game=game).count() == 1


# ---------------------------------------------------------------------------------------------
# Active workers


def test_active_workers_are_saved_cleared_and_versioned():
    game = game_started("Alice", "Bruno")

    assert seen(set_workers(game, 1, 3)) == (Outcome.SAVED, 3, 1)
    assert seat_of(game, 1).active_workers == 3
    assert seen(set_workers(game, 1, None)) == (Outcome.SAVED, None, 2)
    assert seat_of(game, 1).active_workers is None
    assert seat_of(game, 1).revisions == {"active_workers": [2, "", 0]}
    assert revision_of(game) == 2


def test_active_workers_refuse_a_stale_version_from_another_page():
    game = game_started("Alice", "Bruno")
    set_workers(game, 1, 2, guard=Guard(version=0, page="a", seq=1))

    assert seen(set_workers(game, 1, 4, guard=Guard(version=0, page="b", seq=1))) == (Outcome.CONFLICT, 2, 1)
    assert set_workers(game, 1, 4, guard=Guard(value=1)).outcome is Outcome.CONFLICT
    assert set_workers(game, 1, 1, guard=Guard(version=0, page="a", seq=1)).outcome is Outcome.SUPERSEDED
    assert seat_of(game, 1).active_workers == 2


@pytest.mark.parametrize(
    ("start", "delta", "expected"),
    [
        pytest.param(None, 1, 1, id="empty-plus-is-1"),
        pytest.param(None, -1, None, id="minus-on-empty-leaves-it-empty"),
        pytest.param(3, 5, 4, id="up-to-4"),
        pytest.param(1, -2, 0, id="down-to-0"),
    ],
)
def test_active_workers_step_within_0_to_4(start, delta, expected):
    game = game_started("Alice", "Bruno")
    if start is not None:
        set_workers(game, 1, start)

    assert set_workers(game, 1, delta=delta).value == expected
    assert seat_of(game, 1).active_workers == expected


# ---------------------------------------------------------------------------------------------
# Tokens


def test_a_token_count_creates_its_row_then_updates_it_and_none_deletes_it():
    game = game_started("Alice", "Bruno")

    assert seen(set_tokens(game, 1, 1, 2)) == (Outcome.SAVED, 2, 1)
    assert token_rows(game, 1) == {1: 2}
    assert seen(set_tokens(game, 1, 1, 0)) == (Outcome.SAVED, 0, 2)
    assert token_rows(game, 1) == {1: 0}  # 0 entered is not "not entered"
    assert seen(set_tokens(game, 1, 1, None)) == (Outcome.SAVED, None, 3)
    assert token_rows(game, 1) == {}
    assert seat_of(game, 1).revisions == {"t1": [3, "", 0]}


def test_clearing_a_sector_that_holds_no_row_stays_without_a_row():
    game = game_started("Alice", "Bruno")

    assert set_tokens(game, 1, 0, None).saved
    assert token_rows(game, 1) == {}


def test_more_than_7_tokens_in_all_are_refused_in_words_and_nothing_is_written():
    game = game_scored(player("Alice", tokens=[4, 0, 2]), player("Bruno"))
    before = revision_of(game)

    refused = set_tokens(game, 1, 1, 2)

    assert refused.outcome is Outcome.REFUSED and not refused.saved
    assert (
        text_of(refused.message) == "Alice owns only 7 hibernation tokens and has 6 in other sectors: at most 1 here."
    )
    assert (refused.value, refused.version, refused.change, refused.scored) == (0, 0, None, None)  # what is stored
    assert refused.field.name == "s1-t1"
    assert tokens_of(game, 1) == [4, 0, 2]
    assert seat_of(game, 1).revisions == {}
    assert not Change.objects.filter(game=game).exists()
    assert revision_of(game) == before  # (rolled back, the lock's move with it)
    assert set_tokens(game, 1, 1, 1).saved  # exactly 7 is fine
    assert tokens_of(game, 1) == [4, 1, 2]


def test_a_count_that_does_not_increase_is_allowed_even_when_the_player_has_too_many():
    """An imported game may hold more than 7 tokens for a player: the pad must let them fix it."""
    game = game_scored(player("Alice", tokens=[4, 4, 0]), player("Bruno"))

    assert set_tokens(game, 1, 0, 4).saved  # the same count
    assert set_tokens(game, 1, 0, 3).saved  # fewer
    assert tokens_of(game, 1) == [3, 4, 0]
    refused = set_tokens(game, 1, 2, 1)  # still 7 elsewhere: no more anywhere
    assert refused.outcome is Outcome.REFUSED and "at most 0 here" in refused.message


def test_a_token_step_stops_at_7_in_a_sector_and_is_refused_beyond_7_in_all():
    game = game_scored(player("Alice", tokens=[6, 0, 0]), player("Bruno", tokens=[7, 0, 0]))

    assert set_tokens(game, 1, 0, delta=1).value == 7
    assert seen(set_tokens(game, 2, 0, delta=1)) == (Outcome.SAVED, 7, 0)  # stays at 7: nothing written
    assert set_tokens(game, 1, 1, delta=1).outcome is Outcome.REFUSED
    assert set_tokens(game, 1, 0, delta=-2).value == 5
    assert (tokens_of(game, 1), tokens_of(game, 2)) == ([5, 0, 0], [7, 0, 0])


def test_a_token_step_on_a_sector_not_entered_starts_from_0():
    """+ on a sector not entered makes 1; - on it changes nothing (it stays not entered)."""
    game = game_started("Alice", "Bruno")

    assert set_tokens(game, 2, 2, delta=1).value == 1
    assert set_tokens(game, 1, 2, delta=-1).value is None
    assert (token_rows(game, 1), token_rows(game, 2)) == ({}, {2: 1})


def test_token_counts_have_a_version_per_sector_and_refuse_stale_saves():
    game = game_started("Alice", "Bruno")
    set_tokens(game, 1, 0, 2, guard=Guard(version=0, page="a", seq=1))

    assert seen(set_tokens(game, 1, 0, 3, guard=Guard(version=0, page="b", seq=1))) == (Outcome.CONFLICT, 2, 1)
    assert set_tokens(game, 1, 0, 3, guard=Guard(value=None)).outcome is Outcome.CONFLICT
    assert set_tokens(game, 1, 0, 1, guard=Guard(version=0, page="a", seq=1)).outcome is Outcome.SUPERSEDED
    assert set_tokens(game, 1, 1, 3, guard=Guard(version=0, page="b", seq=2)).saved  # another sector
    assert tokens_of(game, 1) == [2, 3, 0]
    assert seat_of(game, 1).revisions == {"t0": [1, "a", 1], "t1": [1, "b", 2]}


# ---------------------------------------------------------------------------------------------
# change_undo: a save like any other, through field_save


def test_an_undo_is_a_save_the_values_version_moves_on_and_the_change_records_what_it_undid():
    game = game_started("Alice", "Bruno")
    set_entry(game, 1, "farm_income", 9, sum_text="3+6", guard=Guard(version=0, page="a", seq=1))
    mistake = set_entry(game, 1, "farm_income", 12, guard=Guard(version=1, page="a", seq=2)).change
    before = revision_of(game)

    result = change_undo(game=game, change=mistake)

    assert seen(result) == (Outcome.SAVED, 9, 3)
    assert (result.text, result.change.undoes, result.change.old, result.change.new) == ("3+6", mistake, "12", "3+6")
    assert revision_of(game) == before + 1
    stored = seat_of(game, 1)
    assert (stored.farm_income, stored.sums, stored.revisions["farm_income"]) == (
        9,
        {"farm_income": "3+6"},
        [3, "", 0, {"a": 2}],
    )


def test_an_undo_of_a_change_that_is_no_longer_the_values_latest_is_a_conflict_even_when_the_value_is_back():
    """Phone A sets recruits to 3 (change N), B sets 5, C sets 3 again: the value is what N made,
    but C's save is newer. Undoing N is a conflict: C's 3 stays, its version too, no change."""
    game = game_started("Alice", "Bruno")
    n = set_entry(game, 1, "recruits", 3, guard=Guard(version=0, page="a", seq=1)).change
    set_entry(game, 1, "recruits", 5, guard=Guard(version=1, page="b", seq=1))
    set_entry(game, 1, "recruits", 3, guard=Guard(version=2, page="c", seq=1))

    result = change_undo(game=game, change=n)

    assert seen(result) == (Outcome.CONFLICT, 3, 3)
    assert result.change is None
    assert (seat_of(game, 1).recruits, seat_of(game, 1).revisions["recruits"]) == (3, [3, "c", 1, {"a": 1, "b": 1}])
    assert Change.objects.filter(game=game).count() == 3


def test_an_undo_that_would_put_back_more_than_7_tokens_is_refused_in_words():
    game = game_scored(player("Alice", tokens=[3, 0, 0]), player("Bruno"))
    less = set_tokens(game, 1, 0, 1).change
    set_tokens(game, 1, 1, 6)  # another sector: 7 in all

    result = change_undo(game=game, change=less)

    assert result.outcome is Outcome.REFUSED and "at most 1 here" in result.message
    assert tokens_of(game, 1) == [1, 6, 0]


# ---------------------------------------------------------------------------------------------
# Properties


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    values=st.lists(st.one_of(st.none(), st.integers(min_value=0, max_value=99)), min_size=1, max_size=6),
    order=st.randoms(use_true_random=False),
)
def test_saves_of_one_page_delivered_in_any_order_leave_the_value_of_its_last_save(values, order):
    """Page a typed ``values`` one after the other (save numbers 1, 2, ...), each save sent before
    hearing back from the others (all based on version 0); the network delivers them in any order."""
    game = game_started("Alice")
    saves = list(enumerate(values, start=1))
    order.shuffle(saves)

    for seq, value in saves:
        set_entry(game, 1, "farms", value, guard=Guard(version=0, page="a", seq=seq))

    assert seat_of(game, 1).farms == values[-1]
    assert seat_of(game, 1).revisions["farms"][1:] == ["a", len(values)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.sampled_from([1, -1, 2, -2]), min_size=1, max_size=8))
def test_steps_from_different_pages_are_never_lost(steps):
    """Each tap comes from another phone, based on whatever it showed: every one counts, within 0 to 15."""
    game = game_started("Alice")
    expected = 0
    for number, delta in enumerate(steps):
        set_entry(game, 1, "frames_filled", delta=delta, guard=Guard(version=0, value=0, page=f"p{number}", seq=1))
        expected = max(0, min(15, expected + delta))

    assert (seat_of(game, 1).frames_filled or 0) == expected  # a "-" on the empty field leaves it empty
    assert revision_of(game) == len(steps)  # one lock a tap, at a limit or not
