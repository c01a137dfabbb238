"""Specification of share links (``scoring/views/sharing.py``), through Django's test client: the
owner makes and revokes them from the pad, a table-mate opens one, and may then say who they are
for the change history.

Who may do what through a link (every address, every kind of visitor) is
``tests/test_permissions.py``; here, what each of these requests answers and what the pad then
shows.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import GameLink
from tests.factories import game_started
from tests.views.helpers import Element, page, save, url

pytestmark = pytest.mark.django_db


def link_url(game, kind: str, action: str) -> str:
    return reverse("scoring:link", args=[game.public_id, kind, action])


def join_url(link: GameLink) -> str:
    return reverse("scoring:join", args=[link.token])


def share_box(client: Client, game) -> Element:
    return page(client.get(url("pad", game) + "?shared=1")).by_id("share")


def live_link(game, kind: str) -> GameLink:
    return GameLink.objects.get(game=game, access=kind, revoked_at__isnull=True)


# ---------------------------------------------------------------------------------------------
# The owner's links: /games/<id>/links/<kind>/<new|revoke>/


def test_the_owners_pad_offers_to_make_an_edit_link_and_a_view_link(client):
    game = game_started("Alice", "Bruno")

    box = share_box(client, game)

    assert [form["action"] for form in box.find_all("form")] == [
        link_url(game, "edit", "new"), link_url(game, "view", "new"),
    ]
    assert box.find(class_="share-link") is None


def test_making_a_link_returns_to_the_pad_showing_its_address_and_qr_code(client):
    game = game_started("Alice", "Bruno")

    response = client.post(link_url(game, "edit", "new"))

    assert response.status_code == 302
    assert response["Location"] == url("pad", game) + "?shared=1#share"
    box = page(client.get(response["Location"])).by_id("share")
    assert "open" in box.attrs
    (shown,) = box.find_all(class_="share-link")
    address = "http://testserver" + join_url(live_link(game, "edit"))
    assert shown.one("a")["href"] == address and shown.one("a").text == address
    qr = shown.one(class_="qr-wrap")
    assert (qr["role"], qr["aria-label"]) == ("img", "QR code of the edit link")
    assert qr.find("svg") is not None
    assert [form["action"] for form in shown.find_all("form")] == [
        link_url(game, "edit", "revoke"), link_url(game, "edit", "new"),
    ]


def test_a_new_link_replaces_the_one_shown(client):
    game = game_started("Alice", "Bruno")
    client.post(link_url(game, "view", "new"))
    first = live_link(game, "view")

    client.post(link_url(game, "view", "new"))

    second = live_link(game, "view")
    assert second.token != first.token
    (shown,) = share_box(client, game).find_all(class_="share-link")
    assert shown.one("a")["href"].endswith(join_url(second))
    assert Client().get(join_url(first)).status_code == 404


def test_revoking_a_link_takes_it_off_the_pad_and_offers_to_make_one_again(client):
    game = game_started("Alice", "Bruno")
    client.post(link_url(game, "edit", "new"))
    link = live_link(game, "edit")

    response = client.post(link_url(game, "edit", "revoke"))

    assert response.status_code == 302
    assert response["Location"] == url("pad", game) + "?shared=1#share"
    box = share_box(client, game)
    assert box.find(class_="share-link") is None
    assert link_url(game, "edit", "new") in [form["action"] for form in box.find_all("form")]
    assert Client().get(join_url(link)).status_code == 404


def test_the_link_actions_take_a_post_only(client):
    game = game_started("Alice", "Bruno")

    assert client.get(link_url(game, "edit", "new")).status_code == 405
    assert not GameLink.objects.exists()


# ---------------------------------------------------------------------------------------------
# Opening a link: /join/<token>/


def test_opening_a_link_takes_its_holder_to_the_games_pad(client):
    game = game_started("Alice", "Bruno")
    client.post(link_url(game, "edit", "new"))
    phone = Client()

    response = phone.get(join_url(live_link(game, "edit")))

    assert response.status_code == 302
    assert response["Location"] == url("pad", game)
    assert phone.get(response["Location"]).status_code == 200


# ---------------------------------------------------------------------------------------------
# A link's holder says who they are: /games/<id>/name/


def test_an_edit_links_holder_names_themselves_and_their_changes_carry_that_name(client):
    game = game_started("Alice", "Bruno")
    client.post(link_url(game, "edit", "new"))
    phone = Client()
    phone.get(join_url(live_link(game, "edit")))
    form = page(phone.get(url("pad", game))).by_id("changes-box").one("form", class_="who")
    assert form["action"] == url("name", game)

    response = phone.post(url("name", game), {"name": "  Bruno's phone  "})

    assert response.status_code == 302
    assert response["Location"] == url("pad", game) + "#changes-box"
    assert save(phone, game, "s2-farms", "3", page="b", seq=1).status_code == 200
    html = page(phone.get(url("pad", game)))
    assert html.one("input", name="name")["value"] == "Bruno's phone"
    assert html.by_id("changes").one(class_="change-when").text.endswith("by Bruno's phone (edit link)")


def test_the_owner_is_not_asked_for_a_name(client):
    """Their changes carry their account's name."""
    game = game_started("Alice", "Bruno")

    assert page(client.get(url("pad", game))).by_id("changes-box").find("form", class_="who") is None
