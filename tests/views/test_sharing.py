"""Specification of share links (``scoring/views/sharing.py``), through Django's test client (no
JavaScript: every step is a plain link or form): the owner makes them with *Score together* at the
top of the pad and revokes them once they have confirmed, a table-mate opens one, says which
player they are (their phone then opens that player’s sheet, and their changes carry that name, as
a link holder's), and may give another name for the change history.

Who may do what through a link (every address, every kind of visitor) is
``tests/test_permissions.py``; here, what each of these requests answers and what the pad then
shows.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from scoring.gamefile import read_document
from scoring.models import GameLink
from scoring.services.sharing import link_renew
from tests.support.factories import OWNER, game_started, user
from tests.support.pages import OVERRIDE, OVERRIDE_REFUSED, Element, page, save, url

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
# Score together, in the pad's first lines: /games/<id>/links/<kind>/<new|revoke>/


def test_a_new_pad_offers_score_together_above_the_scores(client):
    """A plain form in the first lines of the pad (before the players' sheets): one tap makes the
    edit link and opens the pad on its QR code."""
    game = game_started("Alice", "Bruno")

    html = page(client.get(url("pad", game)))

    box = html.by_id("share")
    assert (box.tag, box["method"], box["action"]) == ("form", "post", link_url(game, "edit", "new"))
    assert box.one("button").text == "Score together"
    elements = list(html.iter())
    assert elements.index(box) < elements.index(html.one("nav", class_="pad-views")) < elements.index(html.by_id("pad"))


def test_once_scoring_has_begun_score_together_sits_beside_the_recent_changes(client):
    """The first screen is then the scores'; the button is the same, one tap still shows the code."""
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "3", page="a", seq=1)

    html = page(client.get(url("pad", game)))

    box = html.by_id("share")
    assert (box.tag, box["action"]) == ("form", link_url(game, "edit", "new"))
    assert box.parent is html.by_id("changes-box").parent  # the folds below the pad
    elements = list(html.iter())
    assert elements.index(html.by_id("pad")) < elements.index(box)


def test_score_together_makes_the_edit_link_and_opens_on_its_qr_code(client):
    game = game_started("Alice", "Bruno")

    response = client.post(link_url(game, "edit", "new"))

    assert response.status_code == 302
    assert response["Location"] == url("pad", game) + "?shared=edit#share"  # (its code shown: the link just made)
    box = page(client.get(response["Location"])).by_id("share")
    assert (box.tag, "open" in box.attrs) == ("details", True)
    assert box.find_all("summary")[0].text == "Score together"
    (shown,) = box.find_all(class_="share-link")
    assert (shown.tag, "open" in shown.attrs, shown.one("summary").text) == (
        "details",
        True,
        "Edit link: they can score",
    )
    address = "http://testserver" + join_url(live_link(game, "edit"))
    assert shown.one("a")["href"] == address and shown.one("a").text == address
    qr = shown.one(class_="qr-wrap")
    assert (qr["role"], qr["aria-label"]) == ("img", "QR code of the edit link")
    assert qr.find("svg") is not None
    # Copy and Share: shown by the pad's script where the browser can (the link is there without it)
    copy, share = shown.one("button", data_copy=True), shown.one("button", data_share=True)
    assert copy["data-copy"] == share["data-share"] == address
    assert "hidden" in copy.attrs and "hidden" in share.attrs
    assert (copy.text, share.text) == ("Copy the link", "Share…")
    assert shown.one(data_share_status=True)["role"] == "status"
    assert [form["action"] for form in shown.find_all("form")] == [
        link_url(game, "edit", "revoke"),
        link_url(game, "edit", "new"),
    ]
    assert [form["action"] for form in box.find_all("form")][-1] == link_url(game, "view", "new")


def test_the_two_codes_show_one_at_a_time_the_one_just_made_open(client):
    """Issue 49, point 7: two QR codes stacked, a friend may scan the wrong one. Each is named,
    in one exclusive group: the code of the link just made shows, the other a tap away."""
    game = game_started("Alice", "Bruno")
    client.post(link_url(game, "edit", "new"))

    response = client.post(link_url(game, "view", "new"))

    assert response["Location"] == url("pad", game) + "?shared=view#share"
    cards = page(client.get(response["Location"])).by_id("share").find_all("details", class_="share-link")
    assert [(card.one("summary").text, "open" in card.attrs, card["name"]) for card in cards] == [
        ("Edit link: they can score", False, "share-links"),
        ("View link: they can watch", True, "share-links"),
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


def test_revoke_asks_first_and_cuts_nobody_off_until_confirmed(client):
    game = game_started("Alice", "Bruno")
    client.post(link_url(game, "edit", "new"))
    joiner = opened_link(live_link(game, "edit"))

    response = client.post(link_url(game, "edit", "revoke"))  # the pad's Revoke button

    assert response.status_code == 200
    question = page(response)
    assert question.one("h1").text == "Revoke the edit link?"
    assert "This cuts off everyone who joined with this link" in question.one("main").text
    form = question.one("main").one("form")
    assert (form["method"], form["action"]) == ("post", link_url(game, "edit", "revoke"))
    assert form.one("input", type="hidden", name="confirm")["value"] == "1"
    assert form.one("button").text == "Revoke the link"
    assert form.one("a").text == "Keep the link" and form.one("a")["href"] == url("pad", game) + "?shared=1#share"
    assert live_link(game, "edit").revoked_at is None
    assert save(joiner, game, "s2-farms", "3", page="b", seq=1).status_code == 200


def test_revoking_once_confirmed_cuts_the_link_off_and_offers_score_together_again(client):
    game = game_started("Alice", "Bruno")
    client.post(link_url(game, "edit", "new"))
    link = live_link(game, "edit")

    response = client.post(link_url(game, "edit", "revoke"), {"confirm": "1"})

    assert response.status_code == 302
    assert response["Location"] == url("pad", game) + "?shared=1#share"
    box = share_box(client, game)
    assert box.find(class_="share-link") is None
    assert (box.tag, box["action"]) == ("form", link_url(game, "edit", "new"))
    assert Client().get(join_url(link)).status_code == 404


def test_the_link_actions_take_a_post_only(client):
    game = game_started("Alice", "Bruno")

    assert client.get(link_url(game, "edit", "new")).status_code == 405
    assert not GameLink.objects.exists()


# ---------------------------------------------------------------------------------------------
# Opening a link, and saying which player you are: /join/<token>/, /games/<id>/who/


def opened_link(link: GameLink, phone: Client | None = None) -> Client:
    """A phone (without an account unless given) that opened ``link``."""
    phone = phone or Client()
    assert phone.post(join_url(link)).status_code == 302  # (an account joins by the page's button)
    return phone


def test_the_edit_links_holder_is_asked_which_player_they_are(client):
    game = game_started("Alice", "Bruno", "Carla")
    client.post(link_url(game, "edit", "new"))
    phone = Client()

    response = phone.get(join_url(live_link(game, "edit")))

    assert response.status_code == 302
    assert response["Location"] == url("who", game)
    html = page(phone.get(response["Location"]))
    assert html.one("h1").text == "Which player are you?"
    form = html.one("form", class_="who-choice")
    assert (form["method"], form["action"]) == ("post", url("who", game))
    buttons = form.find_all("button")
    assert [(button.text, button["name"], button["value"]) for button in buttons] == [
        ("Alice", "seat", "1"),
        ("Bruno", "seat", "2"),
        ("Carla", "seat", "3"),
        ("Everyone", "seat", "everyone"),
    ]
    assert all(button["type"] == "submit" for button in buttons)


def test_a_player_chosen_opens_that_players_sheet_and_their_changes_carry_the_name(client):
    game = game_started("Alice", "Bruno")
    client.post(link_url(game, "edit", "new"))
    phone = opened_link(live_link(game, "edit"))

    response = phone.post(url("who", game), {"seat": "2"})

    assert response.status_code == 302
    assert response["Location"] == url("pad", game) + "?player=2"
    sheet = page(phone.get(response["Location"]))
    assert "one-player" in sheet.one(data_pad=True)["class"].split()
    assert sheet.one("nav", class_="pad-views").one("a", aria_current="page").text == "Bruno"
    assert sheet.find("input", name="s2-farms") is not None and sheet.find("input", name="s1-farms") is None
    assert save(phone, game, "s2-farms", "3", page="b", seq=1).status_code == 200
    assert authors(client, game) == ["Bruno (edit link)"]
    assert exported_authors(client, game) == [("Bruno", True)]


def test_everyone_opens_every_sheet_and_leaves_the_name_as_it_was(client):
    game = game_started("Alice", "Bruno")
    client.post(link_url(game, "edit", "new"))
    phone = opened_link(live_link(game, "edit"))

    response = phone.post(url("who", game), {"seat": "everyone"})

    assert response["Location"] == url("pad", game)
    save(phone, game, "s1-farms", "3", page="b", seq=1)
    assert authors(client, game) == ["the edit link"]


def test_a_holder_who_said_which_player_they_are_goes_straight_to_that_sheet_when_they_open_the_link_again(client):
    game = game_started("Alice", "Bruno")
    client.post(link_url(game, "edit", "new"))
    link = live_link(game, "edit")
    phone = opened_link(link)
    phone.post(url("who", game), {"seat": "1"})

    assert phone.get(join_url(link))["Location"] == url("pad", game) + "?player=1"
    phone.post(url("who", game), {"seat": "everyone"})  # asked again (the address stays theirs)
    assert phone.get(join_url(link))["Location"] == url("pad", game)


def test_a_player_not_in_the_game_is_refused_and_nothing_is_remembered(client):
    game = game_started("Alice", "Bruno")
    client.post(link_url(game, "edit", "new"))
    link = live_link(game, "edit")
    phone = opened_link(link)

    response = phone.post(url("who", game), {"seat": "3"})

    assert response.status_code == 400
    assert response.content.decode() == "This player is not in the game."
    assert phone.get(join_url(link))["Location"] == url("who", game)


def test_a_signed_in_holder_is_asked_too_and_keeps_their_accounts_name(client):
    game = game_started("Alice", "Bruno")
    cleo = user("cleo")
    cleo.first_name = "Cleo"
    cleo.save()
    phone = Client()
    phone.force_login(cleo)
    client.post(link_url(game, "edit", "new"))
    opened_link(live_link(game, "edit"), phone)
    html = page(phone.get(url("who", game)))
    assert "shown with your account’s name" in html.one("main").text

    assert phone.post(url("who", game), {"seat": "2"})["Location"] == url("pad", game) + "?player=2"

    save(phone, game, "s2-farms", "3", page="c", seq=1)
    assert authors(client, game) == ["Cleo (edit link)"]


def test_the_owner_and_a_view_links_holder_are_not_asked(client):
    game = game_started("Alice", "Bruno")
    client.post(link_url(game, "edit", "new"))
    client.post(link_url(game, "view", "new"))

    assert client.get(join_url(live_link(game, "edit")))["Location"] == url("pad", game)  # the owner's own link
    assert client.get(url("who", game))["Location"] == url("pad", game)
    assert Client().get(join_url(live_link(game, "view")))["Location"] == url("pad", game)


def test_an_account_opening_a_link_is_asked_to_join_and_nothing_is_recorded_until_it_does(client):
    """A page of any other site can send a signed-in browser to a share link: opening it only
    shows what the account is about to join; the game is neither in its history nor open to it."""
    game = game_started("Alice", "Bruno")
    link = link_renew(game=game, access="edit")
    phone = Client()
    phone.force_login(user("cleo"))

    response = phone.get(join_url(link), headers={"Accept-Encoding": "gzip"})

    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    assert not response.has_header("Content-Encoding")  # its address is the link: never compressed (BREACH)
    html = page(response)
    assert html.one("h1").text == "Join this game?"
    assert [item.text for item in html.one("ul", class_="join-players").find_all("li")] == ["Alice", "Bruno"]
    assert "enter the scores with the table" in html.one("main").text
    form = html.one("main").one("form")
    assert form["method"] == "post" and "action" not in form.attrs  # (to this address)
    assert form.one("button")["type"] == "submit" and form.one("button").text == "Join the game"
    assert form.one("a").text == "Not now" and form.one("a")["href"] == url("history")
    assert not game.members.exists()
    assert phone.get(url("pad", game)).status_code == 404
    assert url("pad", game) not in phone.get(url("history")).content.decode()


def test_an_account_joins_with_the_button_and_goes_straight_in_the_next_time(client):
    game = game_started("Alice", "Bruno")
    link = link_renew(game=game, access="edit")
    phone = Client(enforce_csrf_checks=True)
    phone.force_login(user("cleo"))
    asked = page(phone.get(join_url(link)))
    token = asked.one("main").one("input", name="csrfmiddlewaretoken")["value"]

    joined = phone.post(join_url(link), {"csrfmiddlewaretoken": token})

    assert joined["Location"] == url("who", game)
    assert list(game.members.values_list("user__username", flat=True)) == ["cleo"]
    assert url("pad", game) in phone.get(url("history")).content.decode()
    assert phone.get(join_url(link))["Location"] == url("who", game)  # a member: not asked again


def test_a_join_posted_from_another_site_is_refused_by_the_csrf_check(client):
    game = game_started("Alice", "Bruno")
    link = link_renew(game=game, access="view")
    phone = Client(enforce_csrf_checks=True)
    phone.force_login(user("cleo"))

    assert phone.post(join_url(link)).status_code == 403
    assert not game.members.exists()


def test_the_view_links_question_says_the_account_follows_the_game(client):
    game = game_started("Alice", "Bruno")
    phone = Client()
    phone.force_login(user("cleo"))
    html = page(phone.get(join_url(link_renew(game=game, access="view"))))
    assert "follow the game as the table scores it" in html.one("main").text


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


def test_an_owner_known_by_no_name_gives_it_in_score_together_and_it_becomes_the_accounts(client, owner):
    """Issue 49: "Finished by the owner" where the table says "Alice". An account without a name is
    asked for one where the table gathers (Score together), never among Recent changes; the name
    given is the account's, so every phone says it, and the owner is not asked again."""
    game = game_started("Alice", "Bruno")
    client.post(link_url(game, "edit", "new"))
    mate = opened(game, "view")
    form = share_box(client, game).one("form", class_="who")
    assert form["action"] == url("name", game) + "?shared=1"
    assert page(client.get(url("pad", game))).by_id("changes-box").find("form", class_="who") is None

    response = client.post(form["action"], {"name": " Alice "})

    assert (response.status_code, response["Location"]) == (302, url("pad", game) + "?shared=1#share")
    owner.refresh_from_db()
    assert owner.first_name == "Alice"
    assert share_box(client, game).find("form", class_="who") is None
    client.post(url("finish", game), {"confirm": "1"})
    assert page(mate.get(url("pad", game))).by_id("finished-note").text.startswith("Finished by Alice at ")


def test_an_owner_with_a_name_is_not_asked_for_one(client, owner):
    owner.first_name = "Olivia"
    owner.save()
    game = game_started("Alice", "Bruno")
    client.post(link_url(game, "edit", "new"))

    assert share_box(client, game).find("form", class_="who") is None
    assert client.post(url("name", game), {"name": "Mallory"}).status_code == 302
    owner.refresh_from_db()
    assert owner.first_name == "Olivia"


def test_the_owners_name_refused_is_said_under_its_field_in_score_together_as_typed(client, owner):
    game = game_started("Alice", "Bruno")
    client.post(link_url(game, "edit", "new"))

    response = client.post(url("name", game) + "?shared=1", {"name": "A" * 41})

    assert response.status_code == 422
    box = page(response).by_id("share")
    assert box.one("input", name="name")["value"] == "A" * 41
    assert box.by_id("who-name-error").text == "At most 40 characters: this has 41."
    owner.refresh_from_db()
    assert owner.first_name == ""


def test_a_name_given_is_one_line_whatever_was_posted(client):
    """A forged post may hold line breaks and tabs: the name is one line, so it is shown, and
    written in the game file, as one line."""
    game = game_started("Alice", "Bruno")
    phone = opened(game, "edit")

    phone.post(url("name", game), {"name": " Bruno\r\n\tthe second "})

    assert page(phone.get(url("pad", game))).one("input", name="name")["value"] == "Bruno the second"


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        pytest.param("B" * 41, "At most 40 characters: this has 41.", id="too-long"),
        pytest.param(OVERRIDE, OVERRIDE_REFUSED, id="hiding-or-reordering-text"),
        pytest.param(
            "Bruno\x1b[31m",
            "A name cannot hold U+001B, a character that can hide or reorder text. Type the name again without it.",
            id="a-control-character",
        ),
    ],
)
def test_a_name_refused_is_said_under_the_field_as_typed_and_the_name_given_before_kept(client, typed, message):
    game = game_started("Alice", "Bruno")
    phone = opened(game, "edit")
    phone.post(url("name", game), {"name": "Bruno"})

    response = phone.post(url("name", game), {"name": typed})

    assert response.status_code == 422
    html = page(response)
    assert html.by_id("changes-box").get("open") is not None
    field = html.by_id("who-name")
    assert (field["value"], field["aria-invalid"], field["aria-describedby"]) == (typed, "true", "who-name-error")
    assert html.by_id("who-name-error").text == message
    assert page(phone.get(url("pad", game))).one("input", name="name")["value"] == "Bruno"


# ---------------------------------------------------------------------------------------------
# Who made a change, on every phone and in the export: a link's holder always as one, whatever
# name they give themselves; an account by the name it is shown by, never its login


def opened(game, kind: str) -> Client:
    """A phone without an account that opened the game's (new) link of that kind."""
    phone = Client()
    assert phone.get(join_url(link_renew(game=game, access=kind))).status_code == 302
    return phone


def authors(phone: Client, game) -> list[str]:
    """Who made each recent change ("… ago, by <who>"), newest first, as that phone's pad shows it."""
    changes = page(phone.get(url("pad", game))).by_id("changes")
    return [when.text.split(", by ", 1)[1] for when in changes.find_all(class_="change-when")]


def exported_authors(phone: Client, game) -> list[tuple[str, bool]]:
    """Each change's ``by`` and ``by_link``, oldest first, in the game file that phone downloads."""
    (exported,) = read_document(json.loads(phone.get(url("export", game)).content))
    return [(change.by, change.by_link) for change in exported.changes]


def test_a_link_holder_who_names_themselves_as_the_owner_is_still_shown_and_exported_as_a_link_holder(client, owner):
    owner.first_name = "Olivia"
    owner.save()
    game = game_started("Alice", "Bruno")
    holder, watcher = opened(game, "edit"), opened(game, "view")
    save(client, game, "s1-farms", "3", page="owner", seq=1)
    for seq, name in enumerate([OWNER, "Olivia"], start=1):  # the owner's login, then the name she is shown by
        holder.post(url("name", game), {"name": name})
        save(holder, game, "s2-farms", str(seq), page="holder", seq=seq)

    for phone in (client, holder, watcher):
        assert authors(phone, game) == ["Olivia (edit link)", f"{OWNER} (edit link)", "Olivia"]
        assert exported_authors(phone, game) == [("Olivia", False), (OWNER, True), ("Olivia", True)]


def test_the_owner_is_shown_by_the_name_they_gave_never_their_login(owner):
    login = "olivia-signs-in-with-this"
    olivia = user(login)
    game = game_started("Alice", "Bruno", owner=olivia)
    phone = Client()
    phone.force_login(olivia)
    watcher = opened(game, "view")
    save(phone, game, "s1-farms", "3", page="owner", seq=1)

    assert authors(watcher, game) == ["the owner"]  # no name given yet
    olivia.first_name = "Olivia"
    olivia.save()
    assert authors(watcher, game) == ["Olivia"]
    assert exported_authors(watcher, game) == [("Olivia", False)]
    for address in (url("pad", game), url("results", game), url("export", game), url("live", game) + "?changes=1"):
        assert login not in watcher.get(address).content.decode(), address


def test_a_signed_in_link_holder_is_shown_by_their_name_as_a_link_holder(client):
    game = game_started("Alice", "Bruno")
    cleo = user("cleo-signs-in-with-this")
    cleo.first_name = "Cleo"
    cleo.save()
    phone = Client()
    phone.force_login(cleo)
    phone.post(join_url(link_renew(game=game, access="edit")))

    save(phone, game, "s2-farms", "3", page="cleo", seq=1)

    assert authors(client, game) == ["Cleo (edit link)"]
    assert exported_authors(client, game) == [("Cleo", True)]


def test_a_link_holder_without_a_name_is_the_edit_link(client):
    game = game_started("Alice", "Bruno")
    save(opened(game, "edit"), game, "s2-farms", "3", page="holder", seq=1)

    assert authors(client, game) == ["the edit link"]
    assert exported_authors(client, game) == [("", True)]
