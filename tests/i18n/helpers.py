"""What the tests of the two languages share: a page read as a reader meets it (its text and
the words of its accessible attributes) and searched for English words, the pages' addresses,
GNU gettext run on the catalogue, and the templates and Python modules whose words people read.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils.html import strip_tags

from tests.support.pages import markup, page

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
FR = {"HTTP_ACCEPT_LANGUAGE": "fr-FR,fr;q=0.9,en;q=0.5"}


# ---------------------------------------------------------------------------------------------
# Reading a page for English words


# Words that are English and never French: one of them in a French page is an untranslated string.
# (Words both languages write alike, such as "total", "faction", "notes", "page", "on", "second"
# or "Automa", are not in it.)
ENGLISH_WORDS = frozenset(
    [
        "the",
        "of",
        "and",
        "to",
        "is",
        "are",
        "was",
        "were",
        "not",
        "your",
        "you",
        "with",
        "for",
        "by",
        "this",
        "that",
        "these",
        "those",
        "what",
        "who",
        "which",
        "when",
        "has",
        "have",
        "been",
        "be",
        "it",
        "its",
        "or",
        "an",
        "at",
        "from",
        "as",
        "if",
        "in",
        "into",
        "out",
        "up",
        "all",
        "any",
        "nobody",
        "someone",
        "everyone",
        "more",
        "than",
        "only",
        "must",
        "can",
        "cannot",
        "could",
        "would",
        "should",
        "may",
        "might",
        "will",
        "here",
        "there",
        "yes",
        "no",
        "ago",
        "game",
        "games",
        "player",
        "players",
        "vp",
        "token",
        "tokens",
        "sector",
        "sectors",
        "comb",
        "hive",
        "mat",
        "frames",
        "frame",
        "farm",
        "farms",
        "carvings",
        "carving",
        "recruits",
        "developments",
        "workers",
        "worker",
        "active",
        "during",
        "end",
        "finish",
        "finished",
        "results",
        "history",
        "statistics",
        "undo",
        "link",
        "links",
        "edit",
        "view",
        "new",
        "delete",
        "back",
        "next",
        "done",
        "reload",
        "keep",
        "mine",
        "use",
        "shared",
        "share",
        "each",
        "wins",
        "win",
        "won",
        "tie",
        "ties",
        "tied",
        "leads",
        "lead",
        "rank",
        "ranking",
        "breakdown",
        "category",
        "categories",
        "majority",
        "majorities",
        "income",
        "built",
        "filled",
        "queen",
        "favor",
        "seed",
        "cards",
        "tile",
        "abilities",
        "ability",
        "planet",
        "strength",
        "advance",
        "explore",
        "bonuses",
        "endgame",
        "starting",
        "victory",
        "nobody",
        "save",
        "saved",
        "saving",
        "sign",
        "password",
        "account",
        "username",
        "email",
        "file",
        "upload",
        "check",
        "add",
        "cancel",
        "type",
        "typed",
        "number",
        "whole",
        "sum",
        "value",
        "values",
        "field",
        "seconds",
        "hours",
        "days",
        "week",
        "month",
        "tue",
        "wed",
        "thu",
        "fri",
        "sat",
        "sun",
        "feb",
        "apr",
        "jun",
        "jul",
        "aug",
        "dec",
        "something",
        "wrong",
        "went",
        "found",
        "allowed",
        "too",
        "many",
        "requests",
        "please",
        "enter",
        "valid",
        "required",
        # Python's own English, as its json module words what it found wrong ("Expecting property
        # name enclosed in double quotes"): said in the page's language instead (issue 37).
        "expecting",
        "property",
        "enclosed",
        "quotes",
        "delimiter",
        "unterminated",
        "illegal",
        "trailing",
        "invalid",
        "character",
        "escape",
        "string",
    ]
)
ENGLISH_ORDINAL = re.compile(r"\b\d+(?:st|nd|rd|th)\b")
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
# A path, a file name or a key of the game file ("docs/game-file.md", "games[0].end.farms"): not words.
MACHINE_TOKEN = re.compile(r"%\(\w+\)[sd]|\S*(?:[/\[\]_]|\w\.\w)\S*")  # (a placeholder the script fills is not a word)

CHECKED_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")


class PageText(HTMLParser):
    """What a reader meets on a page: its text and the words of its accessible attributes, less
    scripts, styles and whatever is marked as being in another language (``lang``)."""

    VOID = frozenset(
        {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
    )

    def __init__(self, language: str = "fr", machine_text: bool = False):
        super().__init__(convert_charrefs=True)
        self.language = language
        self.skipped_tags = ("script", "style") if machine_text else ("script", "style", "code")
        self.stack: list[tuple[str, bool]] = []  # (tag, skipped)
        self.pieces: list[str] = []
        self.in_words = False  # in the words a page's script says (json_script: the pad's pad-words)

    def skipping(self) -> bool:
        return any(skipped for _tag, skipped in self.stack)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.in_words = tag == "script" and attributes.get("type") == "application/json"
        lang = attributes.get("lang")
        skipped = tag in self.skipped_tags or (lang is not None and not lang.startswith(self.language))
        if not skipped and not self.skipping():
            for name, value in attributes.items():
                if value and (name in CHECKED_ATTRIBUTES or name.startswith("data-msg-")):
                    self.pieces.append(value)
                if value and name == "value" and tag == "input" and attributes.get("type") in ("submit", "button"):
                    self.pieces.append(value)
        if tag not in self.VOID:
            self.stack.append((tag, skipped))

    def handle_endtag(self, tag):
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break

    def handle_data(self, data):
        if self.in_words:
            self.pieces.extend(str(words) for words in json.loads(data).values())
        elif not self.skipping() and data.strip():
            self.pieces.append(data)


def english_in(html: str) -> list[str]:
    """The English words of a French page, each with the text it was found in."""
    reader = PageText()
    reader.feed(html)
    found = []
    for piece in reader.pieces:
        words = [word for word in WORD.findall(MACHINE_TOKEN.sub(" ", piece)) if word.lower() in ENGLISH_WORDS]
        words += ENGLISH_ORDINAL.findall(piece)
        found += [f"{word!r} in {' '.join(piece.split())[:160]!r}" for word in words]
    return found


# What never breaks across lines, or reads as a hyphen, on a French page (issue 37): a date's parts,
# a number and its unit or noun (a no-break space between them), a negative figure's sign (a true
# minus, "−3", never the hyphen of "-3").
_MONTH = r"(?:janv|févr|mars|avr|mai|juin|juil|août|sept|oct|nov|déc)"
DATE_APART = re.compile(
    rf"\b\d{{1,2}}(?:er)? {_MONTH}\b|\b{_MONTH}\.? \d{{4}}\b|\b(?:lun|mar|mer|jeu|ven|sam|dim)\. \d"
)
NUMBER_APART = re.compile(r"\b\d+ (?:PV|pions?|ouvriers?|parties|partie|joueurs?|minutes?|cases?|valeurs?|secteurs?)\b")
HYPHEN_MINUS = re.compile(r"(?<![\w\-–/.])-\d")
# A number over 999 without its thousands separator ("10000 parties": « 10 000 », "10,000"); a
# year (19xx, 20xx) and a time are not counts.
UNGROUPED_NUMBER = re.compile(r"(?<![\w.,:/\-–\u202f\u00a0])(?!(?:19|20)\d\d(?!\d))\d{4,}(?![\d:])")
TYPOGRAPHY_RULES = (DATE_APART, NUMBER_APART, HYPHEN_MINUS, UNGROUPED_NUMBER)


def ungrouped_numbers(html: str) -> list[str]:
    """The numbers over 999 a page (in either language) writes without their separator."""
    reader = PageText()
    reader.feed(html)
    return [number for piece in reader.pieces for number in UNGROUPED_NUMBER.findall(piece)]


def typography_in(html: str) -> list[str]:
    """What a French page breaks apart or writes with a hyphen for a minus, each with its text."""
    reader = PageText()
    reader.feed(html)
    return [
        f"{rule.pattern[:30]!r} in {' '.join(piece.split())[:160]!r}"
        for piece in reader.pieces
        for rule in TYPOGRAPHY_RULES
        if rule.search(piece)
    ]


def assert_french(response, *, status: int | None = None) -> str:
    """The page (its markup as written again: ``tests.support.pages.markup``), after checking that it is
    French through and through, its dates and figures whole."""
    if status is not None:
        assert response.status_code == status, response.content[:2000]
    html = response.content.decode()
    if response.get("Content-Type", "").startswith("text/html"):
        html = markup(response)
        if "<html" in html:
            assert page(response).one("html")["lang"] == "fr"
    english = english_in(html)
    assert not english, "English words in a French page:\n" + "\n".join(english)
    parted = typography_in(html)
    assert not parted, "Parted or hyphenated on a French page:\n" + "\n".join(parted)
    return html


def shown(sentence: str) -> str:
    """A sentence made as HTML (``wording.sentences.words``: its names each in a <bdi>) as its text."""
    return unescape(strip_tags(sentence))


def text_of(html: str) -> str:
    reader = PageText(language="", machine_text=True)
    reader.feed(html)
    # White space collapsed, but not French typography's narrow no-break spaces (U+202F), which
    # str.split() would take for white space.
    text = re.sub(r"[ \t\n\r\f\v]+", " ", " ".join(reader.pieces)).strip()
    return text.replace(" \u202f", "\u202f")  # (a piece's own narrow space after the join's)


def url(name: str, game=None) -> str:
    return reverse(f"scoring:{name}", args=[game.public_id]) if game is not None else reverse(f"scoring:{name}")


# ---------------------------------------------------------------------------------------------
# GNU gettext, run on the catalogue


NEEDS_GETTEXT = pytest.mark.skipif(
    shutil.which("msgfmt") is None and os.environ.get("CI") != "true",
    reason="reading and compiling the catalogue needs GNU gettext (scripts/test.sh installs it)",
)


def gettext_tool(*args: str) -> subprocess.CompletedProcess:
    """One of GNU gettext's tools (msgfmt, msgattrib, msgexec, msgcmp), run on the catalogue."""
    assert shutil.which(args[0]), f"GNU gettext ({args[0]}) is needed here"
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def translations(po: Path) -> list[tuple[str, str]]:
    """Every form of every message of ``po`` (the header aside) as (English, French), a plural
    form's English being msgid for the first form and msgid_plural for the others. Read by GNU
    gettext's msgexec, which runs a command for each message and form, the form's translation on its
    standard input and the English in its environment."""
    script = (
        'printf "%s\\037%s\\037%s\\037" "$MSGEXEC_MSGID" "$MSGEXEC_MSGID_PLURAL" "$MSGEXEC_PLURAL_FORM"; '
        'cat; printf "\\036"'
    )
    done = gettext_tool("msgexec", "--input", str(po), "sh", "-c", script)
    assert done.returncode == 0, done.stderr
    forms = []
    for record in done.stdout.split("\x1e")[:-1]:
        msgid, msgid_plural, form, french = record.split("\x1f")
        if msgid:
            forms.append((msgid_plural if msgid_plural and form != "0" else msgid, french))
    return forms


# ---------------------------------------------------------------------------------------------
# The files whose words people read


# Templates and modules read by machines, not people: the health check's answer.
MACHINE_TEMPLATES = {"healthz.txt"}
MACHINE_MODULES = {"health.py", "settings.py"}


def template_files() -> list[Path]:
    """Every template people read (the health check's answer is read by machines)."""
    return sorted(
        path
        for path in (ROOT / "templates").rglob("*")
        if path.suffix in (".html", ".txt") and path.name not in MACHINE_TEMPLATES
    )


PLACE = "\x00"  # where a template tag or variable stood


def python_files() -> list[Path]:
    files = sorted([*(ROOT / "scoring").rglob("*.py"), *(ROOT / "apiary_site").glob("*.py")])
    return [path for path in files if "migrations" not in path.parts and path.name not in MACHINE_MODULES]
