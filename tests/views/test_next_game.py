"""Specification of following a table to its next game (``scoring/views/sharing.py``,
``next_game_follow``), through Django's test client: once the owner starts the next game with
*Play again*, the pads, the table view and the results of the game just played offer it (*Go to
the next game*, a plain form), and one tap takes each phone there as it was: an edit link's holder
on the same player’s sheet in their new seat, a view link's holder watching, the table view to the
next game's table view.

What starting the next game stores is ``tests/services/test_games.py``; the four phones of a
table, in real browsers, ``tests/browser/test_table_edges.py``.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game, GameLink, GameMember
from scoring.selectors.games import game_played_next
from scoring.services.sharing import link_renew, link_revoke
from tests.support.factories import game_scored, player, user
from tests.support.pages import HTMX, Element, form_data, page, save, top_level, url

pytestmark = pytest.mark.django_db


def the_table(*names: str) -> Game:
    """A finished game of the owner's, shared by an edit link and a view link."""
    game = game_scored(*(player(name, farm_income=10 + position) for position, name in enumerate(names)), finished=True)
    link_renew(game=game, access="edit")
    link_renew(game=game, access="view")
    return game


def holder(game: Game, access: str, seat: str | None = None, phone: Client | None = None) -> Client:
    """A phone that opened the game's link of that access (and, for an edit link, said which
    player it is: a seat number, or "everyone")."""
    phone = phone or Client()
    link = GameLink.objects.get(game=game, access=access, revoked_at__isnull=True)
    assert phone.post(reverse("scoring:join", args=[link.token])).status_code == 302
    if seat is not None:
        assert phone.post(url("who", game), {"seat": seat}).status_code == 302
    return phone


def next_game_started(owner: Client, game: Game) -> Game:
    """The owner taps *Play again* on the results and starts the game the form shows."""
    shown = page(owner.get(url("again", game))).one("form", class_="start-form")
    response = owner.post(url("start"), form_data(shown))
    assert response.status_code == 302
    return Game.objects.get(public_id=response["Location"].strip("/").split("/")[-1])


def offer(html: Element) -> Element | None:
    return html.find("form", class_="next-game")


def test_no_next_game_no_offer_on_the_pad_the_table_view_or_the_results(client):
    game = the_table("Alice", "Bruno")
    phone = holder(game, "edit", "2")

    for address in (url("pad", game) + "?player=2", url("table", game), url("results", game)):
        assert offer(page(phone.get(address))) is None


def test_once_the_owner_starts_the_next_game_every_page_of_the_game_played_offers_it(client):
    game = the_table("Alice", "Bruno")
    phone = holder(game, "edit", "2")

    next_game_started(client, game)

    pad = offer(page(phone.get(url("pad", game) + "?player=2")))
    assert pad is not None and (pad["method"], pad["action"]) == ("post", url("next", game) + "?player=2")
    assert pad.parent is not None and pad.text.startswith("The next game of this table has started.")
    assert pad.one("button").text == "Go to the next game"
    assert pad.one("input", name="csrfmiddlewaretoken") is not None
    assert page(phone.get(url("pad", game) + "?player=2")).by_id("finished-note").find("form", class_="next-game")
    table = offer(page(phone.get(url("table", game))))
    assert table is not None and table.one("input", name="to")["value"] == "table"
    results = offer(page(phone.get(url("results", game))))
    assert results is not None and results["action"] == url("next", game)


def test_the_poll_of_a_finished_game_brings_the_offer_made_for_each_phone(client):
    """A finished game's poll answer holds the phone's own CSRF token: made for each phone, never
    one phone's answer kept for the others (an open game's polls share one answer)."""
    game = the_table("Alice", "Bruno")
    phones = [holder(game, "edit", "1"), holder(game, "edit", "1")]
    next_game_started(client, game)

    answers = [phone.get(url("live", game) + "?player=1") for phone in phones]

    tokens = [
        page(answer).one("form", class_="next-game").one("input", name="csrfmiddlewaretoken") for answer in answers
    ]
    assert [answer.status_code for answer in answers] == [200, 200]
    assert tokens[0]["value"] != tokens[1]["value"]
    for phone, token in zip(phones, tokens, strict=True):  # each phone's own token lets it follow
        phone.enforce_csrf_checks = True  # (the test client skips the check otherwise)
        follow = phone.post(url("next", game) + "?player=1", {"csrfmiddlewaretoken": token["value"]})
        assert follow.status_code == 302


def test_the_results_poll_is_a_304_until_the_next_game_starts_then_brings_its_offer(client):
    """Issue 49, point 1: a phone left on the results heard of *Play again* only after a reload.
    They poll (htmx) as the table view does: the same revision, a 304 with no body; the next game
    moves the game's revision on, and the poll brings the results with the offer, made for the
    phone (its CSRF token)."""
    game = the_table("Alice", "Bruno")
    phone = holder(game, "edit", "2")
    first = phone.get(url("results", game), headers=HTMX)
    assert first.status_code == 200 and first["ETag"]
    assert top_level(page(first))[0]["id"] == "results" and offer(page(first)) is None
    assert phone.get(url("results", game), headers={**HTMX, "If-None-Match": first["ETag"]}).status_code == 304

    next_game_started(client, game)
    after = phone.get(url("results", game), headers={**HTMX, "If-None-Match": first["ETag"]})

    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    brought = offer(page(after))
    assert brought is not None and brought.one("input", name="csrfmiddlewaretoken")["value"]
    assert brought.one("button").text == "Go to the next game"


def test_the_results_say_the_etag_of_what_they_show_their_first_poll_a_304_until_the_next_game(client):
    """Issue 51: the first poll brought the whole results again, parsed and swapped as a slow
    phone opened them (Lighthouse's blocking time). The page says the ETag of what it shows
    (follow.js sends it)."""
    game = the_table("Alice", "Bruno")
    phone = holder(game, "edit", "2")
    shown = page(phone.get(url("results", game))).by_id("results")["data-poll-etag"]

    assert phone.get(url("results", game), headers={**HTMX, "If-None-Match": shown}).status_code == 304
    next_game_started(client, game)
    assert phone.get(url("results", game), headers={**HTMX, "If-None-Match": shown}).status_code == 200


def test_the_results_page_itself_is_never_a_304(client):
    """The page holds who is signed in: only its poll (htmx's) is answered by the revision."""
    game = the_table("Alice", "Bruno")
    page_itself = client.get(url("results", game))

    assert client.get(url("results", game), headers={"If-None-Match": page_itself.get("ETag", "*")}).status_code == 200


def test_an_edit_links_holder_follows_as_the_same_player_in_their_new_seat(client):
    """Bruno sat second; the next game moves everyone on one seat: he plays first, and his phone
    opens his sheet there, remembered (the link opened again goes straight to it), his changes
    his as before."""
    game = the_table("Alice", "Bruno", "Carla")
    phone = holder(game, "edit", "2")
    upcoming = next_game_started(client, game)

    response = phone.post(url("next", game) + "?player=2")

    assert response.status_code == 302 and response["Location"] == url("pad", upcoming) + "?player=1"
    link = GameLink.objects.get(game=upcoming, access="edit", revoked_at__isnull=True)
    assert phone.get(reverse("scoring:join", args=[link.token]))["Location"] == url("pad", upcoming) + "?player=1"
    assert save(phone, upcoming, "s1-farms", "4", page="n", seq=1).status_code == 200


def test_the_player_said_counts_when_the_phone_was_on_everyones_sheets(client):
    game = the_table("Alice", "Bruno", "Carla")
    phone = holder(game, "edit", "3")
    upcoming = next_game_started(client, game)

    assert phone.post(url("next", game))["Location"] == url("pad", upcoming) + "?player=2"


def test_a_holder_on_everyones_sheets_follows_on_everyones_sheets(client):
    game = the_table("Alice", "Bruno")
    phone = holder(game, "edit", "everyone")
    upcoming = next_game_started(client, game)

    assert phone.post(url("next", game))["Location"] == url("pad", upcoming)


def test_a_player_who_left_the_table_is_asked_which_player_they_are(client):
    game = the_table("Alice", "Bruno", "Carla")
    phone = holder(game, "edit", "3")
    shown = page(client.get(url("again", game))).one("form", class_="start-form")
    data = form_data(shown)
    data["player-1-name"] = ["Dora"]  # Carla leaves; Dora sits down
    upcoming = Game.objects.get(public_id=client.post(url("start"), data)["Location"].strip("/").split("/")[-1])

    assert phone.post(url("next", game))["Location"] == url("who", upcoming)


def test_a_view_links_holder_follows_as_a_viewer_and_the_table_view_to_the_next_table_view(client):
    game = the_table("Alice", "Bruno")
    watcher = holder(game, "view")
    upcoming = next_game_started(client, game)

    assert watcher.post(url("next", game))["Location"] == url("pad", upcoming)
    assert watcher.post(url("next", game), {"to": "table"})["Location"] == url("table", upcoming)
    assert watcher.get(url("pad", upcoming)).status_code == 200
    assert save(watcher, upcoming, "s1-farms", "4", page="w", seq=1).status_code == 403  # watching only


def test_the_owner_follows_to_their_own_next_game(client):
    game = the_table("Alice", "Bruno")
    upcoming = next_game_started(client, game)

    assert client.post(url("next", game) + "?player=1")["Location"] == url("pad", upcoming) + "?player=2"


def test_a_signed_in_holder_joins_the_next_game_by_the_tap_and_finds_it_in_their_history(client):
    game = the_table("Alice", "Bruno")
    bruno = Client()
    bruno.force_login(user("bruno"))
    holder(game, "edit", "2", phone=bruno)
    upcoming = next_game_started(client, game)

    bruno.post(url("next", game))

    assert GameMember.objects.filter(game=upcoming, user=user("bruno")).exists()
    assert upcoming.public_id in bruno.get(url("history")).content.decode()


def test_a_next_game_the_owner_stopped_sharing_is_refused_with_what_to_do(client):
    game = the_table("Alice", "Bruno")
    phone = holder(game, "edit", "1")
    upcoming = next_game_started(client, game)
    link_revoke(game=upcoming, access="edit")
    link_revoke(game=upcoming, access="view")

    response = phone.post(url("next", game))

    assert response.status_code == 403
    assert NOT_SHARED in response.content.decode()
    assert phone.get(url("pad", upcoming)).status_code == 404


NOT_SHARED = (
    "The owner has not shared the next game with the link you hold, or has made a new link for it since: "
    "ask them for its link or QR code."
)


@pytest.mark.parametrize("change", ["new", "revoke"])
def test_a_link_of_the_next_game_renewed_or_revoked_shuts_out_who_followed_through_it(client, change):
    """Issue 47: following again used to hand out whatever link the next game had live now."""
    game = the_table("Alice", "Bruno")
    scorer, watcher = holder(game, "edit", "2"), holder(game, "view")
    upcoming = next_game_started(client, game)
    assert scorer.post(url("next", game)).status_code == 302
    assert watcher.post(url("next", game)).status_code == 302

    for kind in ("edit", "view"):
        assert (
            client.post(reverse("scoring:link", args=[upcoming.public_id, kind, change]), {"confirm": "1"}).status_code
            == 302
        )

    for phone in (scorer, watcher):
        assert phone.get(url("pad", upcoming)).status_code == 404
        followed_again = phone.post(url("next", game))
        assert followed_again.status_code == 403 and NOT_SHARED in followed_again.content.decode()
        assert phone.get(url("pad", upcoming)).status_code == 404
        assert save(phone, upcoming, "p1-farm_income", "9", version=0).status_code == 404


def test_a_holder_follows_only_by_the_link_carried_on_from_theirs(client):
    """An edit link's holder whose carried link was revoked does not slip in by the view link
    (carried on for the view link's holders); and a link the owner made afterwards is theirs to give."""
    game = the_table("Alice", "Bruno")
    scorer = holder(game, "edit", "2")
    upcoming = next_game_started(client, game)
    link_revoke(game=upcoming, access="edit")

    assert scorer.post(url("next", game)).status_code == 403

    link_renew(game=upcoming, access="edit")
    assert scorer.post(url("next", game)).status_code == 403
    assert scorer.get(url("pad", upcoming)).status_code == 404


def test_the_owners_page_says_who_is_in_the_next_game_by_which_link(client):
    game = the_table("Alice", "Bruno")
    bruno, watcher = holder(game, "edit", "2"), holder(game, "view")
    upcoming = next_game_started(client, game)
    bruno.post(url("next", game) + "?player=2")
    watcher.post(url("next", game))
    holder(upcoming, "edit")  # opened the link itself, not said who it is yet

    cards = page(client.get(url("pad", upcoming) + "?shared=1")).find_all("details", class_="share-link")

    edit, view = ([" ".join(item.text.split()) for item in card.find_all("li")] for card in cards)
    assert edit == ["Bruno (followed from the last game)", "a phone that has not said which player it is"]
    assert view == ["a phone watching (followed from the last game)"]
    assert "Carried on from the last game: the phones that held its edit link" in cards[0].text
    assert "Nobody" not in cards[0].text


def test_a_view_links_holder_never_follows_by_an_edit_link(client):
    game = the_table("Alice", "Bruno")
    watcher = holder(game, "view")
    upcoming = next_game_started(client, game)
    link_revoke(game=upcoming, access="view")

    assert watcher.post(url("next", game)).status_code == 403
    assert watcher.get(url("pad", upcoming)).status_code == 404


def test_without_a_next_game_following_is_a_404_and_a_get_is_refused(client):
    game = the_table("Alice", "Bruno")
    phone = holder(game, "edit", "1")

    assert phone.post(url("next", game)).status_code == 404
    next_game_started(client, game)
    assert phone.get(url("next", game)).status_code == 405  # (following joins a game: a post only)


def test_a_stranger_follows_nothing(client):
    game = the_table("Alice", "Bruno")
    next_game_started(client, game)

    assert Client().post(url("next", game)).status_code == 404


@pytest.mark.parametrize("posted", [{"to": "kitchen"}, {"player": "9"}])
def test_a_forged_follow_is_refused(client, posted):
    game = the_table("Alice", "Bruno")
    phone = holder(game, "edit", "1")
    next_game_started(client, game)

    assert phone.post(url("next", game), posted).status_code == 404


def test_the_play_again_note_says_the_table_will_be_offered_the_game(client):
    game = the_table("Alice", "Bruno")

    note = page(client.get(url("again", game))).by_id("play-again-note").text

    assert re.search(r"The phones that hold this game’s links are offered the next game", note)


def test_a_start_posted_after_another_accounts_game_starts_a_game_of_its_own(client):
    """``again_of`` names a game of the keeper's only: another account's game is followed by
    nothing of this account's (and its phones are offered nothing)."""
    theirs = game_scored(player("Zoe", farm_income=3), finished=True, owner=user("someone-else"))
    mine = the_table("Alice", "Bruno")
    data = form_data(page(client.get(url("again", mine))).one("form", class_="start-form"))
    data["again_of"] = [theirs.public_id]

    upcoming = Game.objects.get(public_id=client.post(url("start"), data)["Location"].strip("/").split("/")[-1])

    assert upcoming.played_after is None and game_played_next(theirs) is None
