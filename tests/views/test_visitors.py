"""Scoring without an account (issue 19, item 3), through Django's test client, no JavaScript.

A visitor (a browser without an account) starts a game from the home page at once: the game is
that browser's (its session's visitor id, ``scoring/access.py``) and its browser has the owner's
rights on it: the pad, sharing and the QR code, finishing, deleting, the history on that phone.
Making an account, or signing in, from that browser gives the account every game the browser
started. Who else may reach a visitor's game is ``tests/test_permissions.py``; what the pages of
one keeper show of another's, ``tests/views/test_privacy.py``; the claim itself (players,
tallies), ``tests/services/test_visitors.py``.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.access import SESSION_VISITOR, Actor
from scoring.models import CombLayout, Game, Player
from tests.factories import PASSWORD, save_value, seat_of, user
from tests.views.helpers import form_data, page, started_on, url

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-long-pass-phrase-of-the-visitor"


@pytest.fixture
def visitor() -> Client:
    """A browser without an account."""
    return Client()


def sign_up(phone: Client, username: str = "vera") -> object:
    return phone.post(reverse("signup"), {"username": username, "password1": NEW_PASSWORD,
                                          "password2": NEW_PASSWORD})


def history(phone: Client) -> list[str]:
    """The games the home page lists, newest first: the address each opens (pad or results)."""
    return [link["href"] for link in page(phone.get("/")).find_all("a", class_="history-link")]


# ---------------------------------------------------------------------------------------------
# The first game, at once


def test_the_home_page_of_a_newcomer_is_the_start_form_and_its_first_game_is_the_browsers(visitor):
    home = page(visitor.get("/"))
    assert home.one("form", class_="start-form")["action"] == url("start")
    assert home.one(class_="keep-note").one("a")["href"] == reverse("signup")  # optional, said plainly

    game = started_on(visitor, "Maya", "Tom")

    assert game.owner is None and game.visitor == visitor.session[SESSION_VISITOR]
    assert len(game.visitor) == 32  # 192 random bits
    assert visitor.get(url("pad", game)).status_code == 200
    assert not Player.objects.exists()  # players across games are an account's: none yet


def test_reading_the_home_page_makes_no_session(visitor):
    """A visitor who only looks starts nothing: no session, no visitor id, until a game."""
    visitor.get("/")
    visitor.get(url("start"))

    assert settings.SESSION_COOKIE_NAME not in visitor.cookies


def test_a_visitors_games_are_its_history_on_that_phone_without_the_accounts_pages(visitor):
    first = started_on(visitor, "Maya", "Tom")
    second = started_on(visitor, "Ines", "Tom")

    html = page(visitor.get("/"))

    assert history(visitor) == [url("pad", second), url("pad", first)]
    assert "Ines" in html.text and "Maya" in html.text
    assert html.one(class_="keep-note").one("a")["href"] == reverse("signup")
    assert html.find("a", href=url("statistics")) is None and html.find("a", href=url("data")) is None
    assert html.find("a", href=url("start")) is not None


def test_the_browsers_games_stay_on_the_browser_even_when_it_starts_more(visitor):
    """One visitor id for every game of a browser; its session lasts a year from the latest game."""
    first = started_on(visitor, "Maya")
    second = started_on(visitor, "Tom")

    assert first.visitor == second.visitor
    assert visitor.session.get_expiry_age() == settings.VISITOR_SESSION_AGE


def test_a_returning_visitor_gets_its_layout_and_its_players_names(visitor):
    started_on(visitor, "Maya", "Tom", sectors=((9, 4), (13, 0)), layout_name="Kitchen table")

    html = page(visitor.get(url("start")))

    assert html.one("select", name="layout").one("option", selected=True).text == "Kitchen table"
    assert [html.one("input", name=f"sector-{n}-first").get("value") for n in range(3)] == ["9", "13", None]
    assert sorted(option["value"] for option in html.by_id("known-names").find_all("option")) == ["Maya", "Tom"]
    assert CombLayout.objects.get().visitor == visitor.session[SESSION_VISITOR]
    # ... and the next game takes that comb without a tap on it.
    game = started_on(visitor, "Maya", "Tom")
    assert [(sector.first_vp, sector.second_vp) for sector in game.sectors.all()] == [(9, 4), (13, 0)]


def test_another_browser_neither_sees_nor_uses_a_visitors_layout_and_names(visitor):
    layout = services.comb_layout_save(name="Other table", sectors=[(9, 4)], visitor="x" * 32)
    started_on(Client(), "Zelda", sectors=((3, 1),), layout_name="Zelda's comb")

    shown = visitor.get(url("start"))
    html = page(shown)
    posted = visitor.post(url("start"), {**form_data(html.one("form", class_="start-form")),
                                         "player-0-name": "Maya", "layout": str(layout.pk)})

    assert "Zelda" not in shown.content.decode() and "Other table" not in shown.content.decode()
    assert html.find("select", name="layout") is None
    assert posted.status_code == 422 and not Game.objects.filter(seats__name="Maya").exists()


# ---------------------------------------------------------------------------------------------
# The owner's rights, from the browser that started the game


def test_the_visitor_shares_its_game_with_a_link_and_its_qr_code(visitor):
    game = started_on(visitor, "Maya", "Tom")

    assert visitor.post(reverse("scoring:link", args=[game.public_id, "edit", "new"])).status_code == 302
    shared = visitor.get(url("pad", game) + "?shared=1")

    link = game.links.get()
    assert f"http://testserver{reverse('scoring:join', args=[link.token])}" in shared.content.decode()
    assert page(shared).find("svg") is not None  # the QR code, drawn on the page
    joined = Client()
    assert joined.get(reverse("scoring:join", args=[link.token])).status_code == 302
    assert joined.get(url("pad", game)).status_code == 200


def test_the_visitor_finishes_and_deletes_its_game(visitor):
    game = started_on(visitor, "Maya", "Tom")

    finished = visitor.post(url("finish", game), {"confirm": "1"})
    assert finished.status_code == 302 and finished["Location"] == url("results", game)
    assert visitor.get(url("results", game)).status_code == 200
    assert visitor.post(url("delete", game)).status_code == 302

    assert not Game.objects.exists()


def test_the_visitors_own_changes_are_the_owners_in_the_pads_history_and_a_link_holders_theirs(visitor):
    game = started_on(visitor, "Maya", "Tom")
    edit = services.link_renew(game=game, access="edit")
    save_value(seat=seat_of(game, 1), key="farms", value=4, by=Actor())  # as the visitor's pad saves it
    save_value(seat=seat_of(game, 2), key="farms", value=2, by=Actor(link=edit, name="Tom"))

    shown = [item.text for item in page(visitor.get(url("pad", game))).find_all(class_="change-when")]

    assert [text.split(", by ")[-1] for text in shown] == ["Tom (edit link)", "the owner"]


# ---------------------------------------------------------------------------------------------
# The account that keeps them


def test_signing_up_from_the_browser_keeps_every_game_it_started(visitor):
    games = [started_on(visitor, "Maya", "Tom"), started_on(visitor, "Ines")]
    other = started_on(Client(), "Zelda")  # another browser's: stays its own
    form = page(visitor.get(reverse("signup")))
    assert "The 2 games started in this browser will be kept in your new account." in form.text

    response = sign_up(visitor)

    vera = User.objects.get(username="vera")
    assert response.status_code == 302 and response["Location"] == url("history")
    assert list(Game.objects.filter(owner=vera).order_by("pk")) == games
    assert Game.objects.filter(visitor__isnull=False).get() == other
    assert history(visitor) == [url("pad", games[1]), url("pad", games[0])]
    assert SESSION_VISITOR not in visitor.session  # the account keeps them now, on every device
    assert visitor.session.get_expiry_age() == settings.SESSION_COOKIE_AGE
    assert visitor.get(url("pad", games[0])).status_code == 200


def test_signing_in_from_the_browser_keeps_its_games_with_the_accounts_players(visitor):
    ann = user("ann")
    services.game_create(players=[services.PlayerSetup("Maya")], sectors=[], owner=ann)
    game = started_on(visitor, "maya", "Tom")
    assert "The game started in this browser will be kept in the account you sign in to." in page(
        visitor.get(reverse("login"))).text

    response = visitor.post(reverse("login"), {"username": "ann", "password": PASSWORD})

    assert response.status_code == 302 and response["Location"] == url("history")
    game.refresh_from_db()
    assert (game.owner, game.visitor) == (ann, None)
    assert [seat.player.name for seat in game.seats.order_by("number")] == ["Maya", "Tom"]  # maya is Maya
    assert url("pad", game) in history(visitor)


def test_a_new_account_without_games_from_the_browser_goes_on_to_the_start_form(visitor):
    visitor.get("/")

    response = sign_up(visitor)

    assert response["Location"] == url("start")
