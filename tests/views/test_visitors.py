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

import json

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client, RequestFactory
from django.urls import reverse

from scoring import access
from scoring.actors import SESSION_VISITOR, Actor
from scoring.models import CombLayout, Game, Player
from scoring.services.games import PlayerSetup, comb_layout_save, game_create
from scoring.services.sharing import link_renew, link_revoke
from scoring.services.visitors import visitor_games_claim
from scoring.views import games as games_views
from tests.support.factories import PASSWORD, game_started, save_value, seat_of, user
from tests.support.pages import form_data, page, save, started_on, typed, url

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-long-pass-phrase-of-the-visitor"


@pytest.fixture
def visitor() -> Client:
    """A browser without an account."""
    return Client()


def sign_up(phone: Client, username: str = "vera") -> object:
    return phone.post(reverse("signup"), {"username": username, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})


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
    layout = comb_layout_save(name="Other table", sectors=[(9, 4)], visitor="x" * 32)
    started_on(Client(), "Zelda", sectors=((3, 1),), layout_name="Zelda's comb")

    shown = visitor.get(url("start"))
    html = page(shown)
    posted = visitor.post(
        url("start"),
        {**form_data(html.one("form", class_="start-form")), "player-0-name": "Maya", "layout": str(layout.pk)},
    )

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
    edit = link_renew(game=game, access="edit")
    save_value(seat=seat_of(game, 1), key="farms", value=4, by=Actor())  # as the visitor's pad saves it
    save_value(seat=seat_of(game, 2), key="farms", value=2, by=Actor(link=edit, name="Tom"))

    shown = [item.text for item in page(visitor.get(url("pad", game))).find_all(class_="change-when")]

    assert [text.split(", by ")[-1] for text in shown] == ["Tom (edit link)", "the owner"]


def test_a_game_the_visitor_finished_stays_finished_by_the_owner_once_its_account_keeps_it(visitor):
    """Issue 37: the finished note and the history say "by the owner", before and after the
    sign-up, never "by someone"."""
    game = started_on(visitor, "Maya", "Tom")
    visitor.post(url("finish", game), {"confirm": "1"})
    finished = page(visitor.get(url("pad", game)))
    assert finished.by_id("finished-note").text.startswith("Finished by the owner at ")

    sign_up(visitor)

    html = page(visitor.get(url("pad", game)))
    assert html.by_id("finished-note").text.startswith("Finished by the owner at ")
    assert [item.text for item in html.find_all(class_="change-when")] == ["just now, by the owner"]


def test_a_visitor_names_themselves_once_for_the_table_and_every_game_of_the_browser_says_it(visitor):
    """Issue 49: the owner without an account is "the owner" to the table until they say their
    name, in Score together; the browser keeps it for its next games, and the sign-up offers it
    as the account's name."""
    game = started_on(visitor, "Maya", "Tom")
    visitor.post(reverse("scoring:link", args=[game.public_id, "edit", "new"]))
    form = page(visitor.get(url("pad", game) + "?shared=1")).by_id("share").one("form", class_="who")
    assert form.one("input", name="name").get("value", "") == ""

    visitor.post(form["action"], {"name": "Maya"})
    save(visitor, game, "s1-farms", "4", page="maya", seq=1)
    visitor.post(url("finish", game), {"confirm": "1"})

    html = page(visitor.get(url("pad", game)))
    assert html.by_id("finished-note").text.startswith("Finished by Maya at ")
    assert [item.text.split(", by ")[-1] for item in html.find_all(class_="change-when")] == ["Maya", "Maya"]
    following = started_on(visitor, "Maya", "Ines")
    visitor.post(reverse("scoring:link", args=[following.public_id, "edit", "new"]))
    shared = page(visitor.get(url("pad", following) + "?shared=1")).by_id("share")
    assert shared.one("input", name="name")["value"] == "Maya"  # (said once, changeable)
    assert page(visitor.get(reverse("signup"))).one("input", name="first_name")["value"] == "Maya"


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


def test_signing_up_from_a_pad_says_it_keeps_the_games_and_comes_back_to_the_pad(visitor):
    """Issue 49, point 7: "Sign up and start a game" on a page with a game in progress started
    none. From the pad, the nav's *Sign up* says what it does and comes back to that pad."""
    game = started_on(visitor, "Maya", "Tom")
    pad = page(visitor.get(url("pad", game)))
    (address,) = [a["href"] for a in pad.one("nav", class_="site-nav").find_all("a") if a.text == "Sign up"]
    assert address == reverse("signup") + "?next=" + url("pad", game)
    form = page(visitor.get(address)).one("form", action=reverse("signup"))
    assert form.one("input", name="next")["value"] == url("pad", game)
    assert form.one("button", type="submit").text == "Sign up and keep these games"

    response = visitor.post(
        reverse("signup"),
        {"username": "vera", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "next": url("pad", game)},
    )

    assert response.status_code == 302 and response["Location"] == url("pad", game)
    assert Game.objects.get(pk=game.pk).owner == User.objects.get(username="vera")


def test_signing_in_from_the_browser_keeps_its_games_with_the_accounts_players(visitor):
    ann = user("ann")
    game_create(players=[PlayerSetup("Maya")], sectors=[], owner=ann)
    game = started_on(visitor, "maya", "Tom")
    assert (
        "The game started in this browser will be kept in the account you sign in to."
        in page(visitor.get(reverse("login"))).text
    )

    response = visitor.post(reverse("login"), {"username": "ann", "password": PASSWORD})

    assert response.status_code == 302 and response["Location"] == url("history")
    game.refresh_from_db()
    assert (game.owner, game.visitor) == (ann, None)
    assert [seat.player.name for seat in game.seats.order_by("number")] == ["Maya", "Tom"]  # maya is Maya
    assert url("pad", game) in history(visitor)


def test_a_table_mate_who_makes_an_account_finds_the_games_it_joined_in_its_history(visitor):
    """Issue 36, point 12: a table-mate scored through the link on this phone, then makes an
    account on it: the games it joined come with the account, as those it started do; a revoked
    link's game does not."""
    joined, revoked = game_started("Ann", "Vera", owner=user("ann")), game_started("Ann", owner=user("ann"))
    for game in (joined, revoked):
        link = link_renew(game=game, access="edit")
        assert visitor.get(reverse("scoring:join", args=[link.token])).status_code == 302
    link_revoke(game=revoked, access="edit")
    assert "The game you joined in this browser will be in your new account’s history." in (
        page(visitor.get(reverse("signup"))).text
    )

    response = sign_up(visitor)

    assert response["Location"] == url("history")
    assert history(visitor) == [url("pad", joined)]


def test_a_group_without_accounts_downloads_its_games_from_its_history(visitor):
    game = started_on(visitor, "Maya", "Tom")
    save_value(seat=seat_of(game, 1), key="farms", value=3)
    started_on(Client(), "Zelda")  # another browser's game: never in this one's file

    shown = page(visitor.get("/"))
    downloads = {a.text: a["href"] for a in shown.find_all("a") if "download" in a.attrs}
    document = json.loads(visitor.get(downloads["Download your games"]).content)
    spreadsheet = visitor.get(downloads["As a spreadsheet"]).content.decode("utf-8-sig").splitlines()

    assert [[p["name"] for p in g["players"]] for g in document["games"]] == [["Maya", "Tom"]]
    assert document["games"][0]["players"][0]["end"]["farms"] == 3
    assert [row.split(",")[4] for row in spreadsheet[1:]] == ["Maya", "Tom"]


def test_a_new_account_without_games_from_the_browser_goes_on_to_the_start_form(visitor):
    visitor.get("/")

    response = sign_up(visitor)

    assert response["Location"] == url("start")


# ---------------------------------------------------------------------------------------------
# Signing in while a game is being started on another page of the same browser: the game is the
# account's, or not stored, and the browser stays signed in. The sign-in is made to happen after
# the start has read its session and checked its form, just before the start stores the game
# (``access.game_start_for_keeper``), from a second page of the browser: another test client
# carrying the same session cookie.


def start_post(phone: Client, *names: str) -> dict[str, list[str]]:
    shown = form_data(page(phone.get(url("start"))).one("form", class_="start-form"))
    return typed(shown, {f"player-{position}-name": name for position, name in enumerate(names)})


def other_page_of(phone: Client) -> Client:
    """Another page (tab) of the same browser: the same cookies."""
    tab = Client()
    tab.cookies = phone.cookies
    return tab


def signing_in_meanwhile(monkeypatch, tab: Client, *, claim_only: bool = False) -> None:
    """Make ``tab`` sign in as ann just before the start stores its game: wholly (``claim_only``
    False) or up to the account keeping the browser's games, its session not yet given a new
    key (``login`` about to run)."""
    original = games_views.game_start_for_keeper

    def after_a_sign_in(request, start):
        if claim_only:
            signing_in = RequestFactory().post(reverse("login"))
            signing_in.session = SessionStore(session_key=request.session.session_key)
            access.browser_games_claim(signing_in, user("ann"), claim=visitor_games_claim)
        else:
            assert tab.post(reverse("login"), {"username": "ann", "password": PASSWORD}).status_code == 302
        return original(request, start)

    monkeypatch.setattr(games_views, "game_start_for_keeper", after_a_sign_in)


def test_a_game_started_as_the_browser_signs_in_on_another_page_is_not_stored_and_the_browser_stays_signed_in(
    visitor, monkeypatch
):
    ann = user("ann")
    kept = started_on(visitor, "Maya")  # the browser has a visitor id, and a game
    retired = visitor.session[SESSION_VISITOR]
    data = start_post(visitor, "Tom", "Zoe")
    tab = other_page_of(visitor)
    signing_in_meanwhile(monkeypatch, tab)

    response = visitor.post(url("start"), data)

    assert response.status_code == 409
    shown = page(response)
    assert shown.one(class_="form-errors").text == (
        "You signed in or out on another page while this game was being started, so it was not started. "
        "Check the form and start the game again."
    )
    assert shown.one("input", name="player-0-name")["value"] == "Tom"  # what was typed, kept
    assert not Game.objects.filter(seats__name="Tom").exists()
    assert not Game.objects.filter(visitor=retired).exists()  # nothing left under the retired id
    assert Game.objects.get(pk=kept.pk).owner == ann  # the browser's first game, kept by the sign-in
    assert settings.SESSION_COOKIE_NAME not in response.cookies  # the start sent no cookie back
    assert tab.get("/").wsgi_request.user == ann  # the browser is still signed in


def test_a_game_started_as_the_sign_in_keeps_the_browsers_games_is_the_accounts(visitor, monkeypatch):
    ann = user("ann")
    started_on(visitor, "Maya")
    data = start_post(visitor, "Tom", "Zoe")
    signing_in_meanwhile(monkeypatch, other_page_of(visitor), claim_only=True)

    response = visitor.post(url("start"), data)

    assert response.status_code == 302
    game = Game.objects.get(public_id=response["Location"].strip("/").split("/")[-1])
    assert (game.owner, game.visitor) == (ann, None)
    assert not Game.objects.filter(owner=None).exists()  # every game of the browser is the account's


def test_a_game_started_just_before_the_sign_in_is_kept_by_it(visitor):
    """The start's session, written in the game's transaction, is what the sign-in reads."""
    ann = user("ann")
    game = started_on(visitor, "Tom")
    tab = other_page_of(visitor)

    assert tab.post(reverse("login"), {"username": "ann", "password": PASSWORD}).status_code == 302

    game.refresh_from_db()
    assert (game.owner, game.visitor) == (ann, None)


def test_a_returning_visitors_start_writes_its_session_once_and_sends_no_cookie(visitor):
    """The visitor id kept, its year renewed only once half of it has gone: a later start writes
    nothing when its answer leaves, so a sign-in on another page in between ends nothing."""
    started_on(visitor, "Maya")
    response = visitor.post(url("start"), start_post(visitor, "Tom"))
    assert response.status_code == 302
    assert settings.SESSION_COOKIE_NAME not in response.cookies
    session = SessionStore(session_key=visitor.cookies[settings.SESSION_COOKIE_NAME].value)
    assert session[SESSION_VISITOR] == Game.objects.get(seats__name="Tom").visitor
