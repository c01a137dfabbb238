"""Specification of the pad without JavaScript: the pad's form posts every field with the value
the page showed (``initial-<name>``); only the fields this phone changed are saved, each only
where the stored value is still the one the page showed, and a changed field that does not say
what the page showed is refused."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.models import Change, Game, HibernationTokens, Seat
from tests.support.factories import (
    game_scored,
    game_started,
    player,
    revision_of,
    save_value,
    seat_of,
    tokens_of,
)
from tests.support.pages import (
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
from tests.views.pad_cases import NOT_SHOWN

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# The pad without JavaScript: the whole form posted to /games/<id>/


def test_pad_form_posted_back_as_loaded_changes_nothing(client):
    game = game_scored(
        player("Alice", workers=2, tokens=[2, 0, 1], starting_vp=1, farms=3, hive_mat_full=True, carvings=-3),
        player("Bruno", workers=1, tokens=[1, 1, 0], starting_vp=2, frames_filled=1),
    )
    save_value(seat=seat_of(game, 2), key="farm_income", value=11, sum_text="3+6+2")
    before, revision = snapshot(game), revision_of(game)

    response = client.post(url("pad", game), loaded(client, game))

    assert response.status_code == 302
    assert response["Location"] == url("pad", game)
    assert (snapshot(game), revision_of(game)) == (before, revision)


def test_save_all_saves_only_the_fields_this_phone_changed_keeping_what_another_phone_saved_meanwhile(client):
    """Phone B loaded the pad; phone A saved Alice's farms and recruits; B saves Bruno's farms,
    posting the rest of the form as it loaded it."""
    game = game_scored(player("Alice", workers=1, tokens=[1, 0, 0]), player("Bruno", farm_income=4))
    phone_b = loaded(client, game)
    save(client, game, "s1-farms", "10", page="phone-a", seq=1)
    save(client, game, "s1-recruits", "20", page="phone-a", seq=2)
    alice = snapshot(game)[0]

    response = client.post(url("pad", game), typed(phone_b, {"s2-farms": "4"}))

    assert response.status_code == 302
    assert response["Location"] == url("pad", game)
    assert (entry(game, 1, "farms"), entry(game, 1, "recruits"), entry(game, 2, "farms")) == (10, 20, 4)
    assert snapshot(game)[0] == alice
    assert seat_of(game, 2).revisions == {"farms": [1, "", 0]}  # no other field of Bruno's was written


def test_save_all_refuses_a_field_another_phone_changed_meanwhile_and_keeps_what_was_typed(client):
    game = game_started("Alice", "Bruno")
    phone_b = loaded(client, game)
    save(client, game, "s1-farms", "10", page="phone-a", seq=1)

    response = client.post(url("pad", game), typed(phone_b, {"s1-farms": "7", "s2-farms": "2"}))

    assert response.status_code == 422
    html = page(response)
    assert "Some values were not saved" in html.one(class_="form-errors").text
    field = labelled(html, "Farms built, Alice")
    assert field["value"] == "7"  # what B typed stays in the input
    assert field["aria-invalid"] == "true"
    assert html.by_id("error-s1-farms").text == (
        "Farms built, Alice: changed on another phone to 10 while you were typing, so yours was not saved. "
        "Save again to replace it."
    )
    assert html.by_id("pad").one("input", name="initial-s1-farms")["value"] == "10"  # now based on A's value
    assert (entry(game, 1, "farms"), entry(game, 2, "farms")) == (10, 2)  # A's value kept, B's other change saved
    assert labelled(html, "Farms built, Bruno")["value"] == "2"

    again = client.post(url("pad", game), form_data(html.by_id("pad")))  # "Save again to replace it."

    assert again.status_code == 302
    assert entry(game, 1, "farms") == 7


def test_save_all_can_clear_a_field_back_to_not_entered(client):
    game = game_scored(player("Alice", farms=3, workers=2, tokens=[2, 1, 0]), player("Bruno"))

    response = client.post(
        url("pad", game),
        typed(
            loaded(client, game),
            {
                "s1-farms": "",
                "s1-active_workers": "",
                "s1-t0": "",
            },
        ),
    )

    assert response.status_code == 302
    assert (entry(game, 1, "farms"), entry(game, 1, "active_workers")) == (None, None)
    assert sorted(HibernationTokens.objects.filter(seat__game=game).values_list("sector__position", "count")) == [
        (1, 1),
        (2, 0),
    ]


def test_a_changed_field_without_its_hidden_initial_is_refused_and_the_others_are_saved(client):
    """A field that does not say what the page showed is never written blind: it could overwrite
    another phone’s value. What was typed stays in it; the fields that did say are saved."""
    game = game_scored(player("Alice", farms=4), player("Bruno"))
    shown = typed(loaded(client, game), {"s1-farms": "9", "s2-farms": "2"})
    del shown["initial-s1-farms"]

    response = client.post(url("pad", game), shown)

    assert response.status_code == 422
    html = page(response)
    assert html.by_id("error-s1-farms").text == f"Farms built, Alice: {NOT_SHOWN}"
    field = labelled(html, "Farms built, Alice")
    assert (field["value"], field["aria-invalid"]) == ("9", "true")
    assert (entry(game, 1, "farms"), entry(game, 2, "farms")) == (4, 2)
    assert list(Change.objects.values_list("field", "new")) == [("farms", "2")]


@pytest.mark.parametrize("initial", ["abc", "1.5"])
def test_an_unreadable_hidden_initial_is_refused_as_a_missing_one(client, initial):
    game = game_scored(player("Alice", farms=4), player("Bruno"))

    response = client.post(
        url("pad", game), {**typed(loaded(client, game), {"s1-farms": "9"}), "initial-s1-farms": initial}
    )

    assert response.status_code == 422
    assert page(response).by_id("error-s1-farms").text == f"Farms built, Alice: {NOT_SHOWN}"
    assert entry(game, 1, "farms") == 4


def test_a_post_without_any_hidden_initial_writes_nothing(client):
    """Not the pad's own form: every field it changes is refused, none written."""
    game = game_started("Alice", "Bruno")
    before = snapshot(game)

    response = client.post(
        url("pad", game),
        {
            "s1-farm_income": "3+6+2",
            "s2-farms": "4",
            "s1-hive_mat_full": "1",
            "s2-t0": "2",
            "s1-active_workers": "3",
            "unknown": "x",
            "s9-farms": "3",
        },
    )

    assert response.status_code == 422
    html = page(response)
    shown = [error["id"] for error in html.find_all("p", class_="field-error") if "hidden" not in error.attrs]
    assert sorted(shown) == [
        "error-s1-active_workers",
        "error-s1-farm_income",
        "error-s1-hive_mat_full",
        "error-s2-farms",
        "error-s2-t0",
    ]
    assert html.by_id("error-s2-farms").text == f"Farms built, Bruno: {NOT_SHOWN}"
    assert snapshot(game) == before
    assert not Change.objects.exists()


# -- stepper buttons without JavaScript ------------------------------------------------------


def press(client: Client, game: Game, data: dict[str, list[str]], name: str, step: str, query: str = ""):
    """A stepper button of the loaded form pressed (its name and value are posted with the form)."""
    return client.post(url("pad", game) + query, {**data, "step": f"{name}:{step}"})


@pytest.mark.parametrize(
    ("name", "start", "step", "key", "expected"),
    [
        pytest.param("s1-farms", 3, "+1", "farms", 4, id="farms-plus"),
        pytest.param("s1-active_workers", None, "-1", "active_workers", None, id="empty-workers-minus-stays-empty"),
    ],
)
def test_pad_stepper_button_without_javascript_steps_the_field_and_returns_to_it(
    client, name, start, step, key, expected
):
    game = game_started("Alice", "Bruno")
    if start is not None:
        save(client, game, name, str(start))

    response = press(client, game, loaded(client, game), name, step)

    assert response.status_code == 302
    assert response["Location"] == url("pad", game) + f"#f-{name}"
    assert entry(game, 1, key) == expected


def test_two_stale_stepper_buttons_from_two_pages_that_saw_1_make_3(client):
    """Without JavaScript too, a stepper steps the stored value: both phones' taps count (not a
    conflict with the value the page showed)."""
    game = game_scored(player("Alice", farms=1), player("Bruno"))
    phone_a, phone_b = loaded(client, game), loaded(client, game)

    first = press(client, game, phone_a, "s1-farms", "+1")
    second = press(client, game, phone_b, "s1-farms", "+1")

    assert (first.status_code, second.status_code) == (302, 302)
    assert entry(game, 1, "farms") == 3


def test_pad_stepper_button_saves_the_other_fields_typed_too(client):
    game = game_started("Alice", "Bruno")

    press(client, game, typed(loaded(client, game), {"s2-farm_income": "7"}), "s1-farms", "+1")

    assert (entry(game, 1, "farms"), entry(game, 2, "farm_income")) == (1, 7)


def test_pad_enter_in_a_field_without_javascript_saves_without_stepping(client):
    """Without JavaScript, Enter in a field submits the form through its first submit button
    (HTML "implicit submission"). That button must be a plain save, not a stepper's "−"."""
    game = game_started("Alice", "Bruno")

    form = page(client.get(url("pad", game))).by_id("pad")

    buttons = [el for el in form.iter() if el.tag == "button" and el.get("type", "submit") == "submit"]
    first = buttons[0]
    assert first.get("name") != "step", f"Enter would press {first.attrs}"


def test_pad_form_post_with_invalid_values_answers_422_keeping_the_typed_text_and_saving_the_rest(client):
    game = game_started("Alice", "Bruno")

    response = client.post(
        url("pad", game),
        typed(
            loaded(client, game),
            {
                "s1-farm_income": "3+6+2",
                "s1-farms": "120",
                "s2-explore_tokens": "abc",
                "s2-t0": "2",
            },
        ),
    )

    assert response.status_code == 422
    html = page(response)
    assert "Some values were not saved" in html.one(class_="form-errors").text
    for name, text, message in [
        ("s1-farms", "120", "Farms built, Alice: the value must be from 0 to 99 (not 120)."),
        (
            "s2-explore_tokens",
            "abc",
            "Explore token bonuses, Bruno: type a whole number, such as 12, or a sum, such as 3+6+2.",
        ),
    ]:
        field = html.one("input", name=name)
        assert field["value"] == text
        assert field["aria-invalid"] == "true"
        assert html.by_id(f"error-{name}").text == message
        assert f"error-{name}" in field["aria-describedby"].split()
    assert (entry(game, 1, "farm_income"), entry(game, 1, "farms"), entry(game, 2, "explore_tokens")) == (
        11,
        None,
        None,
    )
    assert tokens_of(game, 2) == [2, 0, 0]
    assert labelled(html.by_id("totals"), "Total, Alice").text == "12"  # the page shows what was saved


def test_pad_form_post_moves_a_token_from_a_later_sector_to_an_earlier_one(client):
    """Sector 1 is saved before sector 2: its new count fits only once sector 2 has given a token back."""
    game = game_scored(player("Alice", tokens=[0, 7, 0]), player("Bruno"))

    response = client.post(url("pad", game), typed(loaded(client, game), {"s1-t0": "1", "s1-t1": "6"}))

    assert response.status_code == 302
    assert tokens_of(game, 1) == [1, 6, 0]


def test_pad_form_post_refuses_more_than_7_tokens_in_all_and_says_how_many_are_left(client):
    """The counts are saved smallest rise first (lowered ones before them): sector 2's 3 fits, then
    sector 1's 5 does not."""
    game = game_started("Alice", "Bruno")

    response = client.post(url("pad", game), typed(loaded(client, game), {"s1-t0": "5", "s1-t1": "3"}))

    assert response.status_code == 422
    html = page(response)
    assert html.by_id("error-s1-t0").text == (
        "Tokens in sector 1, Alice: Alice owns only 7 hibernation tokens and has 3 in other sectors: at most 4 here."
    )
    assert html.one("input", name="s1-t0")["value"] == "5"
    assert tokens_of(game, 1) == [0, 3, 0]


def test_pad_form_post_of_the_one_player_view_returns_to_that_view(client):
    game = game_started("Alice", "Bruno", "Carla")
    shown = loaded(client, game, "?player=3")
    assert {name.split("-")[0] for name in shown if name.startswith("s")} == {"s3"}

    response = client.post(url("pad", game) + "?player=3", typed(shown, {"s3-farms": "2"}))

    assert response.status_code == 302
    assert response["Location"] == url("pad", game) + "?player=3"
    assert entry(game, 3, "farms") == 2
    assert [seat.revisions for seat in Seat.objects.filter(game=game).order_by("number")] == [
        {},
        {},
        {"farms": [1, "", 0]},
    ]


def test_pad_form_post_without_a_csrf_token_is_refused_with_403(owner):
    game = game_started("Alice", "Bruno")
    strict = strict_client(owner)
    shown = form_data(page(strict.get(url("pad", game))).by_id("pad"))
    del shown["csrfmiddlewaretoken"]

    response = strict.post(url("pad", game), typed(shown, {"s1-farms": "3"}))

    assert response.status_code == 403
    assert entry(game, 1, "farms") is None


def test_pad_form_post_with_the_forms_csrf_token_is_accepted(owner):
    game = game_started("Alice", "Bruno")
    strict = strict_client(owner)
    shown = form_data(page(strict.get(url("pad", game))).by_id("pad"))

    response = strict.post(url("pad", game), typed(shown, {"s1-farms": "3"}))

    assert response.status_code == 302
    assert entry(game, 1, "farms") == 3
