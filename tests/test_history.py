"""Specification of the change history: every change of a pad field is recorded, can be undone,
and survives export and import (``docs/game-file.md``, "The change history (optional)").

Services level, no views. A change (``scoring.models.Change``) names its game, seat and field
(a category key, "active_workers" or "t<sector position>"), the field's text before and after
("" not entered, "True"/"False" for the hive-mat flag, the sum as typed, or the number), when,
and who: an account (``by_user``, shown by its display name, never its login), a share link
(``by_link``) and/or a name in words (``by_name``), and apart from the name whether a link's holder
made it (``by_link_holder``). Undoing a change is itself a change, pointing at the one it undid (``undoes``),
saved as any other save (``services.pad.change_undo`` goes through ``field_save``); only the field's
latest change can be undone: once the field changed again, on any phone, the undo is a conflict.
"""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from scoring.actors import Actor
from scoring.gamefile import ChangeData, dump_document, parse_document, read_document, to_json
from scoring.models import Change, Game, GameLink, HibernationTokens, Seat
from scoring.rules.categories import During
from scoring.selectors.games import game_data, games_for_export, games_with_everything
from scoring.services.finishing import game_finish, game_reopen
from scoring.services.games import PlayerSetup, game_create
from scoring.services.imports import games_store
from scoring.services.pad import Guard, Outcome, SaveResult, change_undo
from scoring.services.sharing import link_renew
from tests.gamefile.documents import history_document
from tests.support.factories import revision_of, save_value

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# A table: Ann's game (Ann in seat 1, Ben in seat 2, one comb sector of 9 / 4 VP). Ann scores on
# her account (user name "ann", shown to others as "Annie"); Ben on his phone through the game's
# edit link, under his name.


@pytest.fixture
def ann() -> User:
    return User.objects.create_user("ann", password="not-used-here", first_name="Annie")


@pytest.fixture
def game(ann) -> Game:
    return game_create(
        players=[PlayerSetup("Ann"), PlayerSetup("Ben")],
        sectors=[(9, 4)],
        owner=ann,
        during=During.BREAKDOWN,
    )


@pytest.fixture
def edit_link(game) -> GameLink:
    return link_renew(game=game, access="edit")


@pytest.fixture
def as_ann(ann) -> Actor:
    return Actor(user=ann)


@pytest.fixture
def as_ben(edit_link) -> Actor:
    return Actor(link=edit_link, name="Ben")


def seat(game: Game, number: int) -> Seat:
    """The seat as stored now."""
    return Seat.objects.get(game=game, number=number)


def write(game: Game, number: int, key: str, value=None, **kwargs) -> SaveResult:
    """One pad field written, as the pad writes it."""
    return save_value(seat=seat(game, number), key=key, value=value, **kwargs)


def changes(game: Game) -> list[Change]:
    """The game's changes, oldest first."""
    return list(Change.objects.filter(game=game).order_by("at", "id"))


def latest(game: Game) -> Change:
    return changes(game)[-1]


def undo(change: Change, by: Actor) -> SaveResult:
    """The change undone, as the pad's Undo button does it (``services.pad.change_undo``)."""
    change = Change.objects.select_related("game", "seat").get(pk=change.pk)
    return change_undo(game=change.game, change=change, by=by)


# ---------------------------------------------------------------------------------------------
# Every write records one change, with what the field showed before and after and who wrote it


def test_a_typed_entry_records_one_change_with_its_old_and_new_text_and_the_account(game, ann, as_ann):
    result = write(game, 1, "farm_income", 9, sum_text="3+6", by=as_ann)

    (change,) = changes(game)
    assert result.change == change
    assert (change.game, change.seat, change.field) == (game, seat(game, 1), "farm_income")
    assert (change.old, change.new) == ("", "3+6")  # not entered before; the sum as typed
    assert (change.by_user, change.by_link, change.by_name, change.by_link_holder) == (ann, None, "", False)
    assert change.undoes is None


def test_the_next_write_starts_from_what_the_last_one_left(game, as_ann):
    write(game, 1, "farm_income", 9, sum_text="3+6", by=as_ann)
    write(game, 1, "farm_income", 12, by=as_ann)

    assert [(c.old, c.new) for c in changes(game)] == [("", "3+6"), ("3+6", "12")]


def test_a_write_through_a_link_records_the_link_and_the_name_given(game, edit_link, as_ben):
    write(game, 2, "recruits", 4, by=as_ben)

    change = latest(game)
    assert (change.by_user, change.by_link, change.by_name, change.by_link_holder) == (None, edit_link, "Ben", True)


def test_a_signed_in_user_through_a_link_is_recorded_with_both(game, edit_link):
    cleo = User.objects.create_user("cleo")
    write(game, 2, "recruits", 4, by=Actor(user=cleo, link=edit_link))

    change = latest(game)
    assert (change.by_user, change.by_link, change.by_name, change.by_link_holder) == (cleo, edit_link, "", True)


def test_a_name_alone_is_an_author_too(game):
    write(game, 2, "recruits", 4, by=Actor(name="Ben"))

    change = latest(game)
    assert (change.by_user, change.by_link, change.by_name, change.by_link_holder) == (None, None, "Ben", False)


@pytest.mark.parametrize(
    "key, value, kwargs, old, new",
    [
        pytest.param("farms", None, {"delta": +1}, "", "1", id="a-stepper-on-an-empty-entry"),
        pytest.param("carvings", -3, {}, "", "-3", id="a-negative-entry"),
        pytest.param("hive_mat_full", True, {}, "False", "True", id="the-hive-mat-flag"),
        pytest.param("active_workers", 3, {}, "", "3", id="active-workers"),
        pytest.param("active_workers", None, {"delta": +1}, "", "1", id="an-active-workers-stepper"),
        pytest.param("t0", 2, {}, "", "2", id="tokens-in-sector-1"),
        pytest.param("t0", None, {"delta": +1}, "", "1", id="a-token-stepper"),
        pytest.param("starting_vp", None, {}, "1", "", id="an-entry-cleared"),
    ],
)
def test_every_kind_of_field_records_its_change(game, as_ann, key, value, kwargs, old, new):
    write(game, 1, key, value, by=as_ann, **kwargs)

    (change,) = changes(game)
    assert (change.field, change.old, change.new) == (key, old, new)


def test_every_recorded_change_raises_the_games_revision_by_one(game, as_ann):
    write(game, 1, "farms", 4, by=as_ann)
    write(game, 1, "farms", delta=+1, by=as_ann)
    write(game, 1, "t0", 2, by=as_ann)

    assert len(changes(game)) == revision_of(game) == 3


# No change is recorded for a write that changed nothing.


def test_a_refused_write_records_nothing(game, as_ann, as_ben):
    write(game, 1, "farms", 4, guard=Guard(version=0, page="ann-phone", seq=1), by=as_ann)

    result = write(game, 1, "farms", 5, guard=Guard(version=0, page="ben-phone", seq=1), by=as_ben)

    assert result.outcome is Outcome.CONFLICT and result.change is None
    assert [(c.old, c.new) for c in changes(game)] == [("", "4")]


def test_a_write_refused_for_too_many_tokens_records_nothing(game, as_ann):
    write(game, 1, "t0", 7, by=as_ann)

    result = write(game, 1, "t0", 8, by=as_ann)

    assert (result.outcome, result.change) == (Outcome.REFUSED, None)
    assert [(c.old, c.new) for c in changes(game)] == [("", "7")]


def test_a_superseded_or_retried_save_records_nothing(game, as_ann):
    write(game, 1, "farms", 4, guard=Guard(version=0, page="ann-phone", seq=2), by=as_ann)

    late = write(game, 1, "farms", 3, guard=Guard(version=0, page="ann-phone", seq=1), by=as_ann)
    retried = write(game, 1, "farms", 4, guard=Guard(version=0, page="ann-phone", seq=2), by=as_ann)

    assert late.outcome is retried.outcome is Outcome.SUPERSEDED
    assert len(changes(game)) == 1


@pytest.mark.parametrize(
    "key, start, delta",
    [
        pytest.param("farms", None, -1, id="minus-on-an-empty-entry"),
        pytest.param("frames_filled", 15, +1, id="plus-at-the-maximum"),
        pytest.param("active_workers", 4, +1, id="plus-at-4-active-workers"),
        pytest.param("t0", 0, -1, id="minus-at-0-tokens"),
    ],
)
def test_a_step_at_a_limit_records_nothing(game, as_ann, key, start, delta):
    if start is not None:
        write(game, 1, key, start, by=as_ann)
    before = len(changes(game))

    result = write(game, 1, key, delta=delta, by=as_ann)

    assert result.saved and result.change is None
    assert len(changes(game)) == before


def test_a_value_another_phone_already_stored_records_nothing(game, as_ann, as_ben):
    write(game, 1, "farms", 4, guard=Guard(version=0, page="ann-phone", seq=1), by=as_ann)

    result = write(game, 1, "farms", 4, guard=Guard(version=0, page="ben-phone", seq=1), by=as_ben)

    assert result.saved and result.change is None
    assert len(changes(game)) == 1


@pytest.mark.parametrize(
    "key, value, sum_text",
    [
        ("farms", 4, ""),
        ("farm_income", 9, "3+6"),
        ("hive_mat_full", False, ""),
        ("active_workers", 2, ""),
        ("t0", 3, ""),
    ],
)
def test_writing_what_the_field_already_shows_records_nothing(game, as_ann, key, value, sum_text):
    if value is not False:
        write(game, 1, key, value, sum_text=sum_text, by=as_ann)
    before = len(changes(game))

    write(game, 1, key, value, sum_text=sum_text, by=as_ann)

    assert len(changes(game)) == before


# ---------------------------------------------------------------------------------------------
# Undo: the field goes back to what it showed before the change, and the undo is a change too


def test_undoing_a_typed_change_puts_the_old_value_and_its_sum_back(game, as_ann):
    write(game, 1, "farm_income", 9, sum_text="3+6", by=as_ann)
    mistake = write(game, 1, "farm_income", 12, by=as_ann).change

    result = undo(mistake, by=as_ann)

    assert result.saved
    assert (seat(game, 1).farm_income, seat(game, 1).sums) == (9, {"farm_income": "3+6"})
    assert result.change == latest(game)
    assert (result.change.field, result.change.old, result.change.new) == ("farm_income", "12", "3+6")
    assert result.change.undoes == mistake


def test_undoing_the_first_entry_leaves_the_field_not_entered_again(game, as_ann):
    first = write(game, 1, "farms", 4, by=as_ann).change

    undo(first, by=as_ann)

    assert seat(game, 1).farms is None
    assert (latest(game).old, latest(game).new) == ("4", "")


def test_undoing_a_stepper_change_takes_the_step_back(game, as_ann):
    write(game, 1, "farms", 4, by=as_ann)
    step = write(game, 1, "farms", delta=+1, by=as_ann).change
    assert (step.old, step.new) == ("4", "5")

    result = undo(step, by=as_ann)

    assert result.saved and seat(game, 1).farms == 4
    assert (result.change.old, result.change.new, result.change.undoes) == ("5", "4", step)


def test_undoing_a_change_made_on_another_phone_records_who_undid_it(game, ann, edit_link, as_ann, as_ben):
    write(game, 2, "recruits", 4, by=as_ben)
    bens = write(game, 2, "recruits", 40, by=as_ben).change

    result = undo(bens, by=as_ann)

    assert result.saved and seat(game, 2).recruits == 4
    assert (result.change.by_user, result.change.by_link, result.change.by_name) == (ann, None, "")
    bens.refresh_from_db()
    assert (bens.by_link, bens.by_name) == (edit_link, "Ben")  # the undone change keeps its author


def test_undoing_a_change_the_field_has_moved_on_from_is_refused_and_changes_nothing(game, as_ann, as_ben):
    mine = write(game, 1, "farms", 4, by=as_ann).change
    write(game, 1, "farms", 6, by=as_ben)  # Ben corrects it on his phone meanwhile
    before = (len(changes(game)), revision_of(game))

    result = undo(mine, by=as_ann)

    assert result.outcome is Outcome.CONFLICT
    assert (result.value, result.change) == (6, None)  # the answer says what the field holds now
    assert seat(game, 1).farms == 6
    # Nothing recorded, and the revision as it was (the undo wrote nothing: it rolled back).
    assert (len(changes(game)), revision_of(game)) == before


def test_undoing_a_change_that_is_no_longer_the_fields_latest_is_refused_even_when_the_value_is_back(
    game, as_ann, as_ben
):
    """Phone A sets recruits to 3 (change N), B sets 5, C sets 3 again. The field shows what
    change N made, but C's 3 is a newer save that C was told is stored: undoing N now would
    silently throw C's save away. The undo is a conflict; C's 3 stays, and nothing is recorded."""
    n = write(game, 1, "recruits", 3, by=as_ann).change
    write(game, 1, "recruits", 5, by=as_ben)
    write(game, 1, "recruits", 3, by=Actor(name="Cleo"))
    before = len(changes(game))

    result = undo(n, by=as_ann)

    assert (result.outcome, result.value, result.change) == (Outcome.CONFLICT, 3, None)
    assert seat(game, 1).recruits == 3
    assert seat(game, 1).revisions["recruits"][0] == 3  # C's save is still the field's latest version
    assert len(changes(game)) == before


def test_undoing_a_change_whose_old_value_is_already_back_records_nothing(game, as_ann, as_ben):
    write(game, 1, "farms", 4, by=as_ann)
    mine = write(game, 1, "farms", 5, by=as_ann).change
    write(game, 1, "farms", 4, by=as_ben)  # Ben already put it back by hand
    before = len(changes(game))

    result = undo(mine, by=as_ann)

    assert result.saved and result.change is None  # nothing to refuse, nothing to write
    assert seat(game, 1).farms == 4
    assert len(changes(game)) == before


def test_undoing_token_counts_puts_them_back_and_a_first_count_back_to_not_entered(game, as_ann):
    write(game, 1, "t0", 2, by=as_ann)
    more = write(game, 1, "t0", delta=+1, by=as_ann).change

    undo(more, by=as_ann)
    assert HibernationTokens.objects.get(seat=seat(game, 1)).count == 2
    assert (latest(game).field, latest(game).old, latest(game).new) == ("t0", "3", "2")

    first_in_sector_2 = write(game, 2, "t0", 1, by=as_ann).change
    undo(first_in_sector_2, by=as_ann)
    assert not HibernationTokens.objects.filter(seat=seat(game, 2)).exists()  # not entered again
    assert (latest(game).old, latest(game).new, latest(game).undoes) == ("1", "", first_in_sector_2)


def test_undoing_is_one_step_back_only_an_earlier_change_cannot_be_undone_after_a_later_one(game, as_ann):
    """Once a later change of the field was undone, the undo is the field's latest change: the
    earlier change is no longer the latest, so undoing it is a conflict, even though the field
    holds what it made again (the rule of every undo: only the field's latest change)."""
    first = write(game, 1, "t0", 2, by=as_ann).change
    more = write(game, 1, "t0", delta=+1, by=as_ann).change
    undo(more, by=as_ann)
    before = len(changes(game))

    result = undo(first, by=as_ann)

    assert (result.outcome, result.value, result.change) == (Outcome.CONFLICT, 2, None)
    assert HibernationTokens.objects.get(seat=seat(game, 1)).count == 2
    assert len(changes(game)) == before


def test_undoing_a_token_count_that_moved_on_is_refused(game, as_ann, as_ben):
    first = write(game, 1, "t0", 2, by=as_ann).change
    write(game, 1, "t0", delta=+1, by=as_ben)

    assert undo(first, by=as_ann).outcome is Outcome.CONFLICT
    assert HibernationTokens.objects.get(seat=seat(game, 1)).count == 3


def test_undoing_the_hive_mat_flag(game, as_ann):
    ticked = write(game, 1, "hive_mat_full", True, by=as_ann).change

    result = undo(ticked, by=as_ann)

    assert result.saved and seat(game, 1).hive_mat_full is False
    assert (result.change.old, result.change.new, result.change.undoes) == ("True", "False", ticked)


def test_undoing_active_workers(game, as_ann):
    set_to_3 = write(game, 1, "active_workers", 3, by=as_ann).change

    undo(set_to_3, by=as_ann)

    assert seat(game, 1).active_workers is None


def test_undoing_an_undo_redoes_the_change(game, as_ann, as_ben):
    write(game, 1, "farm_income", 9, sum_text="3+6", by=as_ann)
    change = write(game, 1, "farm_income", 11, sum_text="3+6+2", by=as_ann).change
    undone = undo(change, by=as_ben).change

    redone = undo(undone, by=as_ann).change

    assert (seat(game, 1).farm_income, seat(game, 1).sums) == (11, {"farm_income": "3+6+2"})
    assert (redone.old, redone.new, redone.undoes) == ("3+6", "3+6+2", undone)
    assert [c.undoes_id for c in changes(game)] == [None, None, change.pk, undone.pk]


# ---------------------------------------------------------------------------------------------
# The history in the game file: export, import, export again


def export() -> str:
    """What ``export_games`` writes."""
    return to_json(dump_document(games_for_export()))


def import_(text: str) -> list[Game]:
    """What ``import_games`` stores."""
    return games_store(parse_document(text), finished=True)


def play_a_little(game: Game, as_ann: Actor, as_ben: Actor) -> None:
    """A few changes of every kind, by every kind of author, with undos."""
    write(game, 1, "farm_income", 9, sum_text="3+6", by=as_ann)
    wrong = write(game, 1, "farm_income", 12, by=as_ben).change
    undone = undo(wrong, by=as_ann).change
    undo(undone, by=as_ben)
    write(game, 1, "carvings", -3, by=as_ann)
    write(game, 2, "t0", 2, by=as_ben)
    write(game, 2, "t0", delta=-1, by=as_ben)
    write(game, 1, "hive_mat_full", True, by=Actor(name="  Cleo  "))
    write(game, 2, "active_workers", 4)  # nobody the pad knows (a script)
    write(game, 1, "starting_vp", None, by=as_ann)


def test_game_data_gives_the_history_oldest_first_with_authors_in_words(game, as_ann, as_ben):
    play_a_little(game, as_ann, as_ben)

    data = game_data(games_with_everything().get(pk=game.pk), changes=True)

    assert [(c.player, c.entry, c.old, c.new, c.by, c.by_link, c.undoes) for c in data.changes] == [
        (1, "farm_income", None, "3+6", "Annie", False, None),
        (1, "farm_income", "3+6", 12, "Ben", True, None),
        (1, "farm_income", 12, "3+6", "Annie", False, 1),
        (1, "farm_income", "3+6", 12, "Ben", True, 2),
        (1, "carvings", None, -3, "Annie", False, None),
        (2, "hibernation[0]", None, 2, "Ben", True, None),
        (2, "hibernation[0]", 2, 1, "Ben", True, None),
        (1, "hive_mat_full", False, True, "Cleo", False, None),
        (2, "active_workers", None, 4, "", False, None),
        (1, "starting_vp", 1, None, "Annie", False, None),
    ]
    assert [c.at for c in data.changes] == [c.at for c in changes(game)]


def test_a_links_holder_without_a_name_is_written_as_nobody_named_through_a_link(game, edit_link):
    write(game, 2, "recruits", 4, by=Actor(link=edit_link))

    (change,) = game_data(game, changes=True).changes

    assert (change.by, change.by_link) == ("", True)


def test_a_link_holder_who_takes_the_owners_names_is_still_written_as_a_link_holder(game, ann, edit_link):
    write(game, 1, "farms", 4, by=Actor(user=ann))
    write(game, 1, "farms", 5, by=Actor(link=edit_link, name="Annie"))  # the owner's display name
    write(game, 1, "farms", 6, by=Actor(link=edit_link, name="ann"))  # and her login

    owners, *holders = json.loads(export())["games"][0]["changes"]

    assert (owners["by"], "by_link" in owners) == ("Annie", False)
    assert [(change["by"], change["by_link"]) for change in holders] == [("Annie", True), ("ann", True)]


def test_a_signed_in_link_holder_is_written_by_their_display_name_as_a_link_holder(game, edit_link):
    cleo = User.objects.create_user("cleo-login", first_name="Cleo")
    write(game, 2, "recruits", 4, by=Actor(user=cleo, link=edit_link))

    (change,) = game_data(game, changes=True).changes

    assert (change.by, change.by_link) == ("Cleo", True)


def test_an_account_is_written_by_its_display_name_never_its_login(game):
    nameless = User.objects.create_user("dee-login")
    write(game, 1, "farms", 4, by=Actor(user=nameless))

    (change,) = game_data(game, changes=True).changes

    assert (change.by, change.by_link) == ("", False)
    assert "dee-login" not in export()


def test_a_display_name_longer_than_the_file_allows_is_cut_to_80_characters(game):
    long_name = User.objects.create_user("long", first_name="x" * 150)
    write(game, 1, "farms", 4, by=Actor(user=long_name))

    (change,) = game_data(game, changes=True).changes
    assert change.by == "x" * 80
    assert parse_document(export())  # the export is still a valid game file


def test_scoring_reads_no_history(game, as_ann):
    write(game, 1, "farms", 4, by=as_ann)

    assert game_data(game).changes == []


def test_export_writes_the_history_and_a_game_without_one_has_no_changes_key(game, as_ann, as_ben):
    play_a_little(game, as_ann, as_ben)
    game_create(players=[PlayerSetup("Dee")], sectors=[])  # no change yet

    document = json.loads(export())

    with_history, without = sorted(document["games"], key=lambda g: len(g["players"]), reverse=True)
    assert len(with_history["changes"]) == 10
    assert with_history["changes"][2] == {
        "player": 1,
        "entry": "farm_income",
        "old": 12,
        "new": "3+6",
        "at": changes(game)[2].at.astimezone(UTC).isoformat(),
        "by": "Annie",
        "undoes": 1,
    }
    assert with_history["changes"][3]["by_link"] is True  # Ben's, through the edit link
    assert with_history["changes"][2]["at"].endswith("+00:00")
    assert "changes" not in without


def test_export_import_export_gives_the_same_document_with_its_history(game, as_ann, as_ben):
    """Finished games, as a backup holds them: an import stores every game finished (one in
    progress would come back finished at the import's time)."""
    play_a_little(game, as_ann, as_ben)
    game_finish(game=game, by=as_ann)
    game_finish(game=game_create(players=[PlayerSetup("Dee")], sectors=[]))
    first = export()

    Game.objects.all().delete()
    assert Change.objects.count() == 0
    import_(first)
    second = export()

    assert second == first


def test_the_commands_carry_the_history_over_too(game, as_ann, as_ben, tmp_path):
    play_a_little(game, as_ann, as_ben)
    game_finish(game=game, by=as_ann)
    out = io.StringIO()
    call_command("export_games", stdout=out)
    first = out.getvalue()
    assert json.loads(first)["games"][0]["changes"]

    Game.objects.all().delete()
    path = tmp_path / "backup.json"
    path.write_text(first, encoding="utf-8")
    call_command("import_games", str(path), "--owner", "ann", stdout=io.StringIO())
    out = io.StringIO()
    call_command("export_games", stdout=out)

    assert out.getvalue() == first


def test_an_import_stores_each_change_with_its_author_in_words_and_its_undo(game, as_ann, as_ben):
    play_a_little(game, as_ann, as_ben)
    original = [(c.seat.number, c.field, c.old, c.new, c.at) for c in changes(game)]
    text = export()
    Game.objects.all().delete()

    (imported,) = import_(text)

    stored = changes(imported)
    assert [(c.seat.number, c.field, c.old, c.new, c.at) for c in stored] == original
    assert [c.by_name for c in stored] == ["Annie", "Ben", "Annie", "Ben", "Annie", "Ben", "Ben", "Cleo", "", "Annie"]
    assert [c.by_link_holder for c in stored] == [False, True, False, True, False, True, True, False, False, False]
    assert all(c.by_user is None and c.by_link is None for c in stored)  # no account or link recreated
    assert [stored.index(c.undoes) if c.undoes else None for c in stored] == [
        None,
        None,
        1,
        2,
        None,
        None,
        None,
        None,
        None,
        None,
    ]
    assert not GameLink.objects.filter(game=imported).exists()


def test_an_import_takes_back_from_the_history_what_the_entries_cannot_say(game, as_ann, as_ben):
    """The players' entries write "not entered" as 0 and an entry's value without its sum; the
    last change of each field still says them, so the imported game shows as it was."""
    play_a_little(game, as_ann, as_ben)
    before = seat(game, 1), seat(game, 2)
    text = export()
    Game.objects.all().delete()

    (imported,) = import_(text)

    ann, ben = seat(imported, 1), seat(imported, 2)
    assert (ann.starting_vp, ann.farm_income, ann.sums) == (None, 12, {})  # cleared; 12 typed as a number
    assert (ann.carvings, ann.hive_mat_full) == (-3, True)
    assert ann.farms == 0  # never entered, and never changed: the history cannot say it, the file's 0 stands
    assert (ben.starting_vp, ben.active_workers) == (2, 4)
    assert [getattr(ann, key) for key in ("starting_vp", "farm_income", "carvings")] == [
        getattr(before[0], key) for key in ("starting_vp", "farm_income", "carvings")
    ]
    assert HibernationTokens.objects.get(seat=ben).count == 1


def test_an_import_keeps_the_sum_an_entry_was_last_typed_as(as_ann):
    (imported,) = games_store(read_document(history_document()), finished=True)

    assert (seat(imported, 1).farm_income, seat(imported, 1).sums) == (9, {"farm_income": "3+6"})


def test_an_entry_the_history_left_empty_but_the_file_gives_a_value_keeps_the_value():
    document = history_document()
    document["games"][0]["players"][1]["hibernation"] = [0]  # the history says Ben put 1 token there
    document["games"][0]["changes"].append(
        {"player": 2, "entry": "recruits", "old": None, "new": None, "at": "2026-11-29T22:00:00+01:00", "by": ""}
    )
    document["games"][0]["players"][1]["end"] = {"recruits": 5}

    (imported,) = games_store(read_document(document), finished=True)

    assert HibernationTokens.objects.get(seat=seat(imported, 2)).count == 0  # the entries win
    assert seat(imported, 2).recruits == 5


def test_an_imported_change_can_be_undone_like_any_other(game, as_ann, as_ben):
    play_a_little(game, as_ann, as_ben)
    text = export()
    Game.objects.all().delete()
    (imported,) = import_(text)

    last = latest(imported)  # starting VP cleared by Ann
    game_reopen(game=imported)  # (imported finished: its owner reopens it to change it)
    result = undo(last, by=Actor(name="Ann"))

    assert result.saved and seat(imported, 1).starting_vp == 1
    assert (latest(imported).old, latest(imported).new, latest(imported).undoes) == ("", "1", last)


def test_format_md_history_example_imports_with_its_times_and_exports_in_utc():
    (imported,) = games_store(read_document(history_document()), finished=True)

    stored = changes(imported)
    assert [(c.seat.number, c.field, c.old, c.new, c.by_name, c.by_link_holder) for c in stored] == [
        (1, "farm_income", "", "3+6", "Ann", False),
        (2, "t0", "", "1", "", True),
        (1, "farm_income", "3+6", "3+6+2", "Ben", True),
        (1, "farm_income", "3+6+2", "3+6", "Ann", False),
        (1, "hive_mat_full", "False", "True", "Ann", False),
    ]
    assert stored[3].undoes == stored[2]
    assert stored[0].at == datetime(2026, 11, 29, 19, 15, 3, tzinfo=UTC)
    (game,) = json.loads(export())["games"]
    assert [c["at"] for c in game["changes"]] == [
        "2026-11-29T19:15:03+00:00",
        "2026-11-29T19:16:40+00:00",
        "2026-11-29T19:17:00+00:00",
        "2026-11-29T19:17:05+00:00",
        "2026-11-29T20:40:12.500000+00:00",
    ]
    assert game["changes"] == [
        {**change, "at": at}
        for change, at in zip(
            history_document()["games"][0]["changes"], [c["at"] for c in game["changes"]], strict=True
        )
    ]


def test_a_game_without_history_imports_without_changes():
    document = history_document()
    del document["games"][0]["changes"]

    (imported,) = games_store(read_document(document), finished=True)

    assert changes(imported) == []


def test_an_older_files_history_without_by_link_imports_as_plain_words():
    """As the pad wrote it before ``by_link``: the account's user name, and "edit link" for a
    link's holder who gave no name."""
    document = history_document()
    for change, by in zip(document["games"][0]["changes"], ["ann", "edit link", "Ben", "ann", "ann"], strict=True):
        change.pop("by_link", None)
        change["by"] = by

    (imported,) = games_store(read_document(document), finished=True)

    assert [(c.by_name, c.by_link_holder) for c in changes(imported)] == [
        ("ann", False),
        ("edit link", False),
        ("Ben", False),
        ("ann", False),
        ("ann", False),
    ]


@pytest.mark.django_db(transaction=True)
def test_the_migration_marks_every_change_made_through_a_link_as_a_link_holders():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("scoring", "0013_game_fingerprint")], [("scoring", "0014_change_by_link_holder")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    User, Game, Seat, GameLink, Change = (
        old.get_model(*name.split("."))
        for name in ("auth.User", "scoring.Game", "scoring.Seat", "scoring.GameLink", "scoring.Change")
    )
    ann = User.objects.create(username="ann")
    game = Game.objects.create(owner=ann, public_id="migrated")
    seat = Seat.objects.create(game=game, number=1, name="Ann", name_key="ann")
    link = GameLink.objects.create(game=game, access="edit", token="t" * 32)
    for by in ({"by_user": ann}, {"by_link": link, "by_name": "Ben"}, {"by_user": ann, "by_link": link}, {}):
        Change.objects.create(game=game, seat=seat, field="farms", **by)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    Change = executor.loader.project_state(after).apps.get_model("scoring", "Change")

    assert list(Change.objects.order_by("pk").values_list("by_link_holder", flat=True)) == [False, True, True, False]

    executor = MigrationExecutor(connection)  # back to the latest state for the other tests
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes("scoring"))


def test_an_undo_recorded_before_the_change_it_undid_is_exported_without_undoes(game, as_ann):
    """The clock of a server can go back: an undo whose time is earlier than the change it undid
    is listed before it, and its ``undoes`` (which must name an earlier change) is left out, so the
    export still imports."""
    change = write(game, 1, "farms", 4, by=as_ann).change
    undone = undo(change, by=as_ann).change
    Change.objects.filter(pk=undone.pk).update(at=change.at - timedelta(seconds=1))

    data = game_data(game, changes=True)

    assert [(c.new, c.undoes) for c in data.changes] == [(None, None), (4, None)]
    assert parse_document(export())


def test_history_data_round_trips_through_the_database_unchanged():
    """Reading the example, storing it and reading it back from the database gives the same
    changes, times as the same moments."""
    (data,) = read_document(history_document())
    (imported,) = games_store([data], finished=True)

    again = game_data(games_with_everything().get(pk=imported.pk), changes=True)

    assert again.changes == data.changes  # aware datetimes compare as moments
    assert all(isinstance(c, ChangeData) for c in again.changes)
