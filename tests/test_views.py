"""Specification of the pages, through Django's test client.

Every page and partial of ``scoring/urls.py`` is requested with and without the ``HX-Request``
header, with valid and invalid input. Pages are read as a browser would (parsed HTML: ids,
accessible names, attributes), not as strings, except where the raw bytes matter (escaping).

Several phones score one game at once, and no phone ever undoes another phone's write:

- with JavaScript, each field saves itself (``/save/``), naming the field's version it saw and
  its page and save number: 200 saved (or an older save of the same page, ignored), 409 changed
  on another phone meanwhile (nothing written), 422 refused in words, 400 not a field of the game;
  a stepper sends its change (``step``), applied to the stored value;
- without JavaScript, the pad's form posts every field with the value the page showed
  (``initial-<name>``): only the fields this phone changed are saved, each only where the stored
  value is still the one the page showed;
- other phones follow through ``/live/``: 304 while the game's revision is the one they have.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import date
from html.parser import HTMLParser

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring import services
from scoring.categories import CATEGORIES
from scoring.models import CombLayout, Game, GameSector, HibernationTokens, Seat, new_public_id
from tests.factories import COMB, game_scored, game_started, player, save_tokens, save_value, save_workers, seat_of, tokens_of, total_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(owner_client) -> Client:
    """The phone of the games' owner: these tests are about the pages themselves. Who else may
    reach a game, and what they may do, is ``tests/test_permissions.py``."""
    return owner_client

HTMX = {"HX-Request": "true"}
WITH_AND_WITHOUT_HTMX = pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
EVIL = "<script>alert(1)</script>"
EVIL_ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
# Every figure of the pad: what an htmx save and the live view send out of band (3 comb sectors).
OOB_IDS = [
    "totals", "during-subtotal", "majority-row", "end-subtotal", "comb-hints",
    "sector-0-summary", "sector-1-summary", "sector-2-summary", "ranking",
    *(f"label-{category.key}" for category in CATEGORIES),  # each row's heading: entered yet or not
]
# After a save, and in the live view, the recent changes follow the figures, out of band too.
OOB_IDS_AND_CHANGES = [*OOB_IDS, "changes"]


# ---------------------------------------------------------------------------------------------
# Reading pages: a small HTML tree (the standard library's parser; no dependency)


class Element:
    def __init__(self, tag: str, attrs: dict[str, str], parent: Element | None = None):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Element | str] = []

    def __repr__(self) -> str:
        return f"<{self.tag} {self.attrs}>"

    def __getitem__(self, name: str) -> str:
        return self.attrs[name]

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrs.get(name, default)

    def iter(self) -> Iterator[Element]:
        """This element and every element inside it, in document order."""
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.iter()

    def find_all(self, tag: str | None = None, **attrs: str | bool) -> list[Element]:
        """Elements by tag and attributes (``class_`` matches one class; True: the attribute is present)."""
        found = []
        for element in self.iter():
            if tag is not None and element.tag != tag:
                continue
            if all(_attr_matches(element, name, wanted) for name, wanted in attrs.items()):
                found.append(element)
        return found

    def find(self, tag: str | None = None, **attrs: str | bool) -> Element | None:
        found = self.find_all(tag, **attrs)
        return found[0] if found else None

    def one(self, tag: str | None = None, **attrs: str | bool) -> Element:
        found = self.find_all(tag, **attrs)
        assert len(found) == 1, f"expected one {tag or 'element'} {attrs}, found {len(found)}"
        return found[0]

    def by_id(self, element_id: str) -> Element:
        return self.one(id=element_id)

    @property
    def text(self) -> str:
        """The text inside as a screen reader reads it: white space collapsed, aria-hidden parts left out."""
        parts: list[str] = []

        def walk(element: Element) -> None:
            for child in element.children:
                if isinstance(child, str):
                    parts.append(child)
                elif child.get("aria-hidden") != "true":
                    walk(child)

        walk(self)
        return " ".join("".join(parts).split())


def _attr_matches(element: Element, name: str, wanted: str | bool) -> bool:
    if name == "class_":
        return wanted in (element.get("class") or "").split()
    name = name.replace("_", "-")
    if wanted is True:
        return name in element.attrs
    return element.get(name) == wanted


class _TreeBuilder(HTMLParser):
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {name: value or "" for name, value in attrs}, self.stack[-1])
        self.stack[-1].children.append(element)
        if tag not in self.VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag, attrs):
        element = Element(tag, {name: value or "" for name, value in attrs}, self.stack[-1])
        self.stack[-1].children.append(element)

    def handle_endtag(self, tag):
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(html: str | bytes) -> Element:
    builder = _TreeBuilder()
    builder.feed(html.decode() if isinstance(html, bytes) else html)
    builder.close()
    return builder.root


def page(response) -> Element:
    return parse(response.content)


def ancestors(element: Element) -> list[Element]:
    found = []
    while element.parent is not None:
        element = element.parent
        found.append(element)
    return found


def top_level(root: Element) -> list[Element]:
    """The elements a partial response is made of, in order (what htmx swaps)."""
    return [child for child in root.children if isinstance(child, Element)]


def labelled(root: Element, label: str) -> Element:
    """The one element whose accessible name (aria-label) is ``label``."""
    return root.one(aria_label=label)


def form_data(form: Element) -> dict[str, list[str]]:
    """What a browser posts for ``form`` as it is shown (no button pressed)."""
    data: dict[str, list[str]] = {}
    for element in form.iter():
        if element.tag not in ("input", "select", "textarea") or not element.get("name"):
            continue
        kind = element.get("type", "text")
        if kind in ("submit", "button", "image", "reset"):
            continue
        if kind in ("checkbox", "radio") and "checked" not in element.attrs:
            continue
        if element.tag == "select":
            chosen = element.find("option", selected=True) or element.find("option")
            value = chosen.get("value", chosen.text) if chosen else ""
        elif element.tag == "textarea":
            value = element.text
        else:
            value = element.get("value", "on" if kind == "checkbox" else "")
        data.setdefault(element["name"], []).append(value)
    return data


# ---------------------------------------------------------------------------------------------
# Addresses and requests


def url(name: str, game: Game | str | None = None) -> str:
    """A page's address; a game's pages are addressed by its public id."""
    if game is None:
        return reverse(f"scoring:{name}")
    return reverse(f"scoring:{name}", args=[game if isinstance(game, str) else game.public_id])


def save(client: Client, game: Game, name: str, value: str | None = None, headers: dict | None = None, *,
         step: int | str | None = None, **guard: str | int):
    """One field as the pad's script saves it: ``field``, then ``value`` as typed or ``step`` (a
    stepper's change), and what the save is based on (``version``, ``page``, ``seq``; ``player``)."""
    data = {"field": name, **{key: str(item) for key, item in guard.items()}}
    if value is not None:
        data["value"] = value
    if step is not None:
        data["step"] = str(step)
    return client.post(url("save", game), data, headers=HTMX if headers is None else headers)


def loaded(client: Client, game: Game, query: str = "") -> dict[str, list[str]]:
    """The pad's form as a phone loaded it, hidden ``initial-*`` values included: what it posts
    without JavaScript when nothing is typed."""
    return form_data(page(client.get(url("pad", game) + query)).by_id("pad"))


def typed(data: dict[str, list[str]], changes: dict[str, str | None]) -> dict[str, list[str]]:
    """The loaded form with fields typed into (None: a checkbox unticked)."""
    data = {name: list(values) for name, values in data.items()}
    for name, value in changes.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = [value]
    return data


def version_of(game: Game, number: int, key: str) -> int:
    """The stored version of a seat's field (a category key, "active_workers" or "t<position>")."""
    revision = seat_of(game, number).revisions.get(key)
    return revision[0] if revision else 0


def revision_of(game: Game) -> int:
    return Game.objects.values_list("revision", flat=True).get(pk=game.pk)


def snapshot(game: Game) -> list:
    """Everything the seats of a game store: entries, sums, workers, versions, tokens."""
    return [
        (seat.entries(), {c.key: getattr(seat, c.key) for c in CATEGORIES}, seat.sums, seat.active_workers,
         seat.revisions, tokens_of(game, seat.number), sorted(seat.tokens.values_list("sector__position", "count")))
        for seat in Seat.objects.filter(game=game).order_by("number")
    ]


def unused_game_id() -> str:
    """A public id that no game has."""
    return new_public_id()


def strict_client(user) -> Client:
    """A phone signed in as ``user`` whose posts must carry the CSRF token, as a browser's do."""
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    return strict


def entry(game: Game, number: int, key: str):
    return getattr(seat_of(game, number), key)


# ---------------------------------------------------------------------------------------------
# History: /


@WITH_AND_WITHOUT_HTMX
def test_history_without_games_invites_to_start_one(client, headers):
    response = client.get(url("history"), headers=headers)

    assert response.status_code == 200
    html = page(response)
    assert "No games yet" in html.one("p", class_="empty").text
    assert html.find("a", href=url("start")) is not None
    assert html.find("ol", class_="history") is None


@WITH_AND_WITHOUT_HTMX
def test_history_lists_games_newest_first_with_winners_marked_and_in_progress_badged(client, headers):
    older = game_scored(
        player("Alice", farm_income=30), player("Bruno", farm_income=20),
        played_on=date(2024, 5, 1), finished=True,
    )
    newer = game_scored(
        player("Carla", farm_income=5), player("Dana", farm_income=15),
        played_on=date(2024, 6, 1),
    )

    html = page(client.get(url("history"), headers=headers))

    games = html.find_all("li", class_="history-game")
    assert [game.one("span", class_="history-date").text for game in games] == ["Sat 1 Jun 2024", "Wed 1 May 2024"]
    in_progress, finished = games
    assert in_progress.one("a", class_="history-link")["href"] == url("pad", newer)
    assert in_progress.one("span", class_="badge").text == "in progress"
    assert finished.one("a", class_="history-link")["href"] == url("results", older)
    assert finished.find("span", class_="badge") is None
    assert [p.text for p in finished.find_all("span", class_="history-player")] == ["winner: Alice 30", "Bruno 20"]
    assert [p.text for p in finished.find_all("span", class_="winner")] == ["winner: Alice 30"]


def test_history_orders_games_of_the_same_day_by_creation_newest_first(client):
    first = game_started("Alice", played_on=date(2024, 5, 1))
    second = game_started("Bruno", played_on=date(2024, 5, 1))

    html = page(client.get(url("history")))

    links = [a["href"] for a in html.find_all("a", class_="history-link")]
    assert links == [url("pad", second), url("pad", first)]


def test_history_marks_every_winner_of_a_shared_victory(client):
    game_scored(
        player("Alice", farm_income=20, workers=2), player("Bruno", farm_income=20, workers=2),
        player("Carla", farm_income=10), finished=True,
    )

    html = page(client.get(url("history")))

    assert [p.text for p in html.find_all("span", class_="winner")] == ["winner: Alice 20", "winner: Bruno 20"]


# ---------------------------------------------------------------------------------------------
# Players: /players/


@WITH_AND_WITHOUT_HTMX
def test_players_without_finished_games_says_statistics_come_later(client, headers):
    game_started("Alice", "Bruno")  # in progress: not counted

    response = client.get(url("players"), headers=headers)

    assert response.status_code == 200
    assert "Statistics appear here once a game is finished." in page(response).one("p", class_="empty").text


@WITH_AND_WITHOUT_HTMX
def test_players_statistics_over_finished_games_ignoring_case_of_names(client, headers):
    game_scored(player("Alice", farm_income=40), player("Bruno", farm_income=30),
                played_on=date(2024, 5, 1), finished=True)
    game_scored(player("alice", farm_income=20), player("Bruno", farm_income=35), player("Carla", farm_income=1),
                played_on=date(2024, 5, 2), finished=True)
    game_scored(player("Bruno", farm_income=99), player("Carla", farm_income=98))  # in progress: ignored

    html = page(client.get(url("players"), headers=headers))

    rows = html.one("table", class_="stats").one("tbody").find_all("tr")
    table = [[cell.text for cell in row.children if isinstance(cell, Element)] for row in rows]
    # Player, games, wins (rate), average, best; most wins first, then most games, then name.
    assert [row[0].casefold() for row in table] == ["alice", "bruno", "carla"]
    assert [row[1:] for row in table] == [
        ["2", "1 (50%)", "30.0", "40"],
        ["2", "1 (50%)", "32.5", "35"],
        ["1", "0 (0%)", "1.0", "1"],
    ]


# ---------------------------------------------------------------------------------------------
# Starting a game: /games/new/


def start_form(*names: str, sectors=COMB, **fields: str) -> dict[str, str]:
    """The start form as a browser posts it: management fields, players, sectors, the rest."""
    data = {
        "player-TOTAL_FORMS": "5", "player-INITIAL_FORMS": "0", "player-MIN_NUM_FORMS": "5",
        "player-MAX_NUM_FORMS": "5",
        "sector-TOTAL_FORMS": "20", "sector-INITIAL_FORMS": "0", "sector-MIN_NUM_FORMS": "20",
        "sector-MAX_NUM_FORMS": "20",
        "played_on": "2024-05-01", "end_trigger_token": "7", "layout": "", "layout_name": "", "notes": "",
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
    assert html.find("input", name="end_trigger_token", value="7", checked=True) is not None


def test_start_form_offers_the_names_of_earlier_players_once_each_but_not_the_automa(client, owner):
    game_started("Alice", "Bruno")
    game_started("Alice", "bruno")
    services.game_create(players=[services.PlayerSetup("Automa", automa=True), services.PlayerSetup("Carla")],
                         sectors=COMB, owner=owner)

    html = page(client.get(url("start")))

    offered = [option["value"] for option in html.by_id("known-names").find_all("option")]
    assert offered[0] == "Alice"  # the most played first
    assert sorted(name.casefold() for name in offered) == ["alice", "bruno", "carla"]
    assert html.one("input", name="player-0-name")["list"] == "known-names"


def test_start_form_offers_saved_layouts_and_fills_in_the_latest(client, owner):
    layout = services.comb_layout_save(name="Base game", sectors=[(9, 4), (13, 0)], owner=owner)

    html = page(client.get(url("start")))

    select = html.one("select", name="layout")
    assert select.one("option", selected=True)["value"] == str(layout.pk)
    assert select.one("option", selected=True).text == "Base game"
    assert sector_inputs(html) == [("9", "4"), ("13", "0")]
    assert html.one("input", name="layout_name")["value"] == "Base game"
    assert json.loads(html.by_id("layouts-data").text) == [
        {"id": layout.pk, "name": "Base game", "sectors": [[9, 4], [13, 0]]}
    ]


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
    assert seats_of(game) == [(1, "Alice", 1, False), (2, "Bruno", 2, False), (3, "Carla", 3, False)]
    assert seat_of(game, 2).faction == "Saha"
    assert sectors_of(game) == list(COMB)
    assert (game.played_on, game.notes, game.end_trigger_token, game.finished_at) == (
        date(2024, 5, 1), "Rainy day", 7, None,
    )
    assert tokens_of(game, 1) == [0, 0, 0]
    assert not CombLayout.objects.exists()  # no layout name given: nothing saved


def test_start_skips_empty_player_rows_and_empty_sector_rows(client):
    data = start_form("Alice", "", "Carla", sectors=[])
    data.update({"sector-0-first": "9", "sector-0-second": "", "sector-2-first": "6", "sector-2-second": "3"})

    client.post(url("start"), data)

    game = Game.objects.get()
    assert seats_of(game) == [(1, "Alice", 1, False), (2, "Carla", 2, False)]
    assert sectors_of(game) == [(9, 0), (6, 3)]


def test_start_with_the_english_end_trigger_keeps_the_6th_token(client):
    client.post(url("start"), start_form("Alice", "Bruno", end_trigger_token="6"))

    assert Game.objects.get().end_trigger_token == 6


def test_start_solo_seats_the_automa_first_with_1_vp_and_the_player_second_with_2_vp(client):
    response = client.post(url("start"), start_form("Alice", solo="on"))

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


@WITH_AND_WITHOUT_HTMX
def test_use_this_layout_fills_the_sectors_in_and_keeps_everything_else_typed(client, owner, headers):
    layout = services.comb_layout_save(name="Big comb", sectors=[(12, 6), (7, 0)], owner=owner)
    typed = start_form("Alice", "Bruno", sectors=[(1, 1), (2, 2), (3, 3)], notes="Rainy", played_on="2024-03-02",
                       layout=str(layout.pk), use_layout="1")

    response = client.get(url("start"), typed, headers=headers)

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


def test_use_this_layout_on_an_empty_form_shows_no_errors(client, owner):
    layout = services.comb_layout_save(name="Big comb", sectors=[(12, 6)], owner=owner)

    response = client.get(url("start"), {"layout": str(layout.pk), "use_layout": "1"})

    html = page(response)
    assert response.status_code == 200
    assert sector_inputs(html) == [("12", "6")]
    assert html.find(class_="error") is None and html.find(class_="form-errors") is None


START_ERRORS = [
    pytest.param(start_form(), "Name at least one player.", id="no-players"),
    pytest.param(start_form("  ", " "), "Name at least one player.", id="only-blank-names"),
    pytest.param(start_form("Alice", "Bruno", "ALICE"), "Two players cannot have the same name: ALICE.",
                 id="duplicate-names-ignoring-case"),
    pytest.param(start_form("Alice", "Bruno", solo="on"),
                 "A solo game has exactly one player (the Automa is added for you).", id="solo-with-two-players"),
    pytest.param(start_form("automa", solo="on"), "Two players cannot have the same name: automa.",
                 id="solo-player-named-automa"),
    pytest.param(start_form("Alice", sectors=[("", 4)]), "Give the 1st place VP of this sector too.",
                 id="sector-2nd-without-1st"),
    pytest.param(start_form("Alice", sectors=[(100, 4)]), "Ensure this value is less than or equal to 99.",
                 id="sector-vp-100"),
    pytest.param(start_form("Alice", sectors=[(9, -1)]), "Ensure this value is greater than or equal to 0.",
                 id="sector-vp-negative"),
    pytest.param(start_form("Alice", played_on=""), "This field is required.", id="no-date"),
    pytest.param(start_form("Alice", played_on="yesterday"), "Enter a valid date.", id="not-a-date"),
    pytest.param(start_form("A" * 41), "Ensure this value has at most 40 characters (it has 41).",
                 id="name-too-long"),
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


@pytest.mark.parametrize("missing", [
    "player-TOTAL_FORMS", "player-INITIAL_FORMS", "sector-TOTAL_FORMS", "sector-INITIAL_FORMS",
])
def test_start_without_a_formset_management_field_stores_nothing(client, missing):
    data = start_form("Alice", "Bruno")
    del data[missing]

    response = client.post(url("start"), data)

    assert response.status_code == 422
    assert not Game.objects.exists()


@pytest.mark.parametrize(("total_forms", "rows"), [
    pytest.param({"player-TOTAL_FORMS": "6"}, {f"player-{i}-name": f"P{i}" for i in range(6)}, id="six-players"),
    pytest.param({"sector-TOTAL_FORMS": "21"}, {f"sector-{i}-first": "5" for i in range(21)}, id="21-sectors"),
])
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
# The pad: /games/<id>/

PAD_FIELD_COUNT = len(CATEGORIES) + len(COMB) + 1  # per player: the entries, the tokens, the workers


def pad_inputs(html: Element) -> list[Element]:
    """The pad's own fields (each has an accessible name), in document order."""
    return [el for el in html.by_id("pad").find_all("input") if el.get("aria-label")]


@WITH_AND_WITHOUT_HTMX
def test_pad_names_every_field_by_category_and_player(client, headers):
    game = game_started("Alice", "Bruno", "Carla")

    response = client.get(url("pad", game), headers=headers)

    assert response.status_code == 200
    html = page(response)
    pad = html.by_id("pad")
    for name in ("Alice", "Bruno", "Carla"):
        for category in CATEGORIES:
            assert labelled(pad, f"{category.label}, {name}").tag == "input"
        for number in (1, 2, 3):
            assert labelled(pad, f"Tokens in sector {number}, {name}").tag == "input"
        assert labelled(pad, f"Active workers, {name}").tag == "input"
    assert labelled(pad, "Farm income, Alice")["name"] == "s1-farm_income"
    assert labelled(pad, "Tokens in sector 1, Bruno")["name"] == "s2-t0"
    assert labelled(pad, "Active workers, Carla")["name"] == "s3-active_workers"
    assert labelled(pad, "Hive mat filled, Alice")["type"] == "checkbox"


def test_pad_fields_point_to_their_status_and_error_and_carry_their_version(client):
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farms", value=3)
    save_value(seat=seat_of(game, 1), key="farms", value=4)

    html = page(client.get(url("pad", game)))

    fields = pad_inputs(html)
    assert len(fields) == 2 * PAD_FIELD_COUNT
    for field in fields:
        name = field["name"]
        assert field["aria-describedby"] == f"status-{name} error-{name}"
        assert html.by_id(f"status-{name}").get("data-status") is not None
        assert html.by_id(f"error-{name}").tag == "p" and "hidden" in html.by_id(f"error-{name}").attrs
        assert "data-field" in field.attrs
        assert field["data-version"] == ("2" if name == "s1-farms" else "0")
    assert html.by_id("status-s1-farms")["data-version"] == "2"
    assert html.by_id("status-s1-farms")["data-stored"] == "4"


def test_pad_tells_its_script_where_to_save_and_to_poll_and_which_revision_it_shows(client):
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farms", value=3)

    html = page(client.get(url("pad", game)))

    pad = html.one(data_pad=True)
    assert pad["data-save-url"] == url("save", game)
    assert pad["data-live-url"] == url("live", game)
    assert pad["data-revision"] == "1" == str(revision_of(game))
    assert pad["data-game"] == game.public_id


def test_every_pad_field_posts_the_value_the_page_showed_beside_it(client):
    """Django's hidden initial (``initial-<name>``): what a plain post is compared with."""
    game = game_scored(player("Alice", starting_vp=1, farm_income=11, farms=3, hive_mat_full=True, tokens=[2, 0, 0],
                              workers=2),
                       player("Bruno", starting_vp=2))
    save_value(seat=seat_of(game, 1), key="farm_income", value=11, sum_text="3+6+2")

    html = page(client.get(url("pad", game)))

    form = html.by_id("pad")
    for field in pad_inputs(html):
        assert len(form.find_all("input", name=f"initial-{field['name']}", type="hidden")) == 1, field["name"]
    initial = {name: form.one("input", name=f"initial-{name}")["value"] for name in (
        "s1-starting_vp", "s1-farm_income", "s1-farms", "s1-hive_mat_full", "s1-t0", "s1-t1", "s1-active_workers",
        "s2-farms", "s2-hive_mat_full", "s2-t0", "s2-active_workers",
    )}
    assert initial == {
        "s1-starting_vp": "1", "s1-farm_income": "3+6+2", "s1-farms": "3", "s1-hive_mat_full": "True", "s1-t0": "2",
        "s1-t1": "0", "s1-active_workers": "2",
        "s2-farms": "", "s2-hive_mat_full": "False", "s2-t0": "", "s2-active_workers": "0",
    }


def test_a_new_games_pad_shows_every_entry_empty_except_the_starting_vp(client):
    """An entry not made yet is empty (not 0), so a phone can tell what is left to enter."""
    game = game_started("Alice", "Bruno")

    html = page(client.get(url("pad", game)))

    values = {field["name"]: field.get("value", "") for field in pad_inputs(html) if field["type"] != "checkbox"}
    assert {name: value for name, value in values.items() if value} == {"s1-starting_vp": "1", "s2-starting_vp": "2"}
    assert labelled(html, "Hive mat filled, Alice").get("checked") is None
    assert "(nobody yet)" in html.by_id("row-farms").text
    assert "not-entered" in html.by_id("row-farms")["class"].split()
    assert "(nobody yet)" not in html.by_id("row-starting_vp").text
    assert "(nobody yet)" not in html.by_id("row-hive_mat_full").text  # a yes/no is always answered


def test_a_row_is_no_longer_marked_once_someone_entered_it_even_as_0(client):
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 2), key="farms", value=0)

    html = page(client.get(url("pad", game)))

    assert "(nobody yet)" not in html.by_id("row-farms").text
    assert labelled(html, "Farms built, Bruno")["value"] == "0"
    assert labelled(html, "Farms built, Alice").get("value", "") == ""


def test_pad_shows_each_players_total_with_the_starting_vp_of_their_seat(client):
    game = game_started("Alice", "Bruno", "Carla")

    html = page(client.get(url("pad", game)))

    totals = html.by_id("totals")
    assert [labelled(totals, f"Total, {name}").text for name in ("Alice", "Bruno", "Carla")] == ["1", "2", "3"]
    assert [labelled(html, f"Starting VP, {name}")["value"] for name in ("Alice", "Bruno", "Carla")] == ["1", "2", "3"]
    assert [labelled(html, f"During the game, {name}").text for name in ("Alice", "Bruno", "Carla")] == ["1", "2", "3"]


def test_pad_shows_a_sum_as_typed_with_its_result(client):
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farm_income", value=11, sum_text="3+6+2")

    html = page(client.get(url("pad", game)))

    assert labelled(html, "Farm income, Alice")["value"] == "3+6+2"
    assert html.by_id("status-s1-farm_income").text == "= 11"
    assert labelled(html.by_id("totals"), "Total, Alice").text == "12"


@WITH_AND_WITHOUT_HTMX
def test_pad_of_one_player_shows_only_that_players_fields_and_everyones_totals(client, headers):
    game = game_started("Alice", "Bruno", "Carla")

    response = client.get(url("pad", game) + "?player=2", headers=headers)

    assert response.status_code == 200
    html = page(response)
    assert {field["name"].split("-")[0] for field in pad_inputs(html)} == {"s2"}
    assert len(pad_inputs(html)) == PAD_FIELD_COUNT
    assert [el.get("aria-label") for el in html.by_id("during-subtotal").find_all("span", class_="figure")] == [
        "During the game, Bruno",
    ]
    assert [labelled(html.by_id("totals"), f"Total, {name}").text for name in ("Alice", "Bruno", "Carla")] == [
        "1", "2", "3",
    ]
    form = html.by_id("pad")
    assert form["action"] == url("pad", game) + "?player=2"
    assert form.one("input", name="player")["value"] == "2"
    views = html.one("nav", aria_label="Whose scores to show")
    assert views.one("a", aria_current="page").text == "Bruno"


@pytest.mark.parametrize("query", ["?player=4", "?player=0", "?player=x", "?player="])
def test_pad_of_a_player_who_is_not_in_the_game_shows_everyone(client, query):
    game = game_started("Alice", "Bruno", "Carla")

    html = page(client.get(url("pad", game) + query))

    assert len(pad_inputs(html)) == 3 * PAD_FIELD_COUNT
    assert html.by_id("pad").find("input", name="player") is None


def test_pad_finish_button_is_part_of_the_pads_form_and_posts_to_finish(client):
    game = game_started("Alice", "Bruno")

    html = page(client.get(url("pad", game)))

    finish = next(button for button in html.find_all("button") if button.text == "Finish the game")
    assert finish.get("form") == "pad" or html.by_id("pad") in ancestors(finish)
    assert finish.get("formaction", html.by_id("pad")["action"]) == url("finish", game)


def test_pad_of_a_finished_game_links_to_the_results_instead_of_finishing(client):
    game = game_scored(player("Alice", farm_income=3), finished=True)

    html = page(client.get(url("pad", game)))

    assert html.find("a", href=url("results", game)) is not None
    assert not [button for button in html.find_all("button") if button.text == "Finish the game"]


@WITH_AND_WITHOUT_HTMX
@pytest.mark.parametrize("name", ["pad", "save", "live", "results", "finish", "delete"])
def test_an_unknown_game_is_404_on_every_address(client, headers, name):
    missing = unused_game_id()
    post_only = name in ("save", "finish")

    response = (client.post if post_only else client.get)(url(name, missing), headers=headers)

    assert response.status_code == 404


@WITH_AND_WITHOUT_HTMX
def test_a_game_deleted_on_another_phone_answers_404_to_every_save_and_poll(client, headers):
    game = game_started("Alice", "Bruno")
    shown = loaded(client, game)
    etag = client.get(url("live", game))["ETag"]
    services.game_delete(game=Game.objects.get(pk=game.pk))

    assert save(client, game, "s1-farms", "3", headers, version=0, page="a", seq=1).status_code == 404
    assert save(client, game, "s1-farms", headers=headers, step=1, page="a", seq=2).status_code == 404
    assert client.get(url("live", game), headers={**headers, "If-None-Match": etag}).status_code == 404
    assert client.post(url("pad", game), typed(shown, {"s1-farms": "3"}), headers=headers).status_code == 404
    assert client.post(url("finish", game), {**shown, "confirm": "1"}, headers=headers).status_code == 404
    assert not Seat.objects.filter(game_id=game.pk).exists()


def test_pad_answers_other_methods_with_405(client):
    assert client.delete(url("pad", game_started())).status_code == 405


@WITH_AND_WITHOUT_HTMX
@pytest.mark.parametrize("name", ["pad", "results", "history", "players", "live"])
def test_pages_that_show_scores_are_never_kept_in_a_cache(client, headers, name):
    """A phone going back to a pad must not show the scores of an hour ago."""
    game = game_scored(player("Alice", farm_income=3), player("Bruno"), finished=True)

    response = client.get(url(name, game if name in ("pad", "results", "live") else None), headers=headers)

    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]


def test_save_and_the_pages_refused_answers_are_never_kept_in_a_cache(client):
    game = game_started("Alice", "Bruno")

    answers = [
        save(client, game, "s1-farms", "3"),
        save(client, game, "s1-farms", "120"),
        client.post(url("pad", game), typed(loaded(client, game), {"s1-farms": "120"})),
        client.post(url("finish", game), loaded(client, game)),
    ]

    assert [answer.status_code for answer in answers] == [200, 422, 422, 200]
    assert all("no-store" in answer["Cache-Control"] for answer in answers)


# ---------------------------------------------------------------------------------------------
# Saving one field with htmx: /games/<id>/save/


def status_of(response) -> Element:
    """The field's status: the first element of an htmx save's answer (the swap target)."""
    return top_level(page(response))[0]


def error_of(response, name: str) -> Element:
    return page(response).by_id(f"error-{name}")


def test_htmx_save_answers_the_fields_status_then_its_error_and_every_figure_out_of_band(client):
    game = game_started("Alice", "Bruno", "Carla")

    response = save(client, game, "s1-farm_income", "11", version=0, page="a", seq=1)

    assert response.status_code == 200
    status, *oob = top_level(page(response))
    assert status["id"] == "status-s1-farm_income"
    assert "hx-swap-oob" not in status.attrs and "data-conflict" not in status.attrs
    assert status.text == "Saved"
    assert (status["data-version"], status["data-stored"]) == ("1", "11")
    # the figures a during-the-game entry can change (not every figure)
    assert [part["id"] for part in oob] == ["error-s1-farm_income", "during-subtotal", "totals", "ranking",
                                            "label-farm_income"]
    assert all(part["hx-swap-oob"] == "true" for part in oob)
    assert "hidden" in oob[0].attrs and oob[0].text == ""
    assert entry(game, 1, "farm_income") == 11
    assert response["X-Pad-Revision"] == "1" == str(revision_of(game))


@pytest.mark.parametrize(("field", "value", "figures"), [
    ("s2-recruits", "4", ["end-subtotal", "totals", "ranking", "label-recruits"]),
    ("s2-t1", "2", ["majority-row", "end-subtotal", "comb-hints", "sector-0-summary", "sector-1-summary",
                    "sector-2-summary", "totals", "ranking", "[data-live]"]),
    ("s2-active_workers", "3", ["ranking"]),
])
def test_a_save_answers_the_figures_its_kind_of_field_can_change(client, field, value, figures):
    game = game_started("Alice", "Bruno", "Carla")

    response = save(client, game, field, value, version=0, page="a", seq=1)

    assert response.status_code == 200
    _status, *oob = top_level(page(response))
    assert [part.get("id") or "[data-live]" for part in oob] == [f"error-{field}", *figures]


def test_a_save_from_a_page_showing_its_recent_changes_answers_them_too(client):
    game = game_started("Alice", "Bruno", "Carla")

    response = save(client, game, "s2-recruits", "4", version=0, page="a", seq=1, changes=1)

    _status, *oob = top_level(page(response))
    assert [part["id"] for part in oob] == ["error-s2-recruits", "end-subtotal", "totals", "ranking", "label-recruits",
                                            "changes"]
    assert "Bruno's Recruits built" in oob[-1].text


def test_htmx_save_sends_the_new_figures(client):
    game = game_started("Alice", "Bruno", "Carla")

    html = page(save(client, game, "s1-farm_income", "11"))

    assert labelled(html.by_id("totals"), "Total, Alice").text == "12"
    assert labelled(html.by_id("during-subtotal"), "During the game, Alice").text == "12"
    assert html.find(id="end-subtotal") is None  # a during-the-game entry cannot change it
    ranking = html.by_id("ranking").find_all("li")
    assert [item.text for item in ranking] == ["1st Alice 12 VP", "2nd Carla 3 VP", "3rd Bruno 2 VP"]
    assert ranking[0]["class"] == "winner"


def test_htmx_save_of_tokens_sends_the_sector_sentence_and_the_majorities(client):
    game = game_started("Alice", "Bruno", "Carla")

    response = save(client, game, "s2-t0", "2")

    html = page(response)
    assert tokens_of(game, 2) == [2, 0, 0]
    assert status_of(response).one(class_="vp").text == "+9"  # the VP this sector gives Bruno
    assert html.by_id("sector-0-summary").text == (
        "Bruno leads with 2 tokens: 9 VP. Nobody else has a token here, so 2nd place is not awarded."
    )
    assert labelled(html.by_id("majority-row"), "Comb majorities, Bruno").text == "9"
    assert labelled(html.by_id("end-subtotal"), "End of the game, Bruno").text == "9"
    assert labelled(html.by_id("totals"), "Total, Bruno").text == "11"
    assert html.by_id("sector-1-summary").text == "No tokens yet: nobody scores."


def test_htmx_save_of_tokens_sends_the_other_cells_of_its_sector_with_their_awards(client):
    """Tokens in a sector change the other players' awards there: a comb step's answer carries
    the sector's other cells as a poll brings them (their stored values, versions and statuses,
    not marked saved), so the phone that typed shows the awards that moved at once."""
    game = game_started("Alice", "Bruno", "Carla")
    save(client, game, "s1-t0", "2")  # Alice leads sector 1: 9 VP

    response = save(client, game, "s2-t0", "3")  # Bruno takes the lead

    assert status_of(response).one(class_="award").text == "+9"
    cells = page(response).one(data_live=True)
    items = {item["data-name"]: item for item in cells.find_all("i")}
    assert set(items) == {"s1-t0", "s3-t0"}  # the sector's other cells, not the one saved
    assert items["s1-t0"].one(class_="award").text == "+4"  # Alice is second now
    assert items["s1-t0"]["data-stored"] == "2" and items["s1-t0"]["data-version"] == "1"
    assert items["s3-t0"].find(class_="award") is None and items["s3-t0"]["data-stored"] == ""
    assert not cells.find_all(class_="saved-mark")
    assert page(save(client, game, "s1-farms", "2")).find(data_live=True) is None  # not a comb field


def test_htmx_save_answers_its_rows_heading_entered_or_not_yet(client):
    """The first value entered in a row takes "(nobody yet)" off its heading; clearing the last
    one puts it back (pad.js dims the row to match the heading's data-entered)."""
    game = game_started("Alice", "Bruno")
    first = page(save(client, game, "s2-recruits", "4")).by_id("label-recruits")
    assert first["data-entered"] == "1" and "(nobody yet)" not in first.text
    cleared = page(save(client, game, "s2-recruits", "")).by_id("label-recruits")
    assert cleared["data-entered"] == "0" and cleared.text.endswith("(nobody yet)")
    assert cleared["hx-swap-oob"] == "true"


@pytest.mark.parametrize(("name", "value", "key", "stored", "vp"), [
    pytest.param("s1-farm_income", "11", "farm_income", 11, None, id="vp-entry"),
    pytest.param("s1-carvings", "-3", "carvings", -3, None, id="negative-carvings"),
    pytest.param("s1-farms", "4", "farms", 4, "4 VP", id="count-shows-its-vp"),
    pytest.param("s1-frames_filled", "2", "frames_filled", 2, "16 VP", id="frames-8-vp-each"),
    pytest.param("s1-hive_mat_full", "1", "hive_mat_full", True, "8 VP", id="checkbox-ticked"),
    pytest.param("s1-hive_mat_full", "0", "hive_mat_full", False, "0 VP", id="checkbox-unticked"),
    pytest.param("s1-active_workers", "3", "active_workers", 3, None, id="active-workers"),
    pytest.param("s1-farm_income", "", "farm_income", None, None, id="empty-is-not-entered"),
    pytest.param("s1-farms", "", "farms", None, "0 VP", id="empty-count-is-not-entered-and-worth-0"),
    pytest.param("s1-active_workers", "", "active_workers", None, None, id="workers-not-entered"),
])
def test_htmx_save_stores_each_kind_of_field(client, name, value, key, stored, vp):
    game = game_started("Alice", "Bruno")
    for setup_key, setup_value in (("hive_mat_full", True), ("farm_income", 5), ("farms", 2)):
        save_value(seat=seat_of(game, 1), key=setup_key, value=setup_value)
    save_workers(seat=seat_of(game, 1), workers=1)

    response = save(client, game, name, value)

    assert response.status_code == 200
    status = status_of(response)
    assert status.one(class_="saved-mark").text == "Saved"
    assert (status.one(class_="vp").text if vp else status.find(class_="vp")) == vp
    assert entry(game, 1, key) == stored
    assert status["data-stored"] == ("" if stored is None else str(stored))


def test_htmx_save_of_an_empty_token_field_deletes_the_count(client):
    """Empty is "not entered", not 0: the sector has no count for the player any more."""
    game = game_scored(player("Alice", tokens=[2, 0, 1]), player("Bruno"))

    assert save(client, game, "s1-t0", "").status_code == 200
    assert save(client, game, "s1-t1", "0").status_code == 200

    assert tokens_of(game, 1) == [0, 0, 1]
    assert sorted(HibernationTokens.objects.filter(seat__game=game).values_list("sector__position", "count")) == [
        (1, 0), (2, 1),
    ]


def test_htmx_save_of_a_sum_stores_its_value_and_keeps_the_text(client):
    game = game_started("Alice", "Bruno")

    response = save(client, game, "s1-farm_income", "3+6+2")

    seat = seat_of(game, 1)
    assert (seat.farm_income, seat.sums) == (11, {"farm_income": "3+6+2"})
    assert status_of(response).one(class_="sum-result").text == "= 11"
    assert status_of(response)["data-stored"] == "3+6+2"
    assert labelled(page(client.get(url("pad", game))), "Farm income, Alice")["value"] == "3+6+2"


def test_htmx_save_of_4_plus_4_stores_8_and_keeps_the_sum_text(client):
    game = game_started("Alice", "Bruno")

    response = save(client, game, "s1-recruits", "4+4")

    assert response.status_code == 200
    seat = seat_of(game, 1)
    assert (seat.recruits, seat.sums) == (8, {"recruits": "4+4"})
    assert total_of(game, 1) == 1 + 8
    assert labelled(page(client.get(url("pad", game))), "Recruits built, Alice")["value"] == "4+4"


def test_htmx_save_of_a_sum_keeps_it_without_spaces_and_with_plain_signs(client):
    game = game_started("Alice", "Bruno")

    save(client, game, "s1-farm_income", " 14 \u2212 3 ")

    seat = seat_of(game, 1)
    assert (seat.farm_income, seat.sums) == (11, {"farm_income": "14-3"})


def test_htmx_save_of_a_plain_number_forgets_the_earlier_sum(client):
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farm_income", "3+6+2")

    save(client, game, "s1-farm_income", "5")

    seat = seat_of(game, 1)
    assert (seat.farm_income, seat.sums) == (5, {})


INVALID_VALUES = [
    pytest.param("s1-farm_income", "abc", "Type a whole number, such as 12, or a sum, such as 3+6+2.", id="letters"),
    pytest.param("s1-farm_income", "2+", "Type a whole number, such as 12, or a sum, such as 3+6+2.",
                 id="unfinished-sum"),
    pytest.param("s1-farm_income", "1.5", "Type a whole number, such as 12, or a sum, such as 3+6+2.",
                 id="decimal"),
    pytest.param("s1-farm_income", "\u0663", "Type the digits 0 to 9 (not \u0663).", id="arabic-indic-digit"),
    pytest.param("s1-farm_income", "\uff11\uff12", "Type the digits 0 to 9 (not \uff11\uff12).", id="fullwidth-digits"),
    pytest.param("s1-farms", "120", "Must be from 0 to 99, not 120.", id="120-farms"),
    pytest.param("s1-farms", "90+20", "90+20 makes 110; this must be from 0 to 99.", id="sum-out-of-range"),
    pytest.param("s1-explore_tokens", "-1", "Must be from 0 to 999, not -1.", id="negative-explore-tokens"),
    pytest.param("s1-carvings", "-100", "Must be from -99 to 999, not -100.", id="carvings-below-minus-99"),
    pytest.param("s1-frames_filled", "16", "Must be from 0 to 15, not 16.", id="16-frames"),
    pytest.param("s2-t0", "8", "Must be from 0 to 7, not 8.", id="8-tokens-in-a-sector"),
    pytest.param("s2-t0", "3+1", "Type a whole number.", id="tokens-as-a-sum"),
    pytest.param("s2-t0", "x", "Type a whole number.", id="tokens-not-a-number"),
    pytest.param("s2-t0", "\u0663", "Type the digits 0 to 9 (not \u0663).", id="tokens-other-digit"),
    pytest.param("s1-active_workers", "5", "Must be from 0 to 4, not 5.", id="5-active-workers"),
]
LABELS = {"s1-farm_income": "Farm income, Alice", "s1-farms": "Farms built, Alice",
          "s1-explore_tokens": "Explore token bonuses, Alice", "s1-carvings": "Conditions on carvings built, Alice",
          "s1-frames_filled": "Frames filled, Alice", "s2-t0": "Tokens in sector 1, Bruno",
          "s1-active_workers": "Active workers, Alice"}


@pytest.mark.parametrize(("name", "value", "message"), INVALID_VALUES)
def test_htmx_save_of_invalid_input_answers_422_with_the_message_naming_player_and_category(
    client, name, value, message
):
    game = game_started("Alice", "Bruno", "Carla")
    save_value(seat=seat_of(game, 1), key="farm_income", value=7, sum_text="3+4")
    before, revision = snapshot(game), revision_of(game)

    response = save(client, game, name, value, version=0, page="a", seq=1)

    assert response.status_code == 422
    status, *rest = top_level(page(response))
    assert status["id"] == f"status-{name}" and "data-conflict" not in status.attrs
    assert [part["id"] for part in rest] == [f"error-{name}"], "an invalid value changes no figure"
    assert rest[0]["hx-swap-oob"] == "true" and "hidden" not in rest[0].attrs
    assert rest[0].one("b").text == f"{LABELS[name]}:"
    assert rest[0].text == f"{LABELS[name]}: {message}"
    assert (snapshot(game), revision_of(game)) == (before, revision)
    assert response["X-Pad-Revision"] == str(revision)


def test_htmx_save_refuses_tokens_beyond_the_7_a_player_owns_in_all_sectors(client):
    game = game_scored(player("Alice", tokens=[4, 0, 0]), player("Bruno"))

    response = save(client, game, "s1-t1", "4")

    assert response.status_code == 422
    assert error_of(response, "s1-t1").text == (
        "Tokens in sector 2, Alice: Alice owns only 7 hibernation tokens and has 4 in other sectors: at most 3 here."
    )
    assert tokens_of(game, 1) == [4, 0, 0]
    assert save(client, game, "s1-t1", "3").status_code == 200
    assert tokens_of(game, 1) == [4, 3, 0]


@WITH_AND_WITHOUT_HTMX
@pytest.mark.parametrize("data", [
    pytest.param({"field": "s9-farm_income", "value": "3"}, id="no-such-seat"),
    pytest.param({"field": "s1-t3", "value": "3"}, id="no-such-sector"),
    pytest.param({"field": "s1-nonsense", "value": "3"}, id="no-such-category"),
    pytest.param({"field": "farm_income", "value": "3"}, id="no-seat"),
    pytest.param({"value": "3"}, id="field-missing"),
    pytest.param({"field": "", "value": "3"}, id="field-empty"),
    pytest.param({"field": "s1-farm_income"}, id="neither-value-nor-step"),
    pytest.param({"field": "s1-farm_income", "s1-farm_income": "3"}, id="value-under-the-fields-name"),
    pytest.param({"field": "s1-farms", "step": "0"}, id="step-0"),
    pytest.param({"field": "s1-farms", "step": "21"}, id="step-above-20"),
    pytest.param({"field": "s1-farms", "step": "-21"}, id="step-below-minus-20"),
    pytest.param({"field": "s1-farms", "step": "x"}, id="step-not-a-number"),
    pytest.param({"field": "s1-farms", "step": "1.5"}, id="step-not-whole"),
    pytest.param({"field": "s1-farms", "step": ""}, id="step-empty"),
])
def test_htmx_save_of_no_field_of_the_game_or_no_value_is_400_and_stores_nothing(client, headers, data):
    game = game_started("Alice", "Bruno")
    before = snapshot(game)

    response = client.post(url("save", game), {**data, "version": "0", "page": "a", "seq": "1"}, headers=headers)

    assert response.status_code == 400
    assert response.content.decode() == "This field is not part of the game."
    assert snapshot(game) == before
    assert revision_of(game) == 0


@pytest.mark.parametrize("name", [
    pytest.param("s01-farm_income", id="seat-with-leading-zero"),
    pytest.param("s1-t00", id="sector-with-leading-zero"),
    pytest.param("s\u0661-farm_income", id="seat-in-arabic-indic-digits"),
])
def test_htmx_save_accepts_a_field_only_under_its_own_name(client, name):
    """A name that only looks like a field ("s01-…" for "s1-…") is not one: answered 400 and not saved,
    as otherwise the status partial is rendered for no cell (id="status-")."""
    game = game_started("Alice", "Bruno")

    response = client.post(url("save", game), {"field": name, "value": "3"}, headers=HTMX)

    assert response.status_code == 400
    assert entry(game, 1, "farm_income") is None
    assert tokens_of(game, 1) == [0, 0, 0]


# -- what a save is based on: versions, pages and save numbers --------------------------------


def test_htmx_save_based_on_the_version_the_page_saw_is_saved_and_answers_the_new_version(client):
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "3", version=0, page="a", seq=1)

    response = save(client, game, "s1-farms", "5", version=1, page="b", seq=1)

    assert response.status_code == 200
    assert (status_of(response)["data-version"], status_of(response)["data-stored"]) == ("2", "5")
    assert entry(game, 1, "farms") == 5
    assert seat_of(game, 1).revisions["farms"] == [2, "b", 1]


@WITH_AND_WITHOUT_HTMX
def test_htmx_save_based_on_an_old_version_from_another_page_is_a_conflict_and_writes_nothing(client, headers):
    """Phone A saved Alice's farms (10) while phone B, which still showed version 0, typed 7."""
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "10", version=0, page="phone-a", seq=1)
    before, revision = snapshot(game), revision_of(game)

    response = save(client, game, "s1-farms", "7", headers, version=0, page="phone-b", seq=1)

    assert (snapshot(game), revision_of(game)) == (before, revision)
    assert entry(game, 1, "farms") == 10
    if headers:
        assert response.status_code == 409
        status, *oob = top_level(page(response))
        assert status["id"] == "status-s1-farms"
        assert "data-conflict" in status.attrs
        assert (status["data-version"], status["data-stored"]) == ("1", "10")
        assert status.find(class_="saved-mark") is None
        error = oob[0]
        assert error["id"] == "error-s1-farms" and "hidden" not in error.attrs
        assert error.text.startswith(
            "Farms built, Alice: changed on another phone to 10 while you were typing, so yours was not saved."
        )
        assert [(b["data-resolve"], b.text) for b in error.find_all("button")] == [("mine", "Keep mine"),
                                                                                    ("theirs", "Use 10")]
        # the figures of that kind of field as stored, to show them (the poll brings the rest)
        assert [part["id"] for part in oob[1:]] == ["end-subtotal", "totals", "ranking", "label-farms"]
        assert response["X-Pad-Revision"] == str(revision)
    else:
        assert response.status_code == 302
        assert response["Location"] == url("pad", game) + "#f-s1-farms"


def test_htmx_conflict_on_a_field_cleared_elsewhere_offers_the_empty_value(client):
    game = game_scored(player("Alice", tokens=[2, 0, 0]), player("Bruno"))
    save(client, game, "s1-t0", "", version=0, page="phone-a", seq=1)

    response = save(client, game, "s1-t0", "3", version=0, page="phone-b", seq=1)

    assert response.status_code == 409
    assert status_of(response)["data-stored"] == ""
    assert "changed on another phone to — while you were typing" in error_of(response, "s1-t0").text
    assert tokens_of(game, 1) == [0, 0, 0]


def test_htmx_save_of_a_page_that_sent_it_before_hearing_back_from_its_earlier_save_is_saved(client):
    """The page's own newer version is no conflict: its saves 1 and 2 both name version 0."""
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "3", version=0, page="a", seq=1)

    response = save(client, game, "s1-farms", "4", version=0, page="a", seq=2)

    assert response.status_code == 200
    assert entry(game, 1, "farms") == 4


def test_htmx_save_of_the_same_page_arriving_after_its_newer_save_is_ignored_with_200(client):
    """Superseded: the older value never overwrites the newer one; the answer shows what is stored."""
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "5", version=0, page="a", seq=2)

    response = save(client, game, "s1-farms", "4", version=0, page="a", seq=1)

    assert response.status_code == 200
    assert (status_of(response)["data-stored"], status_of(response)["data-version"]) == ("5", "1")
    assert entry(game, 1, "farms") == 5
    assert revision_of(game) == 1


def test_htmx_save_retried_is_applied_once(client):
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "5", version=0, page="a", seq=3)

    assert save(client, game, "s1-farms", "5", version=0, page="a", seq=3).status_code == 200

    assert seat_of(game, 1).revisions["farms"] == [1, "a", 3]
    assert revision_of(game) == 1


def test_htmx_save_without_a_version_is_not_checked(client):
    """What an older script or a tool sends: the value is saved whatever is stored."""
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "5", version=0, page="a", seq=1)

    assert save(client, game, "s1-farms", "6", page="b", seq=1).status_code == 200
    assert entry(game, 1, "farms") == 6


# -- steppers --------------------------------------------------------------------------------


def test_htmx_step_applies_the_change_to_the_stored_value(client):
    game = game_started("Alice", "Bruno")

    first = save(client, game, "s1-farms", step=1, page="a", seq=1)
    second = save(client, game, "s1-farms", step="+3", page="a", seq=2)
    third = save(client, game, "s1-farms", step=-1, page="a", seq=3)

    assert [answer.status_code for answer in (first, second, third)] == [200, 200, 200]
    assert [status_of(answer)["data-stored"] for answer in (first, second, third)] == ["1", "4", "3"]
    assert entry(game, 1, "farms") == 3
    assert total_of(game, 1) == 1 + 3


@WITH_AND_WITHOUT_HTMX
def test_two_stale_htmx_steps_from_two_pages_that_saw_1_make_3(client, headers):
    """Both phones showed 1 and tapped +: steps carry the change, so no tap is lost (no conflict)."""
    game = game_scored(player("Alice", farms=1), player("Bruno"))

    first = save(client, game, "s1-farms", headers=headers, step=1, version=0, page="phone-a", seq=1)
    second = save(client, game, "s1-farms", headers=headers, step=1, version=0, page="phone-b", seq=1)

    assert [first.status_code, second.status_code] == ([200, 200] if headers else [302, 302])
    assert entry(game, 1, "farms") == 3


def test_htmx_step_retried_is_applied_once(client):
    game = game_scored(player("Alice", farms=1), player("Bruno"))

    save(client, game, "s1-farms", step=1, page="a", seq=4)
    again = save(client, game, "s1-farms", step=1, page="a", seq=4)

    assert again.status_code == 200
    assert entry(game, 1, "farms") == 2


@pytest.mark.parametrize(("name", "start", "step", "expected"), [
    pytest.param("s1-farms", None, -1, "", id="minus-on-empty-farms-leaves-it-empty"),
    pytest.param("s1-farms", "98", 5, "99", id="farms-up-to-99"),
    pytest.param("s1-frames_filled", "14", 20, "15", id="frames-up-to-15"),
    pytest.param("s1-t0", "6", 3, "7", id="tokens-up-to-7"),
    pytest.param("s1-active_workers", "4", 1, "4", id="workers-up-to-4"),
    pytest.param("s1-active_workers", None, 2, "2", id="workers-from-empty"),
])
def test_htmx_step_stops_at_the_fields_limits(client, name, start, step, expected):
    game = game_started("Alice", "Bruno")
    if start is not None:
        save(client, game, name, start)

    response = save(client, game, name, step=step, page="a", seq=1)

    assert response.status_code == 200
    assert status_of(response)["data-stored"] == expected


def test_htmx_step_beyond_the_7_tokens_a_player_owns_is_refused_in_words(client):
    game = game_scored(player("Alice", tokens=[4, 3, 0]), player("Bruno"))

    response = save(client, game, "s1-t2", step=1, page="a", seq=1)

    assert response.status_code == 422
    assert error_of(response, "s1-t2").text == (
        "Tokens in sector 3, Alice: Alice owns only 7 hibernation tokens and has 7 in other sectors: at most 0 here."
    )
    assert tokens_of(game, 1) == [4, 3, 0]


# -- without htmx, methods, CSRF -------------------------------------------------------------


def test_htmx_save_without_htmx_saves_and_redirects_back_to_the_field(client):
    game = game_started("Alice", "Bruno")

    response = save(client, game, "s1-farm_income", "3+6+2", headers={})

    assert response.status_code == 302
    assert response["Location"] == url("pad", game) + "#f-s1-farm_income"
    assert response.content == b""
    assert entry(game, 1, "farm_income") == 11


def test_htmx_save_without_htmx_of_an_invalid_value_redirects_and_stores_nothing(client):
    game = game_started("Alice", "Bruno")

    response = save(client, game, "s1-farms", "120", headers={})

    assert response.status_code == 302
    assert response["Location"] == url("pad", game) + "#f-s1-farms"
    assert entry(game, 1, "farms") is None


@WITH_AND_WITHOUT_HTMX
def test_htmx_save_refuses_get_with_405(client, headers):
    game = game_started("Alice", "Bruno")

    response = client.get(url("save", game), {"field": "s1-farms", "value": "3"}, headers=headers)

    assert response.status_code == 405
    assert entry(game, 1, "farms") is None


@WITH_AND_WITHOUT_HTMX
def test_htmx_save_without_a_csrf_token_is_refused_with_403(owner, headers):
    game = game_started("Alice", "Bruno")
    strict = strict_client(owner)

    response = strict.post(url("save", game), {"field": "s1-farms", "value": "3"}, headers=headers)

    assert response.status_code == 403
    assert entry(game, 1, "farms") is None


def test_htmx_save_with_the_pages_csrf_token_in_the_header_is_accepted(owner):
    game = game_started("Alice", "Bruno")
    strict = strict_client(owner)
    pad = page(strict.get(url("pad", game)))
    token = pad.by_id("pad").one("input", name="csrfmiddlewaretoken")["value"]  # what the pad's script sends

    response = strict.post(url("save", game), {"field": "s1-farms", "value": "3"},
                           headers={**HTMX, "X-CSRFToken": token})

    assert response.status_code == 200
    assert entry(game, 1, "farms") == 3


def test_htmx_save_in_the_one_player_view_sends_the_figures_of_that_view(client):
    """The pad's script sends ``player`` with every save of the "one player at a time" view. The
    out-of-band rows replace the page's rows, so they must hold the same cells: only that player's
    (as the live view sends them), not a column for every player in a one-column grid."""
    game = game_started("Alice", "Bruno", "Carla")
    shown = page(client.get(url("pad", game) + "?player=2"))

    response = save(client, game, "s2-t0", "2", version=0, page="a", seq=1, player=2)

    assert response.status_code == 200
    html = page(response)
    for row in ("majority-row", "end-subtotal"):
        figures = [el["aria-label"] for el in html.by_id(row).find_all("span", class_="figure")]
        assert figures == [el["aria-label"] for el in shown.by_id(row).find_all("span", class_="figure")], row
    assert [labelled(html.by_id("totals"), f"Total, {n}").text for n in ("Alice", "Bruno", "Carla")] == ["1", "11", "3"]


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


@WITH_AND_WITHOUT_HTMX
def test_save_all_saves_only_the_fields_this_phone_changed(client, headers):
    game = game_scored(player("Alice", farms=3, workers=1, tokens=[1, 0, 0]), player("Bruno", farm_income=4))
    shown = loaded(client, game)
    before = snapshot(game)

    response = client.post(url("pad", game), typed(shown, {"s2-farms": "4"}), headers=headers)

    assert response.status_code == 302
    assert response["Location"] == url("pad", game)
    assert entry(game, 2, "farms") == 4
    assert seat_of(game, 2).revisions == {"farms": [1, "", 0]}  # no other field was written
    assert snapshot(game)[0] == before[0]
    assert revision_of(game) == 1


def test_save_all_keeps_what_another_phone_saved_meanwhile_in_fields_this_phone_did_not_change(client):
    """Phone B loaded the pad; phone A saved Alice's farms and recruits; B saves Bruno's farms."""
    game = game_started("Alice", "Bruno")
    phone_b = loaded(client, game)
    save(client, game, "s1-farms", "10", version=0, page="phone-a", seq=1)
    save(client, game, "s1-recruits", "20", version=0, page="phone-a", seq=2)

    response = client.post(url("pad", game), typed(phone_b, {"s2-farms": "4"}))

    assert response.status_code == 302
    assert (entry(game, 1, "farms"), entry(game, 1, "recruits"), entry(game, 2, "farms")) == (10, 20, 4)


@WITH_AND_WITHOUT_HTMX
def test_save_all_refuses_a_field_another_phone_changed_meanwhile_and_keeps_what_was_typed(client, headers):
    game = game_started("Alice", "Bruno")
    phone_b = loaded(client, game)
    save(client, game, "s1-farms", "10", version=0, page="phone-a", seq=1)

    response = client.post(url("pad", game), typed(phone_b, {"s1-farms": "7", "s2-farms": "2"}), headers=headers)

    assert response.status_code == 422
    html = page(response)
    assert "Some values were not saved" in html.one(class_="form-errors").text
    field = labelled(html, "Farms built, Alice")
    assert field["value"] == "7"  # what B typed stays in the input
    assert field["aria-invalid"] == "true"
    assert html.by_id("error-s1-farms").text == (
        "Farms built, Alice: Changed on another phone to 10 while you were typing: yours was not saved. "
        "Save again to replace it."
    )
    assert html.by_id("pad").one("input", name="initial-s1-farms")["value"] == "10"  # now based on A's value
    assert (entry(game, 1, "farms"), entry(game, 2, "farms")) == (10, 2)  # A's value kept, B's other change saved
    assert labelled(html, "Farms built, Bruno")["value"] == "2"

    again = client.post(url("pad", game), form_data(html.by_id("pad")))  # "Save again to replace it."

    assert again.status_code == 302
    assert entry(game, 1, "farms") == 7


def test_save_all_refuses_a_checkbox_another_phone_changed_meanwhile(client):
    game = game_started("Alice", "Bruno")
    phone_b = loaded(client, game)
    save(client, game, "s1-hive_mat_full", "1", version=0, page="phone-a", seq=1)
    save(client, game, "s1-hive_mat_full", "0", version=1, page="phone-a", seq=2)
    save(client, game, "s1-farms", "2", version=0, page="phone-a", seq=3)

    response = client.post(url("pad", game), typed(phone_b, {"s1-hive_mat_full": "1", "s1-farms": "3"}))

    # The checkbox is back to what B saw (no): B's tick is saved. The farms changed: refused.
    assert response.status_code == 422
    assert entry(game, 1, "hive_mat_full") is True
    assert entry(game, 1, "farms") == 2
    assert page(response).by_id("error-s1-farms").text.startswith("Farms built, Alice: Changed on another phone to 2")


def test_save_all_can_clear_a_field_back_to_not_entered(client):
    game = game_scored(player("Alice", farms=3, workers=2, tokens=[2, 1, 0]), player("Bruno"))

    response = client.post(url("pad", game), typed(loaded(client, game), {
        "s1-farms": "", "s1-active_workers": "", "s1-t0": "",
    }))

    assert response.status_code == 302
    assert (entry(game, 1, "farms"), entry(game, 1, "active_workers")) == (None, None)
    assert sorted(HibernationTokens.objects.filter(seat__game=game).values_list("sector__position", "count")) == [
        (1, 1), (2, 0),
    ]


@WITH_AND_WITHOUT_HTMX
def test_a_post_without_the_hidden_initial_values_saves_every_field_it_holds(client, headers):
    """A post that does not say what the page showed (not the pad's own form) is not checked."""
    game = game_started("Alice", "Bruno", "Carla")

    response = client.post(url("pad", game), {
        "s1-farm_income": "3+6+2", "s2-farms": "4", "s1-hive_mat_full": "1", "s3-carvings": "-2", "s2-t0": "2",
        "s1-t0": "1", "s1-active_workers": "3", "unknown": "x", "s9-farms": "3",
    }, headers=headers)

    assert response.status_code == 302
    assert response["Location"] == url("pad", game)
    alice, bruno, carla = (seat_of(game, n) for n in (1, 2, 3))
    assert (alice.farm_income, alice.sums, alice.hive_mat_full, alice.active_workers) == (
        11, {"farm_income": "3+6+2"}, True, 3,
    )
    assert (bruno.farms, bruno.hive_mat_full, carla.carvings) == (4, False, -2)
    assert tokens_of(game, 1) == [1, 0, 0] and tokens_of(game, 2) == [2, 0, 0]
    assert total_of(game, 2) == 2 + 4 + 9


def test_save_all_of_4_plus_4_stores_8_and_keeps_the_sum_text(client):
    game = game_started("Alice", "Bruno")

    response = client.post(url("pad", game), typed(loaded(client, game), {"s2-recruits": "4 + 4"}))

    assert response.status_code == 302
    assert (entry(game, 2, "recruits"), seat_of(game, 2).sums) == (8, {"recruits": "4+4"})
    assert labelled(page(client.get(url("pad", game))), "Recruits built, Bruno")["value"] == "4+4"


@pytest.mark.parametrize("digits", ["\u0663", "\uff11\uff12", "1\u0663"])
def test_save_all_refuses_digits_other_than_0_to_9(client, digits):
    game = game_started("Alice", "Bruno")

    response = client.post(url("pad", game), typed(loaded(client, game), {"s1-farm_income": digits}))

    assert response.status_code == 422
    html = page(response)
    assert html.by_id("error-s1-farm_income").text == f"Farm income, Alice: Type the digits 0 to 9 (not {digits})."
    assert labelled(html, "Farm income, Alice")["value"] == digits
    assert entry(game, 1, "farm_income") is None


# -- stepper buttons without JavaScript ------------------------------------------------------


def press(client: Client, game: Game, data: dict[str, list[str]], name: str, step: str, query: str = ""):
    """A stepper button of the loaded form pressed (its name and value are posted with the form)."""
    return client.post(url("pad", game) + query, {**data, "step": f"{name}:{step}"})


@pytest.mark.parametrize(("name", "start", "step", "key", "expected"), [
    pytest.param("s1-farms", 3, "+1", "farms", 4, id="farms-plus"),
    pytest.param("s1-farms", 3, "-1", "farms", 2, id="farms-minus"),
    pytest.param("s1-frames_filled", None, "+1", "frames_filled", 1, id="empty-frames-plus"),
    pytest.param("s1-active_workers", 2, "+1", "active_workers", 3, id="workers-plus"),
    pytest.param("s1-active_workers", None, "-1", "active_workers", None, id="empty-workers-minus-stays-empty"),
])
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


def test_pad_stepper_button_steps_sector_tokens(client):
    game = game_scored(player("Alice"), player("Bruno", tokens=[0, 2, 0]))

    press(client, game, loaded(client, game), "s2-t1", "+1")

    assert tokens_of(game, 2) == [0, 3, 0]


def test_two_stale_stepper_buttons_from_two_pages_that_saw_1_make_3(client):
    """Without JavaScript too, a stepper steps the stored value: both phones' taps count."""
    game = game_scored(player("Alice", farms=1), player("Bruno"))
    phone_a, phone_b = loaded(client, game), loaded(client, game)

    first = press(client, game, phone_a, "s1-farms", "+1")
    second = press(client, game, phone_b, "s1-farms", "+1")

    assert (first.status_code, second.status_code) == (302, 302)
    assert entry(game, 1, "farms") == 3


@pytest.mark.parametrize(("name", "start", "step", "expected"), [
    pytest.param("s1-farms", "0", "-1", "0", id="minus-at-0-farms"),
    pytest.param("s1-t0", "7", "+1", "7", id="plus-at-7-tokens"),
    pytest.param("s1-active_workers", "4", "+1", "4", id="plus-at-4-workers"),
])
def test_pad_stepper_button_without_javascript_stops_at_the_fields_limits(client, name, start, step, expected):
    """As with JavaScript, a "−" at the lowest value or a "+" at the highest leaves the field as it
    is instead of answering an error the player never typed."""
    game = game_started("Alice", "Bruno")
    save(client, game, name, start)

    response = press(client, game, loaded(client, game), name, step)

    assert response.status_code == 302
    assert page(client.get(url("pad", game))).by_id("pad").one("input", name=name)["value"] == expected


def test_pad_stepper_button_on_a_field_just_typed_steps_from_what_was_typed(client):
    game = game_scored(player("Alice", farms=1), player("Bruno"))

    response = press(client, game, typed(loaded(client, game), {"s1-farms": "3+2"}), "s1-farms", "+1")

    assert response.status_code == 302
    assert entry(game, 1, "farms") == 6


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


@WITH_AND_WITHOUT_HTMX
def test_pad_form_post_with_invalid_values_answers_422_keeping_the_typed_text_and_saving_the_rest(client, headers):
    game = game_started("Alice", "Bruno")

    response = client.post(url("pad", game), typed(loaded(client, game), {
        "s1-farm_income": "3+6+2", "s1-farms": "120", "s2-explore_tokens": "abc", "s2-t0": "2",
    }), headers=headers)

    assert response.status_code == 422
    html = page(response)
    assert "Some values were not saved" in html.one(class_="form-errors").text
    for name, text, message in [
        ("s1-farms", "120", "Farms built, Alice: Must be from 0 to 99, not 120."),
        ("s2-explore_tokens", "abc",
         "Explore token bonuses, Bruno: Type a whole number, such as 12, or a sum, such as 3+6+2."),
    ]:
        field = html.one("input", name=name)
        assert field["value"] == text
        assert field["aria-invalid"] == "true"
        assert html.by_id(f"error-{name}").text == message
        assert f"error-{name}" in field["aria-describedby"].split()
    assert (entry(game, 1, "farm_income"), entry(game, 1, "farms"), entry(game, 2, "explore_tokens")) == (
        11, None, None,
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
    game = game_started("Alice", "Bruno")

    response = client.post(url("pad", game), typed(loaded(client, game), {"s1-t0": "5", "s1-t1": "3"}))

    assert response.status_code == 422
    html = page(response)
    assert html.by_id("error-s1-t1").text == (
        "Tokens in sector 2, Alice: Alice owns only 7 hibernation tokens and has 5 in other sectors: at most 2 here."
    )
    assert html.one("input", name="s1-t1")["value"] == "3"
    assert tokens_of(game, 1) == [5, 0, 0]


@WITH_AND_WITHOUT_HTMX
def test_pad_form_post_of_the_one_player_view_returns_to_that_view(client, headers):
    game = game_started("Alice", "Bruno", "Carla")
    shown = loaded(client, game, "?player=3")
    assert {name.split("-")[0] for name in shown if name.startswith("s")} == {"s3"}

    response = client.post(url("pad", game) + "?player=3", typed(shown, {"s3-farms": "2"}), headers=headers)

    assert response.status_code == 302
    assert response["Location"] == url("pad", game) + "?player=3"
    assert entry(game, 3, "farms") == 2
    assert [seat.revisions for seat in Seat.objects.filter(game=game).order_by("number")] == [
        {}, {}, {"farms": [1, "", 0]},
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
    assert [part["id"] for part in oob] == OOB_IDS_AND_CHANGES
    without = top_level(page(client.get(url("live", game), headers=headers)))[1:]  # its changes folded away
    assert [part["id"] for part in without] == OOB_IDS
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
        "13", "2", "16",
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

    response = client.get(url("live", game), headers={**HTMX, "If-None-Match": etag})

    assert response.status_code == 200
    assert response["ETag"] == '"rev-1"'
    item = page(response).by_id("live-values").one("i", data_name="s2-farms")
    assert (item["data-version"], item["data-stored"]) == ("1", "4")
    assert client.get(url("live", game), headers={"If-None-Match": response["ETag"]}).status_code == 304


@pytest.mark.parametrize("write", [
    pytest.param(lambda game: save_tokens(seat=seat_of(game, 1), sector=game.sectors.first(), count=None),
                 id="token-count-cleared"),
    pytest.param(lambda game: save_workers(seat=seat_of(game, 1), workers=0), id="workers"),
    pytest.param(lambda game: services.game_finish(game=game), id="finished"),
])
def test_live_sees_every_kind_of_change(client, write):
    game = game_scored(player("Alice", tokens=[1, 0, 0], workers=2), player("Bruno"))  # each write changes it
    etag = client.get(url("live", game))["ETag"]

    write(game)

    assert client.get(url("live", game), headers={"If-None-Match": etag}).status_code == 200


def test_live_ignores_a_refused_or_ignored_save(client):
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "3", version=0, page="phone-a", seq=2)
    etag = client.get(url("live", game))["ETag"]

    save(client, game, "s1-farms", "120")  # refused
    save(client, game, "s1-farms", "4", version=0, page="phone-b", seq=1)  # conflict
    save(client, game, "s1-farms", "2", version=0, page="phone-a", seq=1)  # superseded

    assert client.get(url("live", game), headers={"If-None-Match": etag}).status_code == 304


def test_a_304_live_poll_costs_at_most_three_queries(client, django_assert_max_num_queries):
    """The session, the signed-in user and the game (its revision): nothing of the scores."""
    game = game_scored(player("Alice", farms=3, tokens=[1, 2, 0]), player("Bruno"), player("Carla"))
    etag = client.get(url("live", game))["ETag"]

    with django_assert_max_num_queries(3):
        response = client.get(url("live", game), headers={**HTMX, "If-None-Match": etag})

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


# ---------------------------------------------------------------------------------------------
# Results: /games/<id>/results/


def shared_victory_game(**kwargs) -> Game:
    """Alice and Bruno: 20 VP of farm income and a tie for 1st in sector 1 (13 VP shared, 6 each), 2 workers
    each; Carla: 5 VP and sector 2 alone (13 VP), 4 workers. Totals 26, 26, 18."""
    return game_scored(
        player("Alice", farm_income=20, workers=2, tokens=[2, 0, 0], faction="Saha"),
        player("Bruno", farm_income=20, workers=2, tokens=[2, 0, 0]),
        player("Carla", farm_income=5, workers=4, tokens=[0, 1, 0]),
        played_on=date(2024, 5, 1), **kwargs,
    )


@WITH_AND_WITHOUT_HTMX
def test_results_rank_a_shared_victory_with_shared_places(client, headers):
    game = shared_victory_game(finished=True)

    response = client.get(url("results", game), headers=headers)

    assert response.status_code == 200
    html = page(response)
    assert html.by_id("winner-heading").text == "Shared victory: Alice and Bruno"
    ranking = html.one("ol", aria_label="Ranking").find_all("li")
    assert [item.text for item in ranking] == ["1st Alice Saha 26 VP", "1st Bruno 26 VP", "3rd Carla 18 VP"]
    assert [item.get("class") for item in ranking] == ["winner", "winner", ""]
    assert [p.text for p in html.find_all("p", class_="tie")] == [
        "Alice and Bruno tie on 26 VP and on active workers (2 each): they share the victory."
    ]
    assert html.find(class_="badge") is None


def test_results_explain_a_tie_broken_by_active_workers(client):
    game = game_scored(
        player("Alice", farm_income=20, workers=1), player("Bruno", farm_income=20, workers=3),
        player("Carla", farm_income=30),
    )

    html = page(client.get(url("results", game)))

    assert html.by_id("winner-heading").text == "Carla wins"
    ranking = html.one("ol", aria_label="Ranking").find_all("li")
    assert [item.text for item in ranking] == ["1st Carla 30 VP", "2nd Bruno 20 VP", "3rd Alice 20 VP"]
    assert [p.text for p in html.find_all("p", class_="tie")] == ["Bruno takes 2nd place on active workers, 3 to 1."]
    assert html.one(class_="badge").text == "in progress"


def test_results_breakdown_table_lists_every_category_then_subtotals_total_and_workers(client):
    game = shared_victory_game()

    html = page(client.get(url("results", game)))

    table = html.one("table", class_="breakdown")
    assert [th.text for th in table.one("thead").find_all("th")] == ["Category", "Alice", "Bruno", "Carla"]
    rows = {row.one("th").text: [td.text for td in row.find_all("td")] for row in table.one("tbody").find_all("tr")}
    labels = list(rows)
    assert labels == (
        [c.label for c in CATEGORIES if c.section == "during"] + ["During the game"]
        + [c.label for c in CATEGORIES if c.section == "end"]
        + ["Hibernation Comb sector majorities", "End of the game", "Total", "Active workers"]
    )
    assert rows["Farm income"] == ["20", "20", "5"]
    assert rows["During the game"] == ["20", "20", "5"]
    assert rows["Hibernation Comb sector majorities"] == ["6", "6", "13"]
    assert rows["End of the game"] == ["6", "6", "13"]
    assert rows["Total"] == ["26", "26", "18"]
    assert rows["Active workers"] == ["2", "2", "4"]


def test_results_draw_an_inline_svg_chart_of_points_by_category(client):
    game = shared_victory_game()

    html = page(client.get(url("results", game)))

    chart = html.one("svg", class_="chart")
    assert chart["role"] == "img"
    assert chart["aria-labelledby"] == "chart-heading"
    assert html.by_id("chart-heading").text == "Points by category"
    bars = chart.find_all("g")
    assert [bar.one("text").text for bar in bars] == ["Alice · 26 VP", "Bruno · 26 VP", "Carla · 18 VP"]
    assert [rect.one("title").text for rect in bars[0].find_all("rect")] == [
        "During the game: 20 VP", "Hibernation Comb sector majorities: 6 VP",
    ]
    widths = [sum(float(rect["width"]) for rect in bar.find_all("rect")) for bar in bars]
    assert widths[0] == pytest.approx(340) and widths[1] == pytest.approx(340)
    assert widths[2] == pytest.approx(340 * 18 / 26, abs=0.05)
    legend = [item.text for item in html.one("ul", class_="legend").find_all("li")]
    assert legend[0] == "During the game" and legend[-1] == "Hibernation Comb sector majorities"


def test_results_explain_every_comb_sector_in_words(client):
    game = shared_victory_game()

    html = page(client.get(url("results", game)))

    section = html.one("section", aria_labelledby="comb-results-heading")
    assert [p.text for p in section.find_all("p")] == [
        "Sector 1: Alice and Bruno tie for 1st with 2 tokens: 13 VP shared, 6 each. Nobody scores 2nd place.",
        "Sector 2: Carla leads with 1 token: 13 VP.",
        "Sector 3: No tokens yet: nobody scores.",
    ]


def test_results_of_a_game_without_sectors_say_so(client):
    game = game_scored(player("Alice", farm_income=4), sectors=[])

    html = page(client.get(url("results", game)))

    assert html.one("section", aria_labelledby="comb-results-heading").one("p", class_="empty").text == (
        "This game has no comb sectors."
    )


# ---------------------------------------------------------------------------------------------
# Finishing: /games/<id>/finish/

NUMBER_KEYS = [category.key for category in CATEGORIES if not category.is_flag]


def game_all_entered(**kwargs) -> Game:
    """Every number category entered for somebody, tokens on the comb, active workers: nothing to confirm."""
    return game_scored(
        player("Alice", workers=1, tokens=[1, 0, 0], **{key: 1 for key in NUMBER_KEYS}),
        player("Bruno", workers=2),
        **kwargs,
    )


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
    for key in NUMBER_KEYS[:-1]:  # everything but the last category (the faction's endgame ability)
        save_value(seat=seat_of(game, 2), key=key, value=0)

    response = client.post(url("finish", game), loaded(client, game), headers=headers)

    assert response.status_code == 200
    box = confirm_box(response)
    assert box["role"] == "alert"
    assert [item.text for item in box.find_all("li")] == [
        "Faction's endgame ability", "Hibernation tokens on the comb", "Active workers",
    ]
    assert "They count as 0. Finish the game anyway?" in box.text
    form = box.one("form")
    assert (form["method"], form["action"]) == ("post", url("finish", game))
    assert form_data(form)["confirm"] == ["1"]
    assert form.one("button", type="submit").text == "Finish anyway"
    assert box.one("a", href=url("pad", game)).text == "Keep scoring"
    assert page(response).by_id("pad") is not None  # the pad, to keep scoring
    assert Game.objects.get().finished_at is None


def test_finish_anyway_posts_the_confirmation_and_finishes(client):
    game = game_started("Alice", "Bruno")
    box = confirm_box(client.post(url("finish", game), loaded(client, game)))

    response = client.post(box.one("form")["action"], form_data(box.one("form")))

    assert response.status_code == 302
    assert response["Location"] == url("results", game)
    assert Game.objects.get().finished_at is not None


@pytest.mark.parametrize(("names", "sectors", "tokens", "workers", "listed"), [
    pytest.param(("Alice", "Bruno"), COMB, False, False, ["Hibernation tokens on the comb", "Active workers"],
                 id="nothing-on-the-comb-no-workers"),
    pytest.param(("Alice", "Bruno"), (), False, False, ["Active workers"], id="no-comb-sectors"),
    pytest.param(("Alice", "Bruno"), COMB, True, True, [], id="a-token-and-workers"),
    pytest.param(("Alice",), COMB, True, False, [], id="one-player-needs-no-workers"),
])
def test_finish_asks_about_the_comb_and_the_workers_only_when_they_matter(client, names, sectors, tokens, workers,
                                                                          listed):
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
    assert save(client, game, "s1-farms", "10", version=0, page="phone-a", seq=1).status_code == 200
    assert save(client, game, "s1-recruits", "20", version=0, page="phone-a", seq=2).status_code == 200

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

    response = client.post(url("finish", game), {
        **typed(loaded(client, game), {"s1-farm_income": "3+6+2", "s2-t0": "2"}), "confirm": "1",
    })

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

    response = client.post(url("finish", game), {
        **typed(loaded(client, game), {"s1-farms": "120", "s1-farm_income": "4"}), "confirm": "1",
    }, headers=headers)

    assert response.status_code == 422
    html = page(response)
    assert html.one("input", name="s1-farms")["value"] == "120"
    assert html.by_id("error-s1-farms").text == "Farms built, Alice: Must be from 0 to 99, not 120."
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
    assert html.by_id("error-s1-farms").text.startswith("Farms built, Alice: Changed on another phone to 10")
    assert html.one("input", name="s1-farms")["value"] == "7"
    assert entry(game, 1, "farms") == 10
    assert Game.objects.get().finished_at is None


def test_finish_twice_keeps_the_first_finishing_time(client):
    game = game_started("Alice", "Bruno")
    client.post(url("finish", game), {"confirm": "1"})
    first = Game.objects.get().finished_at

    response = client.post(url("finish", game), {"confirm": "1"})

    assert response.status_code == 302
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


# ---------------------------------------------------------------------------------------------
# Deleting: /games/<id>/delete/


@WITH_AND_WITHOUT_HTMX
def test_delete_page_asks_for_confirmation_and_deletes_nothing(client, headers):
    game = shared_victory_game()

    response = client.get(url("delete", game), headers=headers)

    assert response.status_code == 200
    html = page(response)
    assert html.one("h1").text == "Delete this game?"
    assert "The game of Wed 1 May 2024 with Alice (26), Bruno (26), Carla (18)." in html.one("main").text
    form = html.one("main").one("form")
    assert form["method"] == "post" and form.get("action") is None  # posts to the same address
    assert form.one("button").text == "Delete the game"
    assert Game.objects.filter(pk=game.pk).exists()


@WITH_AND_WITHOUT_HTMX
def test_delete_post_deletes_the_game_and_everything_in_it(client, headers):
    game = shared_victory_game()
    kept = game_started("Dana")

    response = client.post(url("delete", game), headers=headers)

    assert response.status_code == 302
    assert response["Location"] == url("history")
    assert list(Game.objects.all()) == [kept]
    assert not Seat.objects.filter(game_id=game.pk).exists()
    assert not GameSector.objects.filter(game_id=game.pk).exists()
    assert not HibernationTokens.objects.filter(seat__game_id=game.pk).exists()


# ---------------------------------------------------------------------------------------------
# End-of-game hints on the pad


def hints(client: Client, game: Game) -> list[str]:
    return [p.text for p in page(client.get(url("pad", game))).by_id("comb-hints").find_all("p")]


@pytest.mark.parametrize(("players", "spaces"), [
    pytest.param(2, 8, id="2-players-8-spaces"),
    pytest.param(3, 12, id="3-players-12-spaces"),
    pytest.param(4, 15, id="4-players-15-spaces"),
    pytest.param(5, 15, id="5-players-15-spaces"),
])
def test_pad_says_the_comb_is_full_when_every_space_for_the_player_count_holds_a_token(client, players, spaces):
    names = ["Alice", "Bruno", "Carla", "Dana", "Emil"][:players]
    per_player = [spaces // players + (1 if i < spaces % players else 0) for i in range(players)]
    full = game_scored(*(player(name, tokens=[count, 0, 0]) for name, count in zip(names, per_player)))
    almost = game_scored(*(player(name, tokens=[count - (i == 0), 0, 0])
                           for i, (name, count) in enumerate(zip(names, per_player))))

    assert hints(client, full) == [
        f"The comb is full ({spaces} spaces for {players} players): the end of the game is triggered. "
        "Everyone takes one more turn, then score."
    ]
    assert hints(client, almost) == []


@pytest.mark.parametrize(("trigger", "placed", "expected"), [
    pytest.param(7, 6, [], id="7th-rule-6-placed"),
    pytest.param(7, 7, ["Alice has placed a 7th hibernation token: the end of the game is triggered. "
                        "Everyone takes one more turn, then score."], id="7th-rule-7-placed"),
    pytest.param(6, 5, [], id="6th-rule-5-placed"),
    pytest.param(6, 6, ["Alice has placed a 6th hibernation token: the end of the game is triggered. "
                        "Everyone takes one more turn, then score."], id="6th-rule-6-placed"),
])
def test_pad_says_a_players_end_trigger_token_ends_the_game(client, trigger, placed, expected):
    game = game_scored(player("Alice", tokens=[placed - 2, 1, 1]), player("Bruno", tokens=[1, 0, 0]),
                       player("Carla"), player("Dana"), end_trigger_token=trigger)

    assert hints(client, game) == expected


def test_pad_warns_when_a_player_has_more_than_7_tokens(client):
    game = game_scored(player("Alice", tokens=[4, 4, 0]), player("Bruno"), player("Carla"), player("Dana"))

    assert hints(client, game) == [
        "Alice has 8 tokens on the comb, but each player owns only 7: check the counts."
    ]


def test_htmx_save_of_the_7th_token_sends_the_end_of_game_hint(client):
    game = game_scored(player("Alice", tokens=[3, 3, 0]), player("Bruno"), player("Carla"), player("Dana"))

    html = page(save(client, game, "s1-t2", "1"))

    assert [p.text for p in html.by_id("comb-hints").find_all("p")] == [
        "Alice has placed a 7th hibernation token: the end of the game is triggered. "
        "Everyone takes one more turn, then score."
    ]
    assert html.by_id("comb-hints")["hx-swap-oob"] == "true"


# ---------------------------------------------------------------------------------------------
# Names are text, never markup


def evil_game(**kwargs) -> Game:
    return game_scored(player(EVIL, farm_income=30, workers=1), player("Bruno", farm_income=30, workers=3),
                       player("Carla", tokens=[1, 0, 0]), **kwargs)


@pytest.mark.parametrize("address", ["history", "players", "start", "pad", "results", "delete", "live"])
def test_a_players_name_is_escaped_on_every_page(client, address):
    game = evil_game(finished=True)
    game_started(EVIL, "Dana")  # a known name for the start form's suggestions
    needs_game = address in ("pad", "results", "delete", "live")

    response = client.get(url(address, game if needs_game else None), headers=HTMX if address == "live" else {})

    assert response.status_code == 200
    assert EVIL.encode() not in response.content
    assert EVIL_ESCAPED.encode() in response.content


def test_a_players_name_is_escaped_in_the_htmx_save_answer_and_the_tie_sentence(client):
    game = evil_game()

    response = save(client, game, "s1-farm_income", "30")

    assert EVIL.encode() not in response.content
    tie = page(response).by_id("ranking").one("p", class_="tie").text
    assert tie == "Bruno wins the tie on active workers, 3 to 1."
    assert f"Total, {EVIL}" in [el.get("aria-label") for el in page(response).by_id("totals").iter()]


def test_a_players_name_is_escaped_in_the_start_forms_messages(client):
    response = client.post(url("start"), start_form(EVIL, EVIL.upper()))

    assert response.status_code == 422
    assert b"<SCRIPT>" not in response.content and EVIL.encode() not in response.content


# ---------------------------------------------------------------------------------------------
# Security headers and scripts


def every_page() -> list[str]:
    game = shared_victory_game()
    return [url("history"), url("players"), url("start"), url("pad", game), url("results", game), url("delete", game)]


def test_every_page_has_a_content_security_policy_without_inline_script(client):
    for address in every_page():
        response = client.get(address)
        policy = dict(
            (directive.split()[0], directive.split()[1:])
            for directive in response["Content-Security-Policy"].split(";")
            if directive.strip()
        )
        assert "'unsafe-inline'" not in policy["script-src"], address
        assert "'unsafe-eval'" not in policy["script-src"], address
        assert policy["default-src"] == ["'self'"], address
        assert policy["frame-ancestors"] == ["'none'"], address
        assert response["X-Content-Type-Options"] == "nosniff"


def test_every_page_loads_its_scripts_from_our_static_files_only(client):
    """pad.js on every page; htmx, which pad.js uses on the pad alone, only there (a phone
    loads its 15 KB for no other page)."""
    for address in every_page():
        html = page(client.get(address))
        scripts = html.find_all("script")
        sources = [script["src"] for script in scripts if script.get("src")]
        is_pad = html.find(data_pad=True) is not None
        assert "/static/scoring/pad.js" in sources, address
        assert ("/static/django_htmx/htmx-2.min.js" in sources) == is_pad, address
        assert all(src.startswith("/static/") for src in sources), (address, sources)
        assert not re.search(r"https?://", " ".join(sources)), address
        inline = [script for script in scripts if not script.get("src")]
        assert all(script.get("type") == "application/json" for script in inline), (address, inline)
    assert finders.find("django_htmx/htmx-2.min.js") is not None


def test_no_page_uses_inline_event_handlers_or_style_attributes(client):
    """The policy forbids them (script-src and style-src without 'unsafe-inline'): they would not run."""
    for address in every_page():
        for element in page(client.get(address)).iter():
            assert "style" not in element.attrs, (address, element)
            assert not [name for name in element.attrs if name.startswith("on")], (address, element)
