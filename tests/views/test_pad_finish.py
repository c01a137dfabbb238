"""Specification of finishing a game (``/finish/``) and of a finished game: finished on every
phone, until its owner reopens it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game
from scoring.services.finishing import game_finish
from scoring.services.sharing import link_renew
from scoring.views import common
from tests.support.factories import (
    COMB,
    NUMBER_KEYS,
    game_all_entered,
    game_scored,
    game_started,
    player,
    save_tokens,
    save_value,
    save_workers,
    seat_of,
    tokens_of,
    total_of,
)
from tests.support.pages import (
    HTMX,
    WITH_AND_WITHOUT_HTMX,
    Element,
    entry,
    form_data,
    labelled,
    loaded,
    page,
    save,
    snapshot,
    strict_client,
    typed,
    url,
)
from tests.views.pad_cases import QUEENS_999

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# A finished game: finished on every phone, until its owner reopens it


def table_mate(game) -> Client:
    """A phone without an account that opened the game's edit link and said it scores for everyone."""
    phone = Client()
    link = link_renew(game=Game.objects.get(pk=game.pk), access="edit")
    assert phone.get(reverse("scoring:join", args=[link.token])).status_code == 302
    phone.post(url("who", game), {"seat": "0"})
    phone.post(url("name", game), {"name": "Ben"})
    return phone


def test_a_finished_games_pad_reads_as_the_final_score_on_every_phone_and_says_who_finished_it(client):
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farms", value=3)
    mate = table_mate(game)
    mate.post(url("finish", game), {"confirm": "1"})

    for phone, owner in ((client, True), (mate, False)):
        html = page(phone.get(url("pad", game)))
        pad = html.one(data_pad=True)
        assert "data-readonly" in pad.attrs and pad["data-finished"] != ""
        assert "disabled" in html.one("fieldset", class_="pad-fields").attrs
        note = html.by_id("finished-note")
        assert note.text.startswith("Finished by Ben (edit link) at ")
        assert note.one("a")["href"] == url("results", game)
        assert (note.find("button") is not None) == owner  # Reopen: the owner's alone
        assert html.find(id="finish-button") is None and html.find(id="keypad-bar") is None
    assert "Game finished" in page(client.get(url("live", game) + "?changes=1", headers=HTMX)).by_id("changes").text


def test_a_save_that_reaches_a_finished_game_is_refused_in_words_and_stores_nothing(client):
    """A phone that has not heard yet: its save is refused (409, one sentence), and the answer says
    the game is finished (X-Pad-Finished), so the page turns finished; nothing is stored."""
    game = game_started("Alice", "Bruno")
    game_finish(game=Game.objects.get(pk=game.pk))
    before = snapshot(game)

    refused = save(client, game, "s1-farms", "4", version=0, page="a", seq=1)

    assert refused.status_code == 409
    assert refused["Content-Type"].startswith("text/plain")
    assert refused.content.decode().startswith("Finished by someone at ")  # (finished by no phone: a script)
    assert refused.content.decode().endswith("its owner can reopen it from the results to correct it.")
    assert refused["X-Pad-Finished"] == str(int(Game.objects.get(pk=game.pk).finished_at.timestamp()))
    assert snapshot(game) == before
    posted = client.post(url("pad", game), typed(loaded(client, game), {"s1-farms": "4"}))
    assert posted.status_code == 422 and snapshot(game) == before  # (without JavaScript too)


def test_a_save_that_races_a_finish_is_said_finished_as_the_save_found_the_game(client, monkeypatch):
    """Another phone finishes the game after this save's access read it and before the save
    locked it: the save is refused as finished, and its X-Pad-Finished says so too, from the game
    as the save found it (not the game the access read, which was still in progress)."""
    game = game_started("Alice", "Bruno")
    read = common.game_access

    def access_then_finished_elsewhere(*args, **kwargs):
        access = read(*args, **kwargs)
        game_finish(game=Game.objects.get(pk=game.pk))  # (the other phone's Finish, in between)
        return access

    monkeypatch.setattr(common, "game_access", access_then_finished_elsewhere)

    refused = save(client, game, "s1-farms", "4", version=0, page="a", seq=1)

    assert refused.status_code == 409
    assert refused.content.decode().endswith("its owner can reopen it from the results to correct it.")
    assert refused["X-Pad-Finished"] == str(int(Game.objects.get(pk=game.pk).finished_at.timestamp()))


def test_every_answer_to_the_pads_script_says_whether_the_game_is_finished(client):
    game = game_started("Alice", "Bruno")
    assert save(client, game, "s1-farms", "3")["X-Pad-Finished"] == ""
    assert client.get(url("live", game), headers=HTMX)["X-Pad-Finished"] == ""
    game_finish(game=Game.objects.get(pk=game.pk))
    assert client.get(url("live", game), headers=HTMX)["X-Pad-Finished"] != ""


def test_finish_from_an_edit_link_asks_first_naming_who_finishes(client):
    game = game_started("Alice", "Bruno")
    mate = table_mate(game)

    asked = mate.post(url("finish", game))

    assert asked.status_code == 200 and not Game.objects.get(pk=game.pk).is_finished
    text = page(asked).by_id("finish-confirm").text
    assert "You are finishing the game for the whole table, as Ben (edit link)" in text
    assert mate.post(url("finish", game), {"confirm": "1"}).status_code == 302
    assert Game.objects.get(pk=game.pk).events.get(what="finished").by_name == "Ben"


def test_the_question_before_finishing_keeps_the_sheet_the_phone_was_on(client):
    """A table-mate on their own sheet (``?player=2``) taps Finish: the question's *Keep scoring*
    goes back to that sheet, and *Finish anyway* keeps it too."""
    game = game_started("Alice", "Bruno")
    mate = table_mate(game)
    sheet = url("pad", game) + "?player=2"

    asked = page(mate.post(url("finish", game) + "?player=2"))

    box = asked.by_id("finish-confirm")
    assert [a["href"] for a in box.find_all("a") if a.text == "Keep scoring"] == [sheet]
    assert box.one("form")["action"] == url("finish", game) + "?player=2"
    assert asked.by_id("finish-form")["action"] == url("finish", game) + "?player=2"


def test_the_owner_reopens_a_finished_game_to_correct_it_and_finishing_it_again_counts_it_again(client):
    game = game_scored(player("Alice", farm_income=5), player("Bruno"), finished=True)

    assert client.post(url("reopen", game)).status_code == 302

    assert not Game.objects.get(pk=game.pk).is_finished
    assert "data-readonly" not in page(client.get(url("pad", game))).one(data_pad=True).attrs
    assert save(client, game, "s1-farm_income", "7").status_code == 200
    assert client.post(url("finish", game), {"confirm": "1"}).status_code == 302
    assert seat_of(game, 1).farm_income == 7 and Game.objects.get(pk=game.pk).is_finished
    assert [event.what for event in Game.objects.get(pk=game.pk).events.all()] == ["finished", "reopened"]


# ---------------------------------------------------------------------------------------------
# Finishing: /games/<id>/finish/


def confirm_box(response) -> Element:
    return page(response).by_id("finish-confirm")


@WITH_AND_WITHOUT_HTMX
def test_finish_of_a_game_with_everything_entered_marks_it_finished_and_shows_the_results(client, headers):
    game = game_all_entered()

    response = client.post(url("finish", game), loaded(client, game), headers=headers)

    assert response.status_code == 302
    assert response["Location"] == url("results", game)
    game.refresh_from_db()
    assert game.finished_at is not None
    assert game.revision == 1
    assert page(client.get(url("history"))).find(class_="badge") is None


@WITH_AND_WITHOUT_HTMX
def test_finish_with_categories_nobody_entered_asks_first_listing_them(client, headers):
    game = game_started("Alice", "Bruno")
    for key in NUMBER_KEYS[1:-1]:  # (the starting VP is filled in) all but the faction's endgame ability
        save_value(seat=seat_of(game, 2), key=key, value=0)

    response = client.post(url("finish", game), loaded(client, game), headers=headers)

    assert response.status_code == 200
    box = confirm_box(response)
    assert box["role"] == "alert"
    assert [item.text for item in box.find_all("li")] == [
        "Faction’s endgame ability",
        "Hibernation tokens on the comb",
        "Active workers",
    ]
    assert "They count as 0. Finish the game anyway?" in box.text
    form = box.one("form")
    assert (form["method"], form["action"]) == ("post", url("finish", game))
    assert form_data(form)["confirm"] == ["1"]
    assert form.one("button", type="submit").text == "Finish anyway"
    assert box.one("a", href=url("pad", game)).text == "Keep scoring"
    assert page(response).by_id("pad") is not None  # the pad, to keep scoring
    assert Game.objects.get().finished_at is None


@WITH_AND_WITHOUT_HTMX
def test_finish_lists_the_values_to_check_each_linking_to_its_field_before_it_asks(client, headers):
    game = game_all_entered()
    save_value(seat=seat_of(game, 2), key="queens_favor", value=999)
    save_value(seat=seat_of(game, 1), key="frames_filled", value=9)

    response = client.post(url("finish", game), loaded(client, game), headers=headers)

    assert response.status_code == 200
    box = confirm_box(response)
    assert "These values are unusual: check them." in box.text
    links = [(a["href"], a.text) for a in box.one("ul", class_="finish-check").find_all("a")]
    assert links == [  # in the pad's order
        (url("pad", game) + "#f-s2-queens_favor", QUEENS_999),
        (
            url("pad", game) + "#f-s1-frames_filled",
            "Frames filled, Alice: 9 is far more than usual here (usually 0 to 4).",
        ),
    ]
    assert "They are saved as typed. Finish the game anyway?" in box.text
    assert form_data(box.one("form"))["confirm"] == ["1"]
    assert Game.objects.get().finished_at is None
    finished = client.post(box.one("form")["action"], form_data(box.one("form")))
    assert finished["Location"] == url("results", game)
    assert Game.objects.get().finished_at is not None


def test_finish_of_the_one_player_view_links_each_value_to_check_in_its_players_view(client):
    game = game_all_entered()
    save_value(seat=seat_of(game, 2), key="queens_favor", value=999)

    box = confirm_box(client.post(url("finish", game), loaded(client, game, "?player=1")))

    assert box.one("ul", class_="finish-check").one("a")["href"] == url("pad", game) + "?player=2#f-s2-queens_favor"


def test_finish_lists_more_tokens_than_the_combs_spaces_to_check(client):
    game = game_scored(
        player("Alice", tokens=[5, 0, 0], workers=1, **dict.fromkeys(NUMBER_KEYS, 1)),
        player("Bruno", tokens=[0, 5, 0]),
        player("Carla", tokens=[0, 0, 4]),
        player("Dana", tokens=[2, 1, 1]),
    )

    box = confirm_box(client.post(url("finish", game), loaded(client, game)))

    assert [(a["href"], a.text) for a in box.one("ul", class_="finish-check").find_all("a")] == [
        (
            url("pad", game) + "#comb",
            "18 tokens are on the comb, but it has only 15 spaces for 4 players: check the counts.",
        ),
    ]


def test_finish_anyway_posts_the_confirmation_and_finishes(client):
    game = game_started("Alice", "Bruno")
    box = confirm_box(client.post(url("finish", game), loaded(client, game)))

    response = client.post(box.one("form")["action"], form_data(box.one("form")))

    assert response.status_code == 302
    assert response["Location"] == url("results", game)
    assert Game.objects.get().finished_at is not None


@pytest.mark.parametrize(
    ("names", "sectors", "tokens", "workers", "listed"),
    [
        pytest.param(
            ("Alice", "Bruno"),
            COMB,
            False,
            False,
            ["Hibernation tokens on the comb", "Active workers"],
            id="nothing-on-the-comb-no-workers",
        ),
        pytest.param(("Alice", "Bruno"), (), False, False, ["Active workers"], id="no-comb-sectors"),
        pytest.param(("Alice", "Bruno"), COMB, True, True, [], id="a-token-and-workers"),
        pytest.param(("Alice",), COMB, True, False, [], id="one-player-needs-no-workers"),
    ],
)
def test_finish_asks_about_the_comb_and_the_workers_only_when_they_matter(
    client, names, sectors, tokens, workers, listed
):
    game = game_started(*names, sectors=sectors)
    for key in NUMBER_KEYS:
        save_value(seat=seat_of(game, 1), key=key, value=1)
    if tokens:
        save_tokens(seat=seat_of(game, 1), sector=game.sectors.first(), count=0)  # 0 entered counts
    if workers:
        save_workers(seat=seat_of(game, 1), workers=0)

    response = client.post(url("finish", game), loaded(client, game))

    if listed:
        assert response.status_code == 200
        assert [item.text for item in confirm_box(response).find_all("li")] == listed
        assert Game.objects.get().finished_at is None
    else:
        assert response.status_code == 302
        assert Game.objects.get().finished_at is not None


def test_finish_of_a_stale_page_keeps_what_another_phone_saved_meanwhile(client):
    """Phone B loaded the pad; phone A saved Ann's farms and recruits; B finishes without JavaScript,
    posting the whole form as it loaded it: A's values stay and the game is finished."""
    game = game_started("Ann", "Bruno")
    phone_b = loaded(client, game)
    assert save(client, game, "s1-farms", "10", page="phone-a", seq=1).status_code == 200
    assert save(client, game, "s1-recruits", "20", page="phone-a", seq=2).status_code == 200

    asked = client.post(url("finish", game), phone_b)
    assert asked.status_code == 200 and confirm_box(asked) is not None
    assert (entry(game, 1, "farms"), entry(game, 1, "recruits")) == (10, 20)
    response = client.post(url("finish", game), {**phone_b, "confirm": "1"})

    assert response.status_code == 302
    assert response["Location"] == url("results", game)
    assert (entry(game, 1, "farms"), entry(game, 1, "recruits")) == (10, 20)
    assert total_of(game, 1) == 1 + 10 + 20
    assert Game.objects.get().finished_at is not None


def test_finish_saves_the_pads_typed_fields_first(client):
    """The finish button belongs to the pad's form: without JavaScript, what was typed comes along."""
    game = game_started("Alice", "Bruno")

    response = client.post(
        url("finish", game),
        {
            **typed(loaded(client, game), {"s1-farm_income": "3+6+2", "s2-t0": "2"}),
            "confirm": "1",
        },
    )

    assert response.status_code == 302
    assert response["Location"] == url("results", game)
    assert (entry(game, 1, "farm_income"), tokens_of(game, 2)) == (11, [2, 0, 0])
    assert Game.objects.get().finished_at is not None


def test_finish_saves_the_typed_fields_even_when_it_then_asks_for_confirmation(client):
    game = game_started("Alice", "Bruno")

    response = client.post(url("finish", game), typed(loaded(client, game), {"s1-farms": "4"}))

    assert response.status_code == 200
    assert entry(game, 1, "farms") == 4
    assert "Farms built" not in [item.text for item in confirm_box(response).find_all("li")]
    assert labelled(page(response), "Farms built, Alice")["value"] == "4"


@WITH_AND_WITHOUT_HTMX
def test_finish_with_an_invalid_typed_field_answers_422_and_does_not_finish(client, headers):
    game = game_started("Alice", "Bruno")

    response = client.post(
        url("finish", game),
        {
            **typed(loaded(client, game), {"s1-farms": "120", "s1-farm_income": "4"}),
            "confirm": "1",
        },
        headers=headers,
    )

    assert response.status_code == 422
    html = page(response)
    assert html.one("input", name="s1-farms")["value"] == "120"
    assert html.by_id("error-s1-farms").text == "Farms built, Alice: the value must be from 0 to 99 (not 120)."
    assert html.find(id="finish-confirm") is None
    assert entry(game, 1, "farm_income") == 4
    assert Game.objects.get().finished_at is None


def test_finish_with_a_field_changed_on_another_phone_meanwhile_answers_422_and_does_not_finish(client):
    game = game_all_entered()
    phone_b = loaded(client, game)
    assert save(client, game, "s1-farms", "10", version=0, page="phone-a", seq=1).status_code == 200

    response = client.post(url("finish", game), {**typed(phone_b, {"s1-farms": "7"}), "confirm": "1"})

    assert response.status_code == 422
    html = page(response)
    assert html.by_id("error-s1-farms").text.startswith("Farms built, Alice: changed on another phone to 10")
    assert html.one("input", name="s1-farms")["value"] == "7"
    assert entry(game, 1, "farms") == 10
    assert Game.objects.get().finished_at is None


def test_finish_of_a_game_finished_already_shows_its_results(client):
    """Finished on another phone, or a second tap: the results, and the first finishing time kept."""
    game = game_started("Alice", "Bruno")
    client.post(url("finish", game), {"confirm": "1"})
    first = Game.objects.get().finished_at

    response = client.post(url("finish", game), {"confirm": "1"})

    assert response.status_code == 302
    assert response["Location"] == url("results", game)
    assert Game.objects.get().finished_at == first


def test_finish_with_more_than_7_tokens_for_a_player_answers_422_listing_the_problem(client):
    game = game_scored(player("Alice", tokens=[4, 4, 0]), player("Bruno", tokens=[1, 0, 0]))

    response = client.post(url("finish", game), {"confirm": "1"})

    assert response.status_code == 422
    problems = page(response).one(class_="form-errors")
    assert "The game cannot be finished yet:" in problems.text
    assert [item.text for item in problems.find_all("li")] == ["Alice has more than 7 tokens on the comb."]
    assert Game.objects.get().finished_at is None


@WITH_AND_WITHOUT_HTMX
def test_finish_refuses_get_with_405(client, headers):
    game = game_started("Alice")

    assert client.get(url("finish", game), headers=headers).status_code == 405
    assert Game.objects.get().finished_at is None


def test_finish_without_a_csrf_token_is_refused_with_403(owner):
    game = game_all_entered()
    strict = strict_client(owner)

    response = strict.post(url("finish", game), {"confirm": "1"})

    assert response.status_code == 403
    assert Game.objects.get().finished_at is None


def test_finish_with_the_pads_finish_form_is_accepted(owner):
    """With JavaScript, the script posts the pad's separate finish form (its CSRF token only)."""
    game = game_all_entered()
    strict = strict_client(owner)
    html = page(strict.get(url("pad", game)))

    response = strict.post(html.by_id("finish-form")["action"], form_data(html.by_id("finish-form")))

    assert response.status_code == 302
    assert Game.objects.get().finished_at is not None


def test_the_owners_finish_asks_first_while_a_share_link_is_live(client):
    game = game_all_entered()
    link_renew(game=Game.objects.get(pk=game.pk), access="edit")

    asked = client.post(url("finish", game), loaded(client, game))

    assert asked.status_code == 200 and not Game.objects.get(pk=game.pk).is_finished
    box = page(asked).by_id("finish-confirm")
    assert "You are finishing the game for the whole table: every phone will show it finished" in box.text
    # (nothing was listed to check: the button says what it does, not "anyway": issue 49)
    assert box.one("button", type="submit").text == "Finish the game"
    assert client.post(url("finish", game), {"confirm": "1"}).status_code == 302
