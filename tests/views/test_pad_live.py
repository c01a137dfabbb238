"""Specification of how the other phones follow a game: ``/live/``, polled by the pad with the
ETag it last got, 304 while the game's revision is the one they have; and what a save answers is
what a poll would bring."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.models import Game, GameSector
from scoring.rules.categories import During, categories_of
from scoring.services.sharing import link_renew
from tests.support.factories import (
    game_started,
    revision_of,
    save_tokens,
    save_value,
    seat_of,
    total_of,
)
from tests.support.pages import (
    HTMX,
    PAD_FIELD_COUNT,
    WITH_AND_WITHOUT_HTMX,
    Element,
    labelled,
    page,
    save,
    top_level,
    url,
)
from tests.views.pad_cases import OOB_IDS, PAD_CATEGORIES

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# Following the other phones: /games/<id>/live/ (polled by the pad, with the ETag it last got)


@WITH_AND_WITHOUT_HTMX
def test_live_answers_every_fields_value_and_version_then_every_figure_out_of_band(client, headers):
    game = game_started("Alice", "Bruno", "Carla")
    save_tokens(seat=seat_of(game, 3), sector=GameSector.objects.get(game=game, position=1), count=2)
    save_value(seat=seat_of(game, 1), key="farms", value=5)
    save_value(seat=seat_of(game, 1), key="farm_income", value=7, sum_text="3+4")

    response = client.get(url("live", game) + "?changes=1", headers=headers)  # a page showing its changes

    assert response.status_code == 200
    assert response["ETag"] == '"rev-3"'
    assert response["X-Pad-Revision"] == "3"
    html = page(response)
    values, *oob = top_level(html)
    assert values["id"] == "live-values" and "hx-swap-oob" not in values.attrs
    assert [part["id"] for part in oob] == [*OOB_IDS, "finished-note", "changes"]
    without = top_level(page(client.get(url("live", game), headers=headers)))[1:]  # its changes folded away
    assert [part["id"] for part in without] == [*OOB_IDS, "finished-note"]
    assert all(part["hx-swap-oob"] == "true" for part in oob)
    fields = {item["data-name"]: (item["data-version"], item["data-stored"]) for item in values.find_all("i")}
    assert len(fields) == 3 * PAD_FIELD_COUNT
    assert fields["s1-farms"] == ("1", "5")
    assert fields["s1-farm_income"] == ("1", "3+4")
    assert fields["s3-t1"] == ("1", "2")
    assert fields["s1-starting_vp"] == ("0", "1")
    assert fields["s2-farms"] == ("0", "")
    assert fields["s2-hive_mat_full"] == ("0", "False")
    assert [labelled(html.by_id("totals"), f"Total, {n}").text for n in ("Alice", "Bruno", "Carla")] == [
        "13",
        "2",
        "16",
    ]
    assert html.by_id("sector-1-summary").text == "Carla leads with 2 tokens: 13 VP."


@WITH_AND_WITHOUT_HTMX
def test_live_answers_304_with_an_empty_body_while_nothing_changed(client, headers):
    game = game_started("Alice", "Bruno")
    etag = client.get(url("live", game))["ETag"]

    response = client.get(url("live", game), headers={**headers, "If-None-Match": etag})

    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == etag == '"rev-0"'


def test_live_answers_the_new_values_once_another_phone_saved(client):
    game = game_started("Alice", "Bruno")
    etag = client.get(url("live", game))["ETag"]
    save(client, game, "s2-farms", "4", version=0, page="phone-a", seq=1)

    response = client.get(url("live", game), headers={"If-None-Match": etag})

    assert response.status_code == 200
    assert response["ETag"] == '"rev-1"'
    item = page(response).by_id("live-values").one("i", data_name="s2-farms")
    assert (item["data-version"], item["data-stored"]) == ("1", "4")
    assert client.get(url("live", game), headers={"If-None-Match": response["ETag"]}).status_code == 304


def test_live_answers_304_after_a_save_refused_before_it_reached_the_game(client):
    """Input the save's form refuses (or a field the game has not) never locks the game: the
    other phones' polls stay 304. (One that reaches the game and writes nothing rolls back, the
    revision with it: tests/services/test_pad.py.)"""
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "3", page="phone-a", seq=1)
    etag = client.get(url("live", game))["ETag"]

    assert save(client, game, "s1-farms", "120").status_code == 422
    assert save(client, game, "s1-farms", "4", version=None).status_code == 422
    assert save(client, game, "s1-nonsense", "4").status_code == 400

    assert client.get(url("live", game), headers={"If-None-Match": etag}).status_code == 304


def test_live_answers_304_to_the_weak_tag_of_a_compressed_answer(client):
    game = game_started("Alice", "Bruno")

    response = client.get(url("live", game), headers={"If-None-Match": 'W/"rev-0"'})

    assert response.status_code == 304


def test_live_of_the_one_player_view_sends_that_players_figures(client):
    game = game_started("Alice", "Bruno")

    html = page(client.get(url("live", game) + "?player=2"))

    assert [el["aria-label"] for el in html.by_id("during-subtotal").find_all("span", class_="figure")] == [
        "During the game, Bruno",
    ]
    assert len(html.by_id("live-values").find_all("i")) == 2 * PAD_FIELD_COUNT


@WITH_AND_WITHOUT_HTMX
def test_live_refuses_post_with_405(client, headers):
    assert client.post(url("live", game_started()), headers=headers).status_code == 405


def link_holder(game: Game, kind: str, name: str = "") -> Client:
    """A phone without an account that opened the game's (new) link of that kind, and said its name."""
    phone = Client()
    link = link_renew(game=game, access=kind)
    assert phone.get(reverse("scoring:join", args=[link.token])).status_code == 302
    if name:
        assert phone.post(url("name", game), {"name": name}).status_code == 302
    return phone


def test_an_answer_made_for_one_phone_holds_nothing_of_its_session(client):
    """A poll's answer is made once for each revision and kept for the table's other phones
    (tests/views/test_query_counts.py): the one made for a link's holder carries neither her CSRF token nor
    her name, and the owner's phone gets it without her cookies."""
    game = game_started("Alice", "Bruno")
    zoe = link_holder(game, "edit", name="Zoé")
    zoe_page = zoe.get(url("pad", game)).content.decode()
    assert "Zoé" in zoe_page  # (her page holds her name, and her token)
    etag = client.get(url("live", game))["ETag"]
    save(client, game, "s1-farms", "3", page="owner", seq=1)

    made = zoe.get(url("live", game), headers={**HTMX, "If-None-Match": etag})
    answer = client.get(url("live", game), headers={**HTMX, "If-None-Match": etag})

    assert made.status_code == answer.status_code == 200 and answer.content == made.content
    body = answer.content.decode()
    assert "Zoé" not in body and "csrf" not in body.lower()
    assert zoe.cookies["csrftoken"].value not in body
    assert not answer.cookies  # none of hers, none of its own
    item = page(answer).by_id("live-values").one("i", data_name="s1-farms")
    assert (item["data-version"], item["data-stored"]) == ("1", "3")


@pytest.mark.parametrize(
    ("query", "language", "names"),
    [
        pytest.param("?player=2", "en", ["Bruno"], id="one-players-view"),
        pytest.param("", "fr", ["Alice", "Bruno"], id="french"),
    ],
)
def test_an_answer_is_made_again_for_another_view_or_language(client, owner, query, language, names):
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "3", page="owner", seq=1)
    assert client.get(url("live", game), headers=HTMX).status_code == 200  # made for everyone, in English

    other = Client(headers={"Accept-Language": language})
    other.force_login(owner)
    html = page(other.get(url("live", game) + query, headers=HTMX))

    with translation.override(language):
        shown = [translation.gettext("During the game, %(name)s") % {"name": name} for name in names]
    assert [el["aria-label"] for el in html.by_id("during-subtotal").find_all("span", class_="figure")] == shown


def test_a_poll_showing_the_recent_changes_is_made_for_each_phone(client):
    """The recent changes' fold, open, is answered for the phone that asks (its undo follows what
    the phone may do; its "2 minutes ago", the clock), whatever another phone was answered."""
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "3", page="owner", seq=1)
    watcher = link_holder(game, "view")

    mine = page(client.get(url("live", game) + "?changes=1", headers=HTMX)).by_id("changes")
    theirs = page(watcher.get(url("live", game) + "?changes=1", headers=HTMX)).by_id("changes")

    assert [button.text for button in mine.find_all("button")] == ["Undo"]
    assert theirs.find("button") is None and "Farms built, Alice" in theirs.text


# What a save answers is what a poll would bring: a page whose last poll was the revision just
# before its own save has, with that save's answer, the game as a poll would show it at the
# save's revision (every figure the write changed, the other cells of a comb step's sector). So
# the save's answer carries the poll's ETag at its revision, and that page polls on from there
# (static/scoring/saving.js, ``pollAfterSave``): a phone scoring alone is sent no whole game after
# each of its saves.


def _signature(element: Element) -> tuple:
    """What an element shows and says, as a poll or a save's answer brings it (the out-of-band
    mark left out: the answer swaps it in, the page holds it without)."""
    attrs = tuple(sorted((name, value) for name, value in element.attrs.items() if name != "hx-swap-oob"))
    children = tuple(_signature(child) if isinstance(child, Element) else child for child in element.children)
    return element.tag, attrs, children


def _polled(client, game) -> tuple[dict[str, tuple], dict[str, tuple]]:
    """A poll's figures (by id) and values (by field name: version and value stored)."""
    values, *figures = top_level(page(client.get(url("live", game), headers=HTMX)))
    items = {item["data-name"]: _signature(item) for item in values.find_all("i")}
    return {part["id"]: _signature(part) for part in figures}, items


SAVED_ONE_BY_ONE = [
    *((During.BREAKDOWN, category.key, "7" if not category.is_flag else "1") for category in PAD_CATEGORIES),
    *((During.TRACK, category.key, "40") for category in categories_of(During.TRACK) if category.section == "during"),
    (During.BREAKDOWN, "t0", "2"),  # tokens in the first sector: its awards move, the comb's figures with them
    (During.BREAKDOWN, "active_workers", "3"),  # the tie-breaker
    (During.BREAKDOWN, "farms", "95"),  # far beyond what games record: its row's warning
]


@pytest.mark.parametrize(("during", "key", "value"), SAVED_ONE_BY_ONE, ids=lambda part: str(part))
def test_a_save_answers_everything_its_write_changed_as_a_poll_at_its_revision_would(client, during, key, value):
    game = game_started("Alice", "Bruno", "Carla", during=during)
    save_tokens(seat=seat_of(game, 2), sector=GameSector.objects.get(game=game, position=0), count=1)
    save_value(seat=seat_of(game, 3), key="farms", value=4)
    if key == "active_workers":  # (a tie for the lead, which the workers break)
        save_value(seat=seat_of(game, 1), key="farm_income", value=total_of(game, 3) - total_of(game, 1))
    figures_before, values_before = _polled(client, game)

    answer = save(client, game, f"s1-{key}", value, page="phone-a", seq=1)

    assert answer.status_code == 200
    assert answer["ETag"] == f'"rev-{revision_of(game)}"' == client.get(url("live", game))["ETag"]
    figures_after, values_after = _polled(client, game)
    status, *parts = top_level(page(answer))
    answered = {part["id"]: _signature(part) for part in parts if part.get("hx-swap-oob")}
    changed = {name for name in figures_after if figures_after[name] != figures_before[name]}
    assert changed, "the save changed no figure: nothing to prove"
    assert {name: answered.get(name) for name in changed} == {name: figures_after[name] for name in changed}
    cells = next((part for part in parts if part.get("data-live") is not None), None)
    sector_cells = {item["data-name"]: _signature(item) for item in cells.find_all("i")} if cells else {}
    moved = {name for name in values_after if values_after[name] != values_before[name]} - {f"s1-{key}"}
    assert {name: sector_cells.get(name) for name in moved} == {name: values_after[name] for name in moved}
    saved_item = page(client.get(url("live", game))).one("i", data_name=f"s1-{key}")
    assert (status["data-version"], status["data-stored"]) == (saved_item["data-version"], saved_item["data-stored"])


def test_a_refused_save_answers_the_poll_etag_of_the_revision_it_left_unchanged(client):
    game = game_started("Alice", "Bruno")
    etag = client.get(url("live", game))["ETag"]

    answer = save(client, game, "s1-farms", "abc", page="phone-a", seq=1)

    assert answer.status_code == 422
    assert answer["ETag"] == etag
