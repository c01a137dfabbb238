"""Specification of starting a game (``scoring/views/games.py``'s start form, ``/games/new/``),
through Django's test client: its players, comb and options, the comb layouts, every refusal next
to what was typed, and *Play again*'s start form filled in for the next game of the table.
Requested with and without the ``HX-Request`` header, with valid and invalid input.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from scoring.models import CombLayout, Game, GameSector, Seat
from scoring.rules.categories import During
from scoring.services.games import PlayerSetup, comb_layout_save, game_create
from tests.support.factories import COMB, game_scored, game_started, player, seat_of, tokens_of
from tests.support.pages import (
    EVIL,
    HTMX,
    OVERRIDE,
    OVERRIDE_REFUSED,
    WITH_AND_WITHOUT_HTMX,
    Element,
    form_data,
    markup_only_as_text,
    page,
    play_again_links,
    started_on,
    top_level,
    url,
)

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# Starting a game: /games/new/


def start_form(*names: str, sectors=COMB, **fields: str) -> dict[str, str]:
    """The start form as a browser posts it: management fields, players, sectors, the rest."""
    data = {
        "player-TOTAL_FORMS": "5",
        "player-INITIAL_FORMS": "0",
        "player-MIN_NUM_FORMS": "5",
        "player-MAX_NUM_FORMS": "5",
        "sector-TOTAL_FORMS": "20",
        "sector-INITIAL_FORMS": "0",
        "sector-MIN_NUM_FORMS": "20",
        "sector-MAX_NUM_FORMS": "20",
        "played_on": "2024-05-01",
        "end_trigger_token": "7",
        "during": "track",
        "layout": "",
        "layout_name": "",
        "notes": "",
    }
    for position, name in enumerate(names):
        data[f"player-{position}-name"] = name
        data[f"player-{position}-faction"] = ""
    for position, (first, second) in enumerate(sectors):
        data[f"sector-{position}-first"] = str(first)
        data[f"sector-{position}-second"] = str(second)
    data.update(fields)
    return data


def sector_inputs(html: Element) -> list[tuple[str, str]]:
    """The values shown in the start form's sector rows, until the first empty row."""
    shown = []
    for position in range(20):
        first = html.one("input", name=f"sector-{position}-first").get("value", "")
        second = html.one("input", name=f"sector-{position}-second").get("value", "")
        if first == "" and second == "":
            break
        shown.append((first, second))
    return shown


def seats_of(game: Game) -> list[tuple[int, str, int, bool]]:
    return [(s.number, s.name, s.starting_vp, s.is_automa) for s in Seat.objects.filter(game=game).order_by("number")]


def sectors_of(game: Game) -> list[tuple[int, int]]:
    return [(s.first_vp, s.second_vp) for s in GameSector.objects.filter(game=game).order_by("position")]


@WITH_AND_WITHOUT_HTMX
def test_start_form_offers_five_player_rows_and_twenty_sector_rows_dated_today(client, headers):
    response = client.get(url("start"), headers=headers)

    assert response.status_code == 200
    html = page(response)
    assert html.one("input", name="played_on")["value"] == timezone.localdate().isoformat()
    assert html.one("input", name="player-TOTAL_FORMS")["value"] == "5"
    assert html.one("input", name="sector-TOTAL_FORMS")["value"] == "20"
    for number in range(1, 6):
        label = next(lab for lab in html.find_all("label") if lab.text == f"Player {number} name")
        assert html.by_id(label["for"])["name"] == f"player-{number - 1}-name"
    assert len(html.find_all("li", class_="sector-row")) == 20
    assert html.find("select", name="layout") is None  # no saved layout yet
    assert sector_inputs(html) == []
    assert html.find("input", name="end_trigger_token", value="6", checked=True) is not None  # an English page


def shown_sector_rows(html: Element) -> list[str]:
    """The numbers of the comb's sector rows the start form shows (the others are hidden)."""
    return [
        row.one(class_="sector-number").text
        for row in html.find_all("li", class_="sector-row")
        if "hidden" not in row.attrs
    ]


def test_start_form_says_plainly_what_ends_the_game_in_both_rules(client):
    html = page(client.get(url("start")))

    choice = html.one("input", name="end_trigger_token", value="6").parent
    fieldset = choice.parent
    assert fieldset.one("legend").text == "When the game ends"
    assert [label.text for label in fieldset.find_all("label", class_="radio")] == [
        "When a player places their 6th hibernation token (English rules)",
        "When a player places their 7th hibernation token (French rules)",
    ]
    help_text = fieldset.by_id(fieldset["aria-describedby"]).text
    assert help_text.startswith("The game also ends when every space of the comb holds a token.")


@pytest.mark.parametrize(
    ("accept_language", "checked"),
    [
        pytest.param("en-GB,en;q=0.9", "6", id="english-page-english-rules"),
        pytest.param("fr-FR,fr;q=0.9", "7", id="french-page-french-rules"),
    ],
)
def test_start_form_chooses_first_the_end_trigger_of_the_pages_language(client, accept_language, checked):
    html = page(client.get(url("start"), headers={"Accept-Language": accept_language}))

    assert [radio["value"] for radio in html.find_all("input", name="end_trigger_token", checked=True)] == [checked]


def test_start_form_keeps_the_end_trigger_chosen_when_it_comes_back(client):
    html = page(client.post(url("start"), start_form("Alice", end_trigger_token="7", add_sector="1")))

    assert [radio["value"] for radio in html.find_all("input", name="end_trigger_token", checked=True)] == ["7"]


def test_start_form_shows_one_sector_row_to_fill_in_and_no_empty_row_beyond(client):
    html = page(client.get(url("start")))

    assert shown_sector_rows(html) == ["Sector 1"]
    add = html.by_id("add-sector")
    assert (add["type"], add["name"], "hidden" in add.attrs) == ("submit", "add_sector", False)


def test_start_form_shows_a_layouts_sectors_and_no_empty_row_after_them(client, owner):
    comb_layout_save(name="Base game", sectors=[(9, 4), (13, 0), (6, 3)], owner=owner)

    html = page(client.get(url("start")))

    assert shown_sector_rows(html) == ["Sector 1", "Sector 2", "Sector 3"]


def test_add_a_sector_without_javascript_brings_the_form_back_with_one_more_row_and_everything_typed(client):
    typed = start_form("Alice", "Bruno", sectors=[(9, 4), (13, 0)], notes="Rainy", add_sector="1", sector_rows="2")

    response = client.post(url("start"), typed)

    assert response.status_code == 200
    html = page(response)
    assert shown_sector_rows(html) == ["Sector 1", "Sector 2", "Sector 3"]
    assert sector_inputs(html) == [("9", "4"), ("13", "0")]
    assert html.one("input", name="player-1-name")["value"] == "Bruno"
    assert html.one("textarea", name="notes").text == "Rainy"
    assert html.find(class_="error") is None and not Game.objects.exists()
    again = page(client.post(url("start"), {**typed, "sector_rows": "3"}))
    assert len(shown_sector_rows(again)) == 4  # a second tap before typing: one more still


def test_start_form_sent_back_with_an_error_shows_every_row_typed_into(client):
    html = page(client.post(url("start"), start_form("Alice", sectors=[], **{"sector-3-second": "4"})))

    assert shown_sector_rows(html) == ["Sector 1", "Sector 2", "Sector 3", "Sector 4"]  # the error is in row 4
    assert html.one("input", name="sector-3-first")["aria-invalid"] == "true"


def test_enter_in_a_start_form_field_starts_the_game_not_a_sector_nor_a_layout(client):
    """The form's first button is what Enter presses: the plain start."""
    first = page(client.get(url("start"))).one("form", class_="start-form").find("button")

    assert first.get("name") is None and first["type"] == "submit"


def test_start_form_offers_the_names_of_earlier_players_once_each_but_not_the_automa(client, owner):
    game_started("Alice", "Bruno")
    game_started("Alice", "bruno")
    game_create(players=[PlayerSetup("Automa", automa=True), PlayerSetup("Carla")], sectors=COMB, owner=owner)

    html = page(client.get(url("start")))

    offered = [option["value"] for option in html.by_id("known-names").find_all("option")]
    assert offered[0] == "Alice"  # the most played first
    assert sorted(name.casefold() for name in offered) == ["alice", "bruno", "carla"]
    assert html.one("input", name="player-0-name")["list"] == "known-names"


def test_the_start_form_never_offers_nor_takes_another_accounts_layout(client, owner):
    """Layouts are an account's own (issue 18, defect 2: B's start form listed "Alice private
    layout"): another account's is neither listed nor accepted when posted."""
    alice = User.objects.create_user("alice", password="a-long-pass-phrase-of-alice")
    hers = comb_layout_save(name="Alice private layout", sectors=[(3, 1)], owner=alice)

    html = page(client.get(url("start")))
    posted = client.post(url("start"), start_form("Ann", layout=str(hers.pk)))

    assert "Alice private layout" not in html.text
    assert html.find("select", name="layout") is None  # the owner has no layout of their own
    assert posted.status_code == 422 and not Game.objects.exists()
    assert "Alice private layout" not in posted.content.decode()


def test_start_form_offers_saved_layouts_and_fills_in_the_latest(client, owner):
    layout = comb_layout_save(name="Base game", sectors=[(9, 4), (13, 0)], owner=owner)

    html = page(client.get(url("start")))

    select = html.one("select", name="layout")
    assert select.one("option", selected=True)["value"] == str(layout.pk)
    assert select.one("option", selected=True).text == "Base game"
    assert sector_inputs(html) == [("9", "4"), ("13", "0")]
    assert html.one("input", name="layout_name")["value"] == "Base game"
    # Choosing another layout asks for the sectors alone, filled in from it (htmx), to replace these;
    # the choice itself stays on the page.
    assert (select["hx-get"], select["hx-target"], select["hx-swap"]) == (url("start"), "#comb-sectors", "outerHTML")
    assert html.by_id("comb-sectors").find("select") is None


@WITH_AND_WITHOUT_HTMX
def test_start_three_players_redirects_to_the_pad_with_seats_in_order(client, headers):
    response = client.post(
        url("start"),
        start_form("Alice", " Bruno ", "Carla", notes="Rainy day", **{"player-1-faction": "Saha"}),
        headers=headers,
    )

    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == url("pad", game)
    # On the VP track (the form's choice as it comes): the markers start on 1, 2, 3 VP, nothing is pre-filled.
    assert seats_of(game) == [(1, "Alice", None, False), (2, "Bruno", None, False), (3, "Carla", None, False)]
    assert game.during_mode == "track"
    assert seat_of(game, 2).faction == "Saha"
    assert sectors_of(game) == list(COMB)
    assert (game.played_on, game.notes, game.end_trigger_token, game.finished_at) == (
        date(2024, 5, 1),
        "Rainy day",
        7,
        None,
    )
    assert tokens_of(game, 1) == [0, 0, 0]
    assert not CombLayout.objects.exists()  # no layout name given: nothing saved


def test_start_skips_empty_player_rows_and_empty_sector_rows(client):
    data = start_form("Alice", "", "Carla", sectors=[])
    data.update({"sector-0-first": "9", "sector-0-second": "", "sector-2-first": "6", "sector-2-second": "3"})

    client.post(url("start"), data)

    game = Game.objects.get()
    assert [(number, name) for number, name, *_ in seats_of(game)] == [(1, "Alice"), (2, "Carla")]
    assert sectors_of(game) == [(9, 0), (6, 3)]


def test_start_with_the_english_end_trigger_keeps_the_6th_token(client):
    client.post(url("start"), start_form("Alice", "Bruno", end_trigger_token="6"))

    assert Game.objects.get().end_trigger_token == 6


def test_start_solo_seats_the_automa_first_with_1_vp_and_the_player_second_with_2_vp(client):
    response = client.post(url("start"), start_form("Alice", solo="on", during="breakdown"))

    game = Game.objects.get()
    assert response["Location"] == url("pad", game)
    assert seats_of(game) == [(1, "Automa", 1, True), (2, "Alice", 2, False)]


def test_start_saves_the_comb_layout_under_its_name_and_offers_it_next_time(client):
    client.post(url("start"), start_form("Alice", "Bruno", sectors=[(9, 4), (13, 0)], layout_name="Base game"))

    layout = CombLayout.objects.get()
    assert layout.name == "Base game"
    assert [(s.first_vp, s.second_vp) for s in layout.sectors.order_by("position")] == [(9, 4), (13, 0)]

    html = page(client.get(url("start")))
    assert html.one("select", name="layout").one("option", selected=True).text == "Base game"
    assert sector_inputs(html) == [("9", "4"), ("13", "0")]


def test_start_form_offers_first_the_layout_used_last(client):
    client.post(url("start"), start_form("Alice", sectors=[(9, 4)], layout_name="Base game"))
    client.post(url("start"), start_form("Alice", sectors=[(12, 6)], layout_name="Big comb"))
    client.post(url("start"), start_form("Alice", sectors=[(9, 4)], layout_name="Base game"))

    html = page(client.get(url("start")))

    assert html.one("select", name="layout").one("option", selected=True).text == "Base game"
    assert sector_inputs(html) == [("9", "4")]


def test_start_with_an_existing_layout_name_replaces_that_layouts_sectors(client):
    client.post(url("start"), start_form("Alice", sectors=[(9, 4), (13, 0)], layout_name="Base game"))
    client.post(url("start"), start_form("Alice", sectors=[(8, 3)], layout_name="Base game"))

    layout = CombLayout.objects.get()
    assert [(s.first_vp, s.second_vp) for s in layout.sectors.order_by("position")] == [(8, 3)]
    first_game, second_game = Game.objects.order_by("pk")
    assert sectors_of(first_game) == [(9, 4), (13, 0)]  # a game keeps its own copy
    assert sectors_of(second_game) == [(8, 3)]


def test_use_this_layout_fills_the_sectors_in_and_keeps_everything_else_typed(client, owner):
    """Without JavaScript: the button posts the form as typed so far back."""
    layout = comb_layout_save(name="Big comb", sectors=[(12, 6), (7, 0)], owner=owner)
    typed = start_form(
        "Alice",
        "Bruno",
        sectors=[(1, 1), (2, 2), (3, 3)],
        notes="Rainy",
        played_on="2024-03-02",
        layout=str(layout.pk),
        use_layout="1",
    )

    response = client.post(url("start"), typed)

    assert response.status_code == 200
    html = page(response)
    assert sector_inputs(html) == [("12", "6"), ("7", "0")]
    assert html.one("input", name="player-0-name")["value"] == "Alice"
    assert html.one("input", name="player-1-name")["value"] == "Bruno"
    assert html.one("input", name="played_on")["value"] == "2024-03-02"
    assert html.one("textarea", name="notes").text == "Rainy"
    assert html.one("input", name="layout_name")["value"] == "Big comb"
    assert html.find(class_="error") is None and html.find(class_="form-errors") is None  # still being filled in
    assert not Game.objects.exists()


def test_choosing_a_layout_with_htmx_answers_the_sectors_alone_filled_in_from_it(client, owner):
    comb_layout_save(name="Base game", sectors=[(9, 4)], owner=owner)
    layout = comb_layout_save(name="Big comb", sectors=[(12, 6), (7, 0)], owner=owner)

    response = client.get(url("start"), {"layout": str(layout.pk)}, headers=HTMX)

    assert response.status_code == 200
    (comb,) = top_level(page(response))
    assert (comb.tag, comb["id"]) == ("div", "comb-sectors")
    assert sector_inputs(comb) == [("12", "6"), ("7", "0")]
    assert comb.one("input", name="layout_name")["value"] == "Big comb"
    assert comb.find(class_="error") is None
    assert not Game.objects.exists()


def test_use_this_layout_on_an_empty_form_shows_no_errors(client, owner):
    layout = comb_layout_save(name="Big comb", sectors=[(12, 6)], owner=owner)

    response = client.get(url("start"), {"layout": str(layout.pk), "use_layout": "1"})

    html = page(response)
    assert response.status_code == 200
    assert sector_inputs(html) == [("12", "6")]
    assert html.find(class_="error") is None and html.find(class_="form-errors") is None


START_ERRORS = [
    pytest.param(start_form(), "Name at least one player.", id="no-players"),
    pytest.param(start_form("  ", " "), "Name at least one player.", id="only-blank-names"),
    pytest.param(
        start_form("Alice", "Bruno", "ALICE"),
        "Two players cannot have the same name: ALICE.",
        id="duplicate-names-ignoring-case",
    ),
    pytest.param(
        start_form("\u2764\ufe0f Bo", "\u2764 Bo"),
        "Two players cannot have the same name: \u2764 Bo.",
        id="duplicate-names-but-for-a-variation-selector",
    ),
    pytest.param(
        start_form("Ann\u3164"),
        "A name cannot hold U+3164 HANGUL FILLER, a character that can hide or reorder text. Type the name again "
        "without it.",
        id="a-hangul-filler",
    ),
    pytest.param(
        start_form("Alice", "Bruno", solo="on"),
        "A solo game has exactly one player (the Automa is added for you).",
        id="solo-with-two-players",
    ),
    pytest.param(
        start_form("automa", solo="on"), "Two players cannot have the same name: automa.", id="solo-player-named-automa"
    ),
    pytest.param(
        start_form("Alice", sectors=[("", 4)]), "Give the 1st place VP of this sector too.", id="sector-2nd-without-1st"
    ),
    pytest.param(start_form("Alice", sectors=[(100, 4)]), "At most 99.", id="sector-vp-100"),
    pytest.param(
        start_form("Alice", sectors=[(9, -1)]),
        "At least 0.",
        id="sector-vp-negative",
    ),
    pytest.param(start_form("Alice", played_on=""), "This one is needed.", id="no-date"),
    pytest.param(start_form("Alice", played_on="yesterday"), "Choose a day from the calendar.", id="not-a-date"),
    pytest.param(start_form("A" * 41), "At most 40 characters: this has 41.", id="name-too-long"),
]


@WITH_AND_WITHOUT_HTMX
@pytest.mark.parametrize(("data", "message"), START_ERRORS)
def test_start_with_invalid_input_answers_422_with_the_message_and_keeps_what_was_typed(client, headers, data, message):
    response = client.post(url("start"), data, headers=headers)

    assert response.status_code == 422
    html = page(response)
    shown = [element.text for element in html.find_all(class_="error") + html.find_all(class_="form-errors")]
    assert any(message in text for text in shown), shown
    assert html.one("input", name="player-0-name").get("value", "") == data.get("player-0-name", "")
    assert not Game.objects.exists()
    assert not Seat.objects.exists()


def test_start_refuses_a_name_that_could_hide_or_reorder_text_under_its_field_keeping_what_was_typed(client):
    """A player's name and a comb layout's (``scoring/rules/names.py``: the rule of the game file too)."""
    data = start_form("Alice", OVERRIDE, notes="A rainy night", layout_name="Base\u200bgame")

    response = client.post(url("start"), data)

    assert response.status_code == 422
    html = page(response)
    assert html.by_id("id_player-1-name_error").text == OVERRIDE_REFUSED
    assert html.by_id("id_layout_name_error").text == OVERRIDE_REFUSED.replace(
        "U+202E RIGHT-TO-LEFT OVERRIDE", "U+200B ZERO WIDTH SPACE"
    )
    assert [html.one("input", name=f"player-{row}-name")["value"] for row in (0, 1)] == ["Alice", OVERRIDE]
    assert html.one("input", name="layout_name")["value"] == "Base\u200bgame"
    assert html.one("textarea", name="notes").text == "A rainy night"
    assert not Game.objects.exists() and not CombLayout.objects.exists()


def test_start_keeps_a_players_name_on_one_line(client):
    client.post(url("start"), start_form("Ann \t Lee", "Bruno"))

    assert [name for _number, name, *_rest in seats_of(Game.objects.get())] == ["Ann Lee", "Bruno"]


@pytest.mark.parametrize(
    "missing",
    [
        "player-TOTAL_FORMS",
        "player-INITIAL_FORMS",
        "sector-TOTAL_FORMS",
        "sector-INITIAL_FORMS",
    ],
)
def test_start_without_a_formset_management_field_stores_nothing(client, missing):
    data = start_form("Alice", "Bruno")
    del data[missing]

    response = client.post(url("start"), data)

    assert response.status_code == 422
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("total_forms", "rows"),
    [
        pytest.param({"player-TOTAL_FORMS": "6"}, {f"player-{i}-name": f"P{i}" for i in range(6)}, id="six-players"),
        pytest.param({"sector-TOTAL_FORMS": "21"}, {f"sector-{i}-first": "5" for i in range(21)}, id="21-sectors"),
    ],
)
def test_start_refuses_more_rows_than_the_form_offers(client, total_forms, rows):
    """The form offers 5 players and 20 sectors (the limits of the game); a tampered TOTAL_FORMS must
    give the form's 422 answer, not a database error."""
    data = {**start_form("Alice"), **total_forms, **rows}

    response = client.post(url("start"), data)

    assert response.status_code == 422
    assert not Game.objects.exists()


def test_start_page_answers_other_methods_with_405(client):
    assert client.put(url("start")).status_code == 405


# ---------------------------------------------------------------------------------------------
# Playing again: /games/<id>/again/ (the start form filled in for the next game of the table)


def the_table(**fields) -> Game:
    """A finished game of Alice (Saha), Bruno (Capen) and Carla, in seat order, on the COMB."""
    return game_scored(
        player("Alice", farm_income=20, faction="Saha"),
        player("Bruno", farm_income=9, faction="Capen"),
        player("Carla", farm_income=5),
        finished=True,
        **fields,
    )


def player_rows(html: Element) -> list[tuple[str, str]]:
    """The start form's player rows as shown: each name and the faction chosen ("" for none)."""
    rows = []
    for position in range(5):
        chosen = html.one("select", name=f"player-{position}-faction").find("option", selected=True)
        rows.append(
            (html.one("input", name=f"player-{position}-name").get("value", ""), chosen["value"] if chosen else "")
        )
    return rows


@pytest.mark.parametrize("during", [During.TRACK, During.BREAKDOWN])
def test_play_again_fills_the_start_form_for_the_same_table_seats_moved_on_one(client, during):
    game = the_table(during=during, end_trigger_token=7)

    response = client.get(url("again", game))

    assert response.status_code == 200
    html = page(response)
    assert html.one("h1").text == "Play again"
    form = html.one("form", class_="start-form")
    assert form["action"] == url("start") and form["method"] == "post"
    assert player_rows(html) == [("Bruno", ""), ("Carla", ""), ("Alice", ""), ("", ""), ("", "")]  # factions cleared
    assert sector_inputs(html) == [(str(first), str(second)) for first, second in COMB]
    assert html.one("input", name="during", checked=True)["value"] == during.value
    assert html.one("input", name="end_trigger_token", checked=True)["value"] == "7"  # as played, on an English page
    assert html.one("input", name="solo").get("checked") is None
    assert html.by_id("play-again-note").find("p").text == (
        "Everyone moves up one seat: Bruno plays first this time, and Alice, who played first, plays last."
    )
    assert html.find(class_="error") is None and html.find(class_="form-errors") is None
    assert Game.objects.count() == 1  # nothing started yet


def test_play_again_posted_as_shown_starts_the_next_game_with_the_seats_moved_on(client, owner):
    game = the_table(during=During.TRACK, end_trigger_token=7)
    shown = page(client.get(url("again", game))).one("form", class_="start-form")

    response = client.post(url("start"), form_data(shown))

    upcoming = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == url("pad", upcoming)
    assert [(number, name) for number, name, *_ in seats_of(upcoming)] == [(1, "Bruno"), (2, "Carla"), (3, "Alice")]
    assert [seat.faction for seat in Seat.objects.filter(game=upcoming)] == ["", "", ""]
    assert sectors_of(upcoming) == list(COMB)
    assert (upcoming.during, upcoming.end_trigger_token, upcoming.owner, upcoming.is_finished) == (
        During.TRACK,
        7,
        owner,
        False,
    )
    assert upcoming.played_on == timezone.localdate()


def test_play_again_of_a_solo_game_is_the_same_player_against_the_automa_again(client):
    game = game_scored(player("Automa", automa=True), player("Alice", farm_income=9), finished=True)

    html = page(client.get(url("again", game)))

    assert html.one("input", name="solo").get("checked") is not None
    assert player_rows(html)[:2] == [("Alice", ""), ("", "")]
    assert html.by_id("play-again-note").find("p").text == ("Alice against the Automa again: the Automa keeps seat 1.")


def test_play_again_chooses_the_saved_layout_of_the_same_comb(client, owner):
    comb_layout_save(name="Big comb", sectors=[(12, 6)], owner=owner)
    comb_layout_save(name="Base game", sectors=COMB, owner=owner)
    comb_layout_save(name="Latest", sectors=[(1, 1)], owner=owner)  # the one used last: not this comb

    html = page(client.get(url("again", the_table())))

    assert html.one("select", name="layout").one("option", selected=True).text == "Base game"
    assert html.one("input", name="layout_name")["value"] == "Base game"
    assert sector_inputs(html) == [(str(first), str(second)) for first, second in COMB]


def test_a_visitor_plays_again_in_their_own_browser():
    """No account: the browser that started the game plays the next one, which is its own too."""
    phone = Client()
    game = started_on(phone, "Alice", "Bruno", sectors=((9, 4),))
    assert phone.post(url("finish", game), {"confirm": "1"}).status_code == 302
    assert play_again_links(page(phone.get(url("results", game))))[0]["href"] == url("again", game)

    shown = page(phone.get(url("again", game))).one("form", class_="start-form")
    response = phone.post(url("start"), form_data(shown))

    upcoming = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == url("pad", upcoming)
    assert [(number, name) for number, name, *_ in seats_of(upcoming)] == [(1, "Bruno"), (2, "Alice")]
    assert (upcoming.owner, upcoming.visitor) == (None, game.visitor)


def test_play_again_of_a_comb_no_layout_holds_types_it_in_as_a_new_layout(client, owner):
    comb_layout_save(name="Big comb", sectors=[(12, 6)], owner=owner)

    html = page(client.get(url("again", the_table())))

    assert html.one("select", name="layout").one("option", selected=True).text == "New layout"
    assert html.one("input", name="layout_name").get("value", "") == ""
    assert sector_inputs(html) == [(str(first), str(second)) for first, second in COMB]


# Names are text, never markup (every page: tests/views/test_every_page.py)


def test_a_players_name_is_escaped_in_the_start_forms_messages(client):
    response = client.post(url("start"), start_form(EVIL, EVIL.upper()))

    assert response.status_code == 422
    markup_only_as_text(response)
    markup_only_as_text(response, EVIL.upper())
