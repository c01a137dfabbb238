"""Specification of undo from the pad (``/games/<id>/changes/<change>/undo/``; what undo puts
back, and who: ``tests/test_history.py``)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Change, Game
from tests.support.factories import (
    game_started,
    save_value,
    seat_of,
)
from tests.support.pages import (
    HTMX,
    entry,
    labelled,
    page,
    save,
    snapshot,
    top_level,
    url,
)
from tests.views.pad_cases import OOB_IDS

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# Undo: /games/<id>/changes/<change>/undo/ (what undo puts back, and who: tests/test_history.py)


def latest_change() -> Change:
    return Change.objects.order_by("-pk").first()


def undo(client: Client, game: Game, change: Change, headers: dict | None = None):
    return client.post(reverse("scoring:undo", args=[game.public_id, change.pk]), headers=headers or {})


def test_the_pad_offers_to_undo_each_recent_change(client):
    game = game_started("Alice", "Bruno")
    change = save_value(seat=seat_of(game, 2), key="recruits", value=3).change

    html = page(client.get(url("pad", game)))

    form = html.by_id("changes").one("form", data_undo=True)
    assert form["action"] == reverse("scoring:undo", args=[game.public_id, change.pk])
    assert form.one("button")["aria-label"].startswith("Undo: ")


def test_undo_without_javascript_puts_the_value_back_and_returns_to_the_changes(client):
    game = game_started("Alice", "Bruno")
    save(client, game, "s2-recruits", "3", page="a", seq=1)
    mistake = latest_change()
    save(client, game, "s2-farms", "2", page="a", seq=2)  # another field: the recruits' change is still the latest

    response = undo(client, game, mistake)

    assert response.status_code == 302
    assert response["Location"] == url("pad", game) + "#changes"
    assert (entry(game, 2, "recruits"), entry(game, 2, "farms")) == (None, 2)
    assert latest_change().undoes == mistake


def test_undo_with_htmx_answers_as_a_poll_with_the_recent_changes_does(client):
    """Every value, then out of band every figure and the recent changes: nothing of it lands on
    the list the undo was tapped in, which a poll may have swapped away meanwhile."""
    game = game_started("Alice", "Bruno")
    save(client, game, "s2-recruits", "3", page="a", seq=1)

    response = undo(client, game, latest_change(), HTMX)

    assert response.status_code == 200
    values, *oob = top_level(page(response))
    assert values["id"] == "live-values"
    assert [part["id"] for part in oob] == [*OOB_IDS, "finished-note", "changes", "undo-message"]
    assert page(response).by_id("undo-message").find(class_="field-error") is None
    assert labelled(page(response).by_id("totals"), "Total, Bruno").text == "2"
    assert entry(game, 2, "recruits") is None


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_undo_of_a_change_the_field_moved_on_from_is_a_409_that_says_why_even_when_the_value_came_back(client, headers):
    """Phone A set Bruno's recruits to 3; phone B then set 5, and phone C 3 again. A's change is no
    longer the field's latest: undoing it would overwrite C's 3, though it is the same value."""
    game = game_started("Alice", "Bruno")
    save(client, game, "s2-recruits", "3", page="phone-a", seq=1)
    mine = latest_change()
    save(client, game, "s2-recruits", "5", page="phone-b", seq=1)
    save(client, game, "s2-recruits", "3", page="phone-c", seq=1)
    before, changes = snapshot(game), Change.objects.count()

    response = undo(client, game, mine, headers)

    assert response.status_code == 409
    message = page(response).by_id("undo-message").one("p", class_="field-error")
    assert message["role"] == "alert"
    assert message.text == (
        "Recruits built, Bruno: changed again since, to 3. Undoing would overwrite that, so nothing was changed."
    )
    assert entry(game, 2, "recruits") == 3
    assert (snapshot(game), Change.objects.count()) == (before, changes)
