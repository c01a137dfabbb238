"""What the view tests share: pages read as a browser reads them (a small HTML tree), the
addresses of the pages, and requests sent as the pad and its script send them.

Pages are read as parsed HTML (ids, accessible names, attributes), not as strings, except where
the raw bytes matter (escaping).
"""

from __future__ import annotations

import html.parser
import re
from collections.abc import Iterator
from datetime import date
from html import escape
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from scoring.fields import field_address
from scoring.models import Game, Seat, new_public_id
from scoring.rules.categories import CATEGORIES, During, categories_of
from tests.support.factories import COMB, game_scored, player, seat_of, tokens_of

HTMX = {"HX-Request": "true"}
# What the pad's script (static/scoring/pad.js) sends with a save: it prefers a sentence of
# plain text to a page when its request is refused.
SCRIPT = {"Accept": "text/plain, text/html;q=0.9"}
WITH_AND_WITHOUT_HTMX = pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
EVIL = "<script>alert(1)</script>"
EVIL_ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
# A name that reads "Olivia" and reverses whatever follows it on its line, a right-to-left override
# first (issue 27): refused where a name is typed or imported, isolated where one is shown.
OVERRIDE = "\u202eaivilO"
OVERRIDE_REFUSED = (
    "A name cannot hold U+202E RIGHT-TO-LEFT OVERRIDE, a character that can hide or reorder text. "
    "Type the name again without it."
)
# Per player of a breakdown game (the factories' games): the entries, the tokens, the workers.
PAD_FIELD_COUNT = len(categories_of(During.BREAKDOWN)) + len(COMB) + 1


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


# HTML ends an unquoted attribute value at an ASCII space only; the standard library's parser
# at any Unicode space, so "G\u202f\\h\u202fi" (French times), left unquoted by the minifier as
# HTML allows, would be cut. Its two patterns read with ASCII spaces, as a browser does.
for _pattern in ("attrfind_tolerant", "locatestarttagend_tolerant"):
    _compiled = getattr(html.parser, _pattern)
    setattr(html.parser, _pattern, re.compile(_compiled.pattern, (_compiled.flags & ~re.UNICODE) | re.ASCII))

# The attributes whose default the minifier leaves out of the pages the phones receive
# (django-minify-html, apiary_site/compression.py), as a browser reads them all the same.
_DEFAULTS = {"input": {"type": "text"}, "button": {"type": "submit"}, "form": {"method": "get"}}


class _TreeBuilder(HTMLParser):
    VOID = frozenset(
        {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.stack = [self.root]

    def _element(self, tag, attrs) -> Element:
        element = Element(
            tag, {**_DEFAULTS.get(tag, {}), **{name: value or "" for name, value in attrs}}, self.stack[-1]
        )
        self.stack[-1].children.append(element)
        return element

    def handle_starttag(self, tag, attrs):
        element = self._element(tag, attrs)
        if tag not in self.VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag, attrs):
        self._element(tag, attrs)

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


def markup(response) -> str:
    """The page as its template writes it, for the tests that read markup as text: parsed as a
    browser reads it and written again with every attribute quoted (and its default: the
    minifier leaves those out, apiary_site/compression.py) and every closing tag."""
    return written(page(response))


def written(element: Element) -> str:
    """The element as markup, every attribute quoted and every closing tag written (``markup``)."""
    inside = "".join(
        escape(child, quote=False) if isinstance(child, str) else written(child) for child in element.children
    )
    if element.tag == "#document":
        return inside
    attrs = "".join(f' {name}="{escape(value)}"' if value else f" {name}" for name, value in element.attrs.items())
    if element.tag in _TreeBuilder.VOID:
        return f"<{element.tag}{attrs}>"
    return f"<{element.tag}{attrs}>{inside}</{element.tag}>"


def markup_only_as_text(response, name: str = EVIL) -> None:
    """The page shows ``name`` (a name written as markup: EVIL) as text only, in its words or an
    attribute's value, never as markup: no element of the page is one it would have made. (The
    bytes say nothing of it by themselves: the minifier writes ``<`` as it is in a quoted
    attribute, and ``&LT`` in text, both safe.)"""
    html = page(response)
    assert not [element for element in html.iter() if element.tag == "script" and not element.attrs], name
    shown = [html.text, *(value for element in html.iter() for value in element.attrs.values())]
    assert any(name in text for text in shown), f"{name} is nowhere on the page"


def text_of(sentence: str) -> str:
    """A sentence made as HTML (``wording.sentences.words``: its names each in a <bdi>) as a page
    shows it, in words."""
    return parse(str(sentence)).text


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


STORED = object()  # the version a save is based on: the one stored now (a phone showing the latest)


def save(
    client: Client,
    game: Game,
    name: str,
    value: str | None = None,
    headers: dict | None = None,
    *,
    step: int | str | None = None,
    version: int | str | None | object = STORED,
    **extra: str | int,
):
    """One field as the pad's script saves it (its headers unless ``headers`` are given):
    ``field``, then ``value`` as typed or ``step`` (a stepper's change), and the ``version`` of the
    value the page showed: by default the one stored now (what a phone showing the latest
    values sends; the pad shows it in each field's ``data-version``), None to send none. Any
    other input (``page``, ``seq``, ``changes``, ``player``) is sent as given."""
    data = {"field": name, **{key: str(item) for key, item in extra.items()}}
    if version is STORED:
        address = field_address(name)
        version = version_of(game, address.seat, address.key) if address else 0
    if version is not None:
        data["version"] = str(version)
    if value is not None:
        data["value"] = value
    if step is not None:
        data["step"] = str(step)
    return client.post(url("save", game), data, headers=SCRIPT if headers is None else headers)


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
    seat = Seat.objects.filter(game=game, number=number).first()
    revision = seat.revisions.get(key) if seat else None
    return revision[0] if revision else 0


def snapshot(game: Game) -> list:
    """Everything the seats of a game store: entries, sums, workers, versions, tokens."""
    return [
        (
            seat.entries(),
            {c.key: getattr(seat, c.key) for c in CATEGORIES},
            seat.sums,
            seat.active_workers,
            seat.revisions,
            tokens_of(game, seat.number),
            sorted(seat.tokens.values_list("sector__position", "count")),
        )
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


def pad_inputs(html: Element) -> list[Element]:
    """The pad's own fields (each has an accessible name), in document order."""
    return [el for el in html.by_id("pad").find_all("input") if el.get("aria-label")]


# ---------------------------------------------------------------------------------------------
# Games that several pages show


def shared_victory_game(**kwargs) -> Game:
    """Alice and Bruno: 20 VP of farm income and a tie for 1st in sector 1 (13 VP shared, 6 each), 2 workers
    each; Carla: 5 VP and sector 2 alone (13 VP), 4 workers. Totals 26, 26, 18."""
    return game_scored(
        player("Alice", farm_income=20, workers=2, tokens=[2, 0, 0], faction="Saha"),
        player("Bruno", farm_income=20, workers=2, tokens=[2, 0, 0]),
        player("Carla", farm_income=5, workers=4, tokens=[0, 1, 0]),
        played_on=date(2024, 5, 1),
        **kwargs,
    )


def evil_game(**kwargs) -> Game:
    """A game whose first player is named with markup."""
    return game_scored(
        player(EVIL, farm_income=30, workers=1),
        player("Bruno", farm_income=30, workers=3),
        player("Carla", tokens=[1, 0, 0]),
        **kwargs,
    )


# ---------------------------------------------------------------------------------------------
# A visitor: a browser that scores without an account


def started_on(phone: Client, *names: str, sectors: tuple[tuple[int, int], ...] = (), **fields: str) -> Game:
    """A game started on ``phone`` (a visitor's, or an account's) through the start form as the
    page shows it (its comb from the latest layout saved, unless ``sectors`` are typed), with
    these players; the game its pad shows."""
    shown = form_data(page(phone.get(url("start"))).one("form", class_="start-form"))
    changes = {f"player-{position}-name": name for position, name in enumerate(names)}
    for position, (first, second) in enumerate(sectors):
        changes.update({f"sector-{position}-first": str(first), f"sector-{position}-second": str(second)})
    response = phone.post(url("start"), typed(shown, {**changes, **fields}))
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.get(public_id=response["Location"].strip("/").split("/")[-1])


def play_again_links(html: Element) -> list[Element]:
    """The results' *Play again* links."""
    return [a for a in html.find_all("a") if a.text == "Play again"]
