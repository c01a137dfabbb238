"""Specification of the pad in two languages: English, and French in the French edition's words.

- Every page a player meets, rendered in French, shows French text and not one English word: the
  pad, the comb's explanations, the tie-break sentences, the results and their chart, the history,
  the start form, the error messages (the pages', the forms', the game file's, the rate limits'),
  the mail, the spreadsheet and the command-line tools.
- The categories are the French edition's words, taken from the catalogue (the msgstr of the
  English labels of ``scoring/rules/categories.py``), and agree with the table of docs/scoring-rules.md.
- Nothing user-facing escapes translation: a template's text, a Python message, a word of the pad's
  script is marked for translation and has its French translation (no empty or fuzzy entry; the
  catalogue holds what ``makemessages`` collects; each ``.mo`` holds what its ``.po`` says).
- The language comes from the browser's Accept-Language, a switch on every page changes it in one
  tap (a plain POST form), and the choice is remembered per device and per account.
- Numbers, dates and ordinals follow the language (1er, 2e; « 13 PV partagés : 6 chacun », with the
  narrow no-break spaces of French typography).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from datetime import UTC, date, datetime
from gettext import GNUTranslations
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail
from django.core.management import call_command
from django.core.management.base import CommandError
from django.template.base import Lexer, TokenType
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.html import strip_tags

from scoring import services
from scoring.access import Actor
from scoring.management.commands._shell_language import shell_language
from scoring.models import Game, LanguagePreference, Seat
from scoring.rules.categories import CATEGORIES, MAJORITY_LABEL
from scoring.rules.engine import PlayerSheet, Sector, score_game, score_sector
from scoring.wording.explanations import sector_sentence, tie_sentence
from scoring.wording.numbers_and_dates import ordinal
from tests.factories import PASSWORD, game_scored, game_started, player, save_tokens, save_value, seat_of

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
FR = {"HTTP_ACCEPT_LANGUAGE": "fr-FR,fr;q=0.9,en;q=0.5"}
HTMX = {"HX-Request": "true"}

# The French edition's words for the categories (its end-of-game rule text, as
# docs/scoring-rules.md quotes them), by key.
FRENCH_CATEGORIES = {
    "vp_track": "PV sur la piste à la fin de la partie",
    "starting_vp": "PV de départ",
    "explore_tokens": "Bonus des jetons Exploration",
    "farm_income": "Revenus des Fermes",
    "comb_pods": "Bonus des Alvéoles d’Hibernation",
    "hive_build_bonuses": "Bonus construits sur les alvéoles du plateau Ruche",
    "advance_strength4": "Ouvrier de force 4 sur l’action Évolution",
    "explore_strength4": "Bonus des planètes pour les ouvriers de force 4 sur l’action Exploration",
    "tile_abilities": "Activation des capacités des tuiles",
    "seed_card_benefits": "Bénéfices à usage unique sur les cartes Graine jouées",
    "planted_seed_cards": "Conditions des cartes Graine plantées",
    "farms": "Fermes construites",
    "recruits": "Recrues",
    "developments": "Innovations",
    "carvings": "Conditions des Sculptures construites",
    "queens_favor": "Position sur la piste Faveur de la Reine",
    "hive_mat_full": "Plateau Ruche rempli",
    "frames_filled": "Cadres remplis",
    "faction_ability": "Capacité de fin de partie de la faction",
}


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

    def skipping(self) -> bool:
        return any(skipped for _tag, skipped in self.stack)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
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
        if not self.skipping() and data.strip():
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


def assert_french(response, *, status: int | None = None) -> str:
    """The page, after checking that it is French through and through."""
    if status is not None:
        assert response.status_code == status, response.content[:2000]
    html = response.content.decode()
    if response.get("Content-Type", "").startswith("text/html") and "<html" in html:
        assert '<html lang="fr">' in html
    english = english_in(html)
    assert not english, "English words in a French page:\n" + "\n".join(english)
    return html


def shown(sentence: str) -> str:
    """A sentence made as HTML (``scoring.explain.words``: its names each in a <bdi>) as its text."""
    return unescape(strip_tags(sentence))


def text_of(html: str) -> str:
    reader = PageText(language="", machine_text=True)
    reader.feed(html)
    # White space collapsed, but not French typography's narrow no-break spaces (U+202F), which
    # str.split() would take for white space.
    text = re.sub(r"[ \t\n\r\f\v]+", " ", " ".join(reader.pieces)).strip()
    return text.replace(" \u202f", "\u202f")  # (a piece's own narrow space after the join's)


def test_the_english_detector_finds_english_and_lets_french_be():
    assert english_in("<p>Bruno wins the tie on active workers, 3 to 1.</p>")
    assert english_in('<button aria-label="Add one: Farms built">+</button>')
    assert english_in("<li>2nd Bruno</li>")
    assert not english_in("<p>Bruno l'emporte au départage aux ouvriers actifs, 3 contre 1. On compte les points.</p>")
    assert not english_in('<form><button lang="en">English</button></form><script>var saved = "yes";</script>')


# ---------------------------------------------------------------------------------------------
# Fixtures


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A French request leaves French active in the test's thread: every test after it (here and
    in the other modules) starts in English again."""
    yield
    translation.deactivate()


@pytest.fixture
def french(owner) -> Client:
    """The owner's phone, whose browser asks for French."""
    client = Client(**FR)
    client.force_login(owner)
    return client


@pytest.fixture
def tied_game(owner):
    """A finished game with every kind of sentence: a tie for 1st in a sector (the French
    example, 13 VP shared by two), a sole leader with a 2nd, a tie on VP broken by workers, and a
    tie on VP and workers (a shared place)."""
    return game_scored(
        player("Alice", workers=1, farm_income=40, tokens=[2, 1, 0]),
        player("Bruno", workers=3, farm_income=34, tokens=[2, 0, 1]),
        player("Carla", workers=2, farm_income=20, farms=3, tokens=[0, 0, 3]),
        player("Dana", workers=2, farm_income=29, tokens=[0, 0, 0]),
        finished=True,
    )


def url(name: str, game=None) -> str:
    return reverse(f"scoring:{name}", args=[game.public_id]) if game is not None else reverse(f"scoring:{name}")


# ---------------------------------------------------------------------------------------------
# The pages in French


@pytest.mark.django_db
def test_the_pad_in_french_shows_the_french_editions_words_and_no_english(french):
    game = game_started("Alice", "Bruno", "Carla")

    html = assert_french(french.get(url("pad", game)), status=200)

    text = text_of(html)
    for words in (
        "Au cours de la partie",
        "Fin de la partie",
        "Revenus des Fermes",
        "Alvéoles d’Hibernation",
        "Majorité sur les secteurs des Alvéoles d’Hibernation",
        "Position sur la piste Faveur de la Reine",
        "Cadres remplis",
        "Ouvriers actifs",
        "Classement",
        "Terminer la partie",
        "Tout enregistrer",
    ):
        assert words in text, words
    assert 'aria-label="Revenus des Fermes, Alice"' in html
    assert 'data-msg-saving="Enregistrement…"' in html
    assert 'data-msg-waiting-many="%(count)s valeurs ne sont pas encore enregistrées."' in html


@pytest.mark.django_db
def test_the_comb_explanations_in_french(french, tied_game):
    html = assert_french(french.get(url("pad", tied_game)), status=200)

    text = text_of(html)
    assert (
        "Alice et Bruno sont à égalité pour la 1re place avec 2 pions. 13\u00a0PV partagés\u202f: 6 chacun. "
        "Personne ne marque la 2e place."
    ) in text
    assert "Alice est majoritaire avec 1 pion\u202f: 13\u00a0PV." in text
    assert "Carla est majoritaire avec 3 pions\u202f: 6\u00a0PV. Bruno est 2e avec 1 pion\u202f: 3\u00a0PV." in text


@pytest.mark.parametrize(
    ("first", "second", "tokens", "expected"),
    [
        pytest.param(9, 4, [0, 0, 0], "Aucun pion pour l’instant\u202f: personne ne marque de points.", id="empty"),
        pytest.param(
            9,
            4,
            [2, 2, 0],
            "Alice et Bruno sont à égalité pour la 1re place avec 2 pions. 13\u00a0PV partagés\u202f: "
            "6 chacun. Personne ne marque la 2e place.",
            id="the-french-example",
        ),
        pytest.param(
            9,
            4,
            [0, 3, 0],
            "Bruno est majoritaire avec 3 pions\u202f: 9\u00a0PV. Personne d’autre n’a de pion ici\u202f: "
            "la 2e place n’est pas attribuée.",
            id="alone",
        ),
        pytest.param(
            13,
            0,
            [3, 1, 0],
            "Alice est majoritaire avec 3 pions\u202f: 13\u00a0PV. Ce secteur n’accorde rien pour la 2e place.",
            id="no-2nd-award",
        ),
        pytest.param(
            9,
            5,
            [3, 1, 1],
            "Alice est majoritaire avec 3 pions\u202f: 9\u00a0PV. Bruno et Carla sont à égalité pour "
            "la 2e place avec 1 pion. 5\u00a0PV partagés\u202f: 2 chacun.",
            id="tie-for-2nd",
        ),
    ],
)
def test_sector_sentences_in_french(first, second, tokens, expected):
    with translation.override("fr"):
        assert shown(sector_sentence(score_sector(0, Sector(first, second), tokens), ["Alice", "Bruno", "Carla"])) == (
            expected
        )


@pytest.mark.parametrize(
    ("totals", "workers", "expected"),
    [
        pytest.param(
            [80, 80], [1, 3], ["Bruno l’emporte au départage (ouvriers actifs\u202f: 3 contre 1)."], id="broken"
        ),
        pytest.param(
            [80, 80],
            [2, 2],
            [
                (
                    "Alice et Bruno sont à égalité avec 80\u00a0PV et autant d’ouvriers actifs "
                    "(2 chacun)\u202f: ils se partagent la victoire."
                )
            ],
            id="shared-victory",
        ),
        pytest.param(
            [90, 80, 80],
            [0, 1, 3],
            ["Carla prend la 2e place au départage (ouvriers actifs\u202f: 3 contre 1)."],
            id="2nd-place-broken",
        ),
        pytest.param(
            [90, 80, 80],
            [0, 2, 2],
            [
                (
                    "Bruno et Carla sont à égalité avec 80\u00a0PV et autant d’ouvriers actifs "
                    "(2 chacun)\u202f: ils se partagent la 2e place."
                )
            ],
            id="2nd-place-shared",
        ),
        pytest.param(
            [80, 80, 80],
            [1, 3, 2],
            [
                (
                    "Bruno, Carla et Alice sont à égalité avec 80\u00a0PV. Bruno l’emporte "
                    "au départage (ouvriers actifs\u202f: 3, 2 et 1)."
                )
            ],
            id="three-figures",
        ),
        pytest.param(
            [80, 80, 80],
            [3, 3, 1],
            [
                (
                    "Alice, Bruno et Carla sont à égalité avec 80\u00a0PV. Alice et Bruno "
                    "l’emportent au départage (ouvriers actifs\u202f: 3 contre 1). Alice et Bruno "
                    "ont aussi autant d’ouvriers actifs et se partagent leur place."
                )
            ],
            id="two-win-together",
        ),
    ],
)
def test_tie_break_sentences_in_french(totals, workers, expected):
    result = score_game(
        [], [PlayerSheet(entries={"farm_income": t}, active_workers=w) for t, w in zip(totals, workers, strict=True)]
    )
    with translation.override("fr"):
        assert [shown(tie_sentence(tie, ["Alice", "Bruno", "Carla"])) for tie in result.ties] == expected


def test_a_tie_with_four_different_worker_counts_is_one_whole_sentence():
    result = score_game([], [PlayerSheet(entries={"farm_income": 80}, active_workers=w) for w in (3, 4, 2, 1)])
    names = ["Alice", "Bruno", "Carla", "Dana"]
    assert shown(tie_sentence(result.ties[0], names)) == (
        "Bruno, Alice, Carla and Dana tie on 80 VP. Bruno wins the tie on active workers (4, 3, 2 and 1)."
    )
    with translation.override("fr"):
        assert shown(tie_sentence(result.ties[0], names)) == (
            "Bruno, Alice, Carla et Dana sont à égalité avec 80\u00a0PV. "
            "Bruno l’emporte au départage (ouvriers actifs\u202f: 4, 3, 2 et 1)."
        )


@pytest.mark.parametrize(
    ("number", "english", "french"),
    [
        (1, "1st", "1er"),
        (2, "2nd", "2e"),
        (3, "3rd", "3e"),
        (4, "4th", "4e"),
        (11, "11th", "11e"),
        (21, "21st", "21e"),
    ],
)
def test_ordinals_are_plain_text_in_both_languages(number, english, french):
    from django.contrib.humanize.templatetags.humanize import ordinal as humanize_ordinal

    assert ordinal(number) == english
    with translation.override("fr"):
        assert ordinal(number) == french
        assert humanize_ordinal(number) == french, "the catalogue gives Django's filter the same plain words"


@pytest.mark.django_db
def test_the_results_in_french_rank_with_french_ordinals_shared_places_included(french, tied_game):
    html = assert_french(french.get(url("results", tied_game)), status=200)

    text = text_of(html)
    ranks = re.findall(r'<span class="rank">([^<]*)</span>', html)
    assert ranks == ["1er", "2e", "3e", "3e"], "Carla and Dana share 3rd place"
    assert "Alice gagne" in text
    assert "Alice l’emporte au départage" not in text  # Alice leads on VP alone
    assert (
        "Carla et Dana sont à égalité avec 29\u00a0PV et autant d’ouvriers actifs (2 chacun)\u202f: "
        "ils se partagent la 3e place."
    ) in text
    assert "Points par catégorie" in text and "Détail" in text
    legend = [unescape(item) for item in re.findall(r"</svg> ([^<]+)</li>", html)]  # each bar's, in the edition's words
    assert re.fullmatch(r"Au cours de la partie\s:\s\d+\sPV", legend[0]), legend[0]
    assert any(
        re.fullmatch(r"Majorité sur les secteurs des Alvéoles d’Hibernation\s:\s\d+\sPV", item) for item in legend
    )
    assert "Secteur 1\u202f: Alice et Bruno sont à égalité pour la 1re place" in text


@pytest.mark.django_db
def test_a_shared_victory_in_french(french):
    game = game_scored(
        player("Alice", workers=2, farm_income=30), player("Bruno", workers=2, farm_income=30), finished=True
    )

    text = text_of(assert_french(french.get(url("results", game)), status=200))

    assert "Victoire partagée\u202f: Alice et Bruno" in text
    assert (
        "Alice et Bruno sont à égalité avec 30\u00a0PV et autant d’ouvriers actifs (2 chacun)\u202f: "
        "ils se partagent la victoire."
    ) in text


@pytest.mark.django_db
def test_the_history_in_french_with_french_dates(french, owner):

    game_scored(player("Alice", farm_income=3), player("Bruno"), played_on=date(2026, 11, 29), finished=True)
    game_started("Alice", "Carla", played_on=date(2026, 5, 1))

    html = assert_french(french.get(url("history")), status=200)

    text = text_of(html)
    assert "dim. 29 nov. 2026" in text and "ven. 1er mai 2026" in text  # the first of the month: "1er"
    assert "2 parties" in text and "en cours" in text and "Chercher des parties" in text
    filtered = assert_french(
        french.get(url("history") + "?player=Alice&status=finished&since=2026-12-01&until=2026-01-01")
    )
    assert "La fin de la période précède son début." in text_of(filtered)
    assert 'type="date" name="since" value="2026-12-01"' in filtered


@pytest.mark.parametrize(
    ("language", "day", "written"),
    [
        ("fr", date(2026, 12, 1), "mar. 1er déc. 2026"),
        ("fr", date(2026, 12, 2), "mer. 2 déc. 2026"),
        ("en", date(2026, 12, 1), "Tue 1 Dec 2026"),
    ],
)
def test_a_games_date_is_written_as_the_language_writes_it(language, day, written):
    from scoring.templatetags.words import game_date

    with translation.override(language):
        assert game_date(day, translation.gettext("D j M Y")) == written


@pytest.mark.django_db
def test_the_start_form_in_french_and_its_errors(french):
    html = assert_french(french.get(url("start")), status=200)

    text = text_of(html)
    assert "Joueurs, dans l’ordre du tour" in text and "Secteurs des Alvéoles d’Hibernation" in text
    assert "Quand un joueur place son 7e pion Hibernation (règles françaises)" in text
    assert "Quand un joueur place son 6e pion Hibernation (règles anglaises)" in text
    today = timezone.localdate().isoformat()
    assert re.search(rf'<input type="date" name="played_on" value="{today}"', html), (
        "a date field holds YYYY-MM-DD in every language (30/11/2026 is no date to a browser)"
    )
    data = {
        "player-TOTAL_FORMS": "5",
        "player-INITIAL_FORMS": "0",
        "sector-TOTAL_FORMS": "20",
        "sector-INITIAL_FORMS": "0",
        "played_on": "",
        "end_trigger_token": "7",
        "sector-0-second": "4",
        "sector-1-first": "120",
    }
    refused = text_of(assert_french(french.post(url("start"), data), status=422))
    assert "Nommez au moins un joueur." in refused
    assert "Ce champ est obligatoire." in refused  # Django's own words, in French too
    assert "Indiquez aussi les PV de la 1re place de ce secteur." in refused
    solo = dict(data, solo="on", **{"player-0-name": "Alice", "player-1-name": "Bruno"})
    assert "Une partie en solo a exactement un joueur" in text_of(assert_french(french.post(url("start"), solo)))


@pytest.mark.django_db
def test_the_pads_error_messages_in_french(french):
    game = game_started("Alice", "Bruno")

    answer = french.post(
        url("save", game), {"field": "s1-farms", "value": "120", "version": "0", "page": "a", "seq": "1"}, headers=HTMX
    )
    assert answer.status_code == 422
    assert re.search(
        r"Fermes construites, Alice\u202f: Doit être compris entre 0 et 99, pas 120\.", text_of(assert_french(answer))
    )

    answer = french.post(
        url("save", game),
        {"field": "s2-farm_income", "value": "3+x", "version": "0", "page": "a", "seq": "2"},
        headers=HTMX,
    )
    assert "Tapez un nombre entier, comme 12, ou une somme, comme 3+6+2." in text_of(assert_french(answer))

    save_tokens(seat=seat_of(game, 1), sector=game.sectors.get(position=0), count=6)
    answer = french.post(
        url("save", game), {"field": "s1-t1", "value": "4", "version": "0", "page": "a", "seq": "3"}, headers=HTMX
    )
    assert "Alice ne possède que 7 pions Hibernation et en a 6 dans d’autres secteurs\u202f: 1 au plus ici." in text_of(
        assert_french(answer)
    )

    finish = text_of(assert_french(french.post(url("finish", game)), status=200))
    assert "Rien n’a encore été saisi pour\u202f:" in finish and "Revenus des Fermes" in finish


@pytest.mark.django_db
def test_refusals_in_french(french, client, settings):
    assert_french(french.get("/games/no-such-game/"), status=404)
    gone = french.get(reverse("scoring:join", args=["no-such-link"]))
    assert "Ce lien ne fonctionne pas (ou plus)" in text_of(assert_french(gone, status=404))

    settings.RATE_LIMITS = {"login": {"address": (1, 900)}}
    stranger = Client(**FR)
    stranger.post(reverse("login"), {"username": "x", "password": "y"})
    refused = stranger.post(reverse("login"), {"username": "x", "password": "y"})
    assert "Trop de tentatives de connexion" in text_of(assert_french(refused, status=429))


@pytest.mark.django_db
def test_who_made_a_change_in_french_a_link_holder_always_marked_as_one(french, owner):
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farms", value=3, by=Actor(user=owner))
    holder = Actor(link=services.link_renew(game=game, access="edit"), name="Olivia")
    save_value(seat=seat_of(game, 2), key="farms", value=4, by=holder)

    assert "par Olivia (lien de saisie)" in text_of(french.get(url("pad", game)).content.decode())
    assert "par le propriétaire" in text_of(french.get(url("pad", game)).content.decode())  # no name given
    owner.first_name = "Olivia"
    owner.save()
    shown = text_of(french.get(url("pad", game)).content.decode())
    assert "par Olivia (lien de saisie)" in shown and re.search(r"par Olivia(?! \()", shown)


@pytest.mark.django_db
def test_every_other_page_in_french(french, tied_game):
    pages = [
        url("players"),
        url("statistics"),
        url("data"),
        url("delete", tied_game),
        url("start"),
        url("again", tied_game),
        reverse("password_change"),
        reverse("account_name"),
        reverse("scoring:player", args=[tied_game.seats.first().player_id]),
    ]
    for address in pages:
        assert_french(french.get(address), status=200)
    anonymous = Client(**FR)
    for address in (url("history"), reverse("login"), reverse("signup"), reverse("password_reset")):
        assert_french(anonymous.get(address), status=200)
    wrong = anonymous.post(reverse("login"), {"username": "owner", "password": "nope"})
    assert_french(wrong, status=200)
    assert "Saisissez un nom d" in text_of(wrong.content.decode())  # Django's own words, in French


@pytest.mark.django_db
def test_numbers_follow_the_language(owner, french):
    game_scored(player("Alice", farm_income=20), player("Bruno", farm_income=10), finished=True)
    game_scored(player("Alice", farm_income=5), player("Bruno", farm_income=30), finished=True)
    english = Client()
    english.force_login(owner)
    alice = reverse("scoring:player", args=[Seat.objects.filter(name="Alice").first().player_id])

    french_figures = text_of(assert_french(french.get(alice), status=200))
    english_figures = text_of(english.get(alice).content.decode())

    assert "Moyenne 12,5" in french_figures and "Revenus des Fermes 12,5" in french_figures
    assert "Taux de victoire 50\u202f%" in french_figures, "a narrow no-break space before the percent sign"
    assert "Average 12.5" in english_figures and "Win rate 50%" in english_figures
    today = timezone.localdate()
    with translation.override("fr"):
        day = "1er" if today.day == 1 else today.day  # the first of the month, as French writes it
        french_date = f"{day} {formats.date_format(today, 'N Y')}"
    assert french_figures.count(french_date) >= 3, "the chart's dates follow the language too"


@pytest.mark.django_db
def test_the_charts_are_drawn_with_numbers_an_svg_reads_in_every_language(owner, french):
    """A chart's coordinates are written for the browser, not for the reader: 12.5 stays 12.5 in
    French (12,5 is no length to an SVG, which then drew no bar and logged an error per rect)."""
    game = game_scored(
        player("Alice", farm_income=7, farms=3), player("Bruno", farm_income=10, recruits=3), finished=True
    )
    game_scored(player("Alice", farm_income=5), player("Bruno", farm_income=30), finished=True)
    alice = reverse("scoring:player", args=[Seat.objects.filter(name="Alice").first().player_id])
    geometry = re.compile(r'\s(x|y|x1|y1|x2|y2|cx|cy|r|width|height|viewBox|points)="([^"]*)"')
    number = r"-?\d+(\.\d+)?"
    grammar = {"viewBox": rf"{number}( {number}){{3}}", "points": rf"{number},{number}( {number},{number})*"}

    for page in (url("results", game), alice):
        html = assert_french(french.get(page), status=200)
        charts = re.findall(r'<svg class="(?:chart|bar-svg).*?</svg>', html, flags=re.DOTALL)
        assert charts, page
        attributes = [attribute for chart in charts for attribute in geometry.findall(chart)]
        assert any(re.search(r"\d[.,]\d", value) for name, value in attributes if name != "points"), (
            "the test needs a coordinate with decimals"
        )
        assert [
            (name, value) for name, value in attributes if not re.fullmatch(grammar.get(name, number), value)
        ] == [], page


@pytest.mark.django_db
def test_a_game_files_problems_in_french(french):
    from django.core.files.uploadedfile import SimpleUploadedFile

    document = {
        "format": "apiary-scorepad",
        "version": 1,
        "games": [{"players": [{"name": "Alice", "end": {"farms": 120}}, {"name": " "}]}],
    }
    upload = SimpleUploadedFile("partie.json", json.dumps(document).encode(), content_type="application/json")

    text = text_of(assert_french(french.post(url("import"), {"file": upload}), status=422))

    assert "partie.json ne peut pas être importé (2 problèmes)\u202f: rien n’a été ajouté." in text
    assert "games[0].players[0].end.farms\u202f: doit être un nombre entier de 0 à 99, pas 120" in text
    assert "games[0].players[1].name\u202f: ne doit pas être vide" in text


@pytest.mark.django_db
def test_the_spreadsheet_speaks_the_language_of_the_page(owner, french, tied_game):
    english = Client()
    english.force_login(owner)
    english_header = english.get(url("export_csv")).content.decode("utf-8-sig").splitlines()[0]
    french_rows = french.get(url("export_csv")).content.decode("utf-8-sig").splitlines()

    assert english_header.startswith("played_on,game_id,finished,seat,player,")
    header = french_rows[0]  # columns separated by semicolons, as a French spreadsheet opens them
    assert header.startswith(
        "Date;Partie;Terminée;Position;Joueur;Faction;Automa;PV sur la piste à la fin de la partie;PV de départ;"
    )
    assert "Revenus des Fermes" in header and "Capacité de fin de partie de la faction" in header
    assert not english_in(f"<p>{header}</p>")
    assert ";oui;" in french_rows[1]


@pytest.mark.django_db
def test_the_password_reset_mail_in_french(owner):
    owner.email = "owner@example.com"
    owner.save()

    Client(**FR).post(reverse("password_reset"), {"email": "owner@example.com"})

    (message,) = mail.outbox
    assert message.subject.startswith("Votre nouveau mot de passe pour le bloc de score Apiary")
    assert message.body.startswith("Bonjour owner,")
    assert not english_in(f"<p>{message.subject} {message.body.replace('://', ' ')}</p>")


# ---------------------------------------------------------------------------------------------
# The command-line tools


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LC_ALL": "fr_CA.UTF-8", "LANG": "en_US.UTF-8"}, "fr"),
        ({"LANGUAGE": "fr:en", "LANG": "C.UTF-8"}, "fr"),
        ({"LANGUAGE": "de:fr"}, "fr"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_command_line_tools_speak_the_shells_language(environ, language):
    assert shell_language(environ) == language


def test_a_command_line_error_in_french(tmp_path):
    bad = tmp_path / "partie.json"
    bad.write_text(
        '{"format": "apiary-scorepad", "version": 1, "games": [{"players": [{"name": "A", "end": {"farms": 120}}]}]}'
    )
    environment = {**os.environ, "LANG": "fr_FR.UTF-8", "LANGUAGE": "", "LC_ALL": ""}

    run = subprocess.run(
        [sys.executable, "manage.py", "score_game", str(bad)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert run.returncode == 1
    assert f"{bad} n’est pas un fichier de parties valide (1 problème)\u202f:" in run.stderr
    assert "games[0].players[0].end.farms\u202f: doit être un nombre entier de 0 à 99, pas 120" in run.stderr


@pytest.mark.django_db
def test_call_command_speaks_the_callers_language():
    with translation.override("fr"), pytest.raises(CommandError) as refused:
        call_command("import_games", "-", "--owner", "personne")
    assert str(refused.value).startswith("il n’y a pas d’utilisateur «\u202fpersonne\u202f»")


# ---------------------------------------------------------------------------------------------
# Choosing the language


@pytest.mark.django_db
def test_the_browsers_language_comes_first_then_the_cookie(client):
    assert '<html lang="en">' in client.get(reverse("login")).content.decode()
    assert '<html lang="fr">' in client.get(reverse("login"), **FR).content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert '<html lang="en">' in client.get(reverse("login"), **FR).content.decode()


@pytest.mark.django_db
def test_every_page_has_a_one_tap_switch_that_works_without_javascript(owner):
    phone = Client(**FR)
    phone.force_login(owner)
    game = game_started("Alice", "Bruno")
    page = phone.get(url("pad", game)).content.decode()

    switch = re.search(
        r'<form method="post" action="([^"]+)" class="nav-form language-switch">(.*?)</form>', page, re.DOTALL
    )
    assert switch and switch.group(1) == "/i18n/setlang/"
    assert re.findall(r'<button type="submit" name="language" value="(\w+)" lang="\w+"', switch.group(2)) == ["en"]
    assert f'name="next" value="{url("pad", game)}"' in switch.group(2)

    answer = phone.post("/i18n/setlang/", {"language": "en", "next": url("pad", game)})

    assert answer.status_code == 302 and answer["Location"] == url("pad", game), "same address in both languages"
    assert phone.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert '<html lang="en">' in phone.get(url("pad", game)).content.decode()
    assert LanguagePreference.objects.get(user=owner).language == "en", "remembered for the account too"
    for address in (url("history"), url("results", game), reverse("login")):
        assert 'class="nav-form language-switch"' in phone.get(address).content.decode()


@pytest.mark.django_db
def test_the_switch_works_for_a_visitor_and_refuses_a_language_the_site_does_not_speak():
    visitor = Client()
    answer = visitor.post("/i18n/setlang/", {"language": "fr", "next": "/accounts/login/"})
    assert answer.status_code == 302 and visitor.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    assert '<html lang="fr">' in visitor.get(reverse("login")).content.decode()
    visitor.post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert visitor.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    assert visitor.get("/i18n/setlang/").status_code == 405


@pytest.mark.django_db
def test_signing_in_brings_the_accounts_language_to_the_device(owner):
    LanguagePreference.objects.create(user=owner, language="fr")
    phone = Client()  # a browser that asks for nothing in particular: English

    answer = phone.post(reverse("login"), {"username": owner.username, "password": PASSWORD})

    assert answer.status_code == 302
    assert phone.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    assert '<html lang="fr">' in phone.get(url("history")).content.decode()


@pytest.mark.django_db
def test_an_account_keeps_the_language_it_signed_up_in():
    Client(**FR).post(
        reverse("signup"), {"username": "zoe", "password1": "un-long-mot-de-passe", "password2": "un-long-mot-de-passe"}
    )
    assert LanguagePreference.objects.get(user=User.objects.get(username="zoe")).language == "fr"


def test_urls_are_the_same_in_both_languages():
    with translation.override("fr"):
        french = [reverse("scoring:history"), reverse("login"), reverse("scoring:start")]
    assert (
        french
        == [reverse("scoring:history"), reverse("login"), reverse("scoring:start")]
        == ["/", "/accounts/login/", "/games/new/"]
    )


# ---------------------------------------------------------------------------------------------
# The catalogue


NEEDS_GETTEXT = pytest.mark.skipif(
    shutil.which("msgfmt") is None and os.environ.get("CI") != "true",
    reason="reading and compiling the catalogue needs GNU gettext (scripts/test.sh installs it)",
)


def gettext_tool(*args: str) -> subprocess.CompletedProcess:
    """One of GNU gettext's tools (msgfmt, msgattrib, msgexec, msgcmp), run on the catalogue."""
    assert shutil.which(args[0]), f"GNU gettext ({args[0]}) is needed here"
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def messages_of(mo: Path) -> dict:
    """What a .mo holds, as Python's gettext (and so Django) reads it."""
    with mo.open("rb") as handle:
        return GNUTranslations(handle)._catalog


def compiled(po: Path, mo: Path) -> dict:
    """The messages of ``po`` compiled into ``mo`` by ``msgfmt``, run as compilemessages runs it
    (``--check-format``)."""
    done = gettext_tool("msgfmt", "--check-format", "-o", str(mo), str(po))
    assert done.returncode == 0, done.stderr
    return messages_of(mo)


def stale_catalogues(locale_dir: Path, work: Path) -> list[Path]:
    """The .po files under ``locale_dir`` whose .mo is missing or does not hold exactly what
    ``msgfmt`` compiles from them (the messages compared, not the bytes)."""
    out_of_date = []
    for number, po in enumerate(sorted(locale_dir.glob("*/LC_MESSAGES/*.po"))):
        fresh = compiled(po, work / f"fresh-{number}.mo")
        if not po.with_suffix(".mo").exists() or messages_of(po.with_suffix(".mo")) != fresh:
            out_of_date.append(po)
    return out_of_date


@NEEDS_GETTEXT
def test_every_entry_of_the_catalogue_has_its_french_translation(tmp_path):
    assert len(compiled(PO, tmp_path / "django.mo")) > 400
    untranslated = gettext_tool("msgattrib", "--untranslated", "--no-obsolete", str(PO))
    fuzzy = gettext_tool("msgattrib", "--only-fuzzy", "--no-obsolete", str(PO))
    assert untranslated.returncode == fuzzy.returncode == 0, untranslated.stderr + fuzzy.stderr
    assert untranslated.stdout == "", f"not translated:\n{untranslated.stdout}"
    assert fuzzy.stdout == "", f"fuzzy (to be checked, and left out by msgfmt):\n{fuzzy.stdout}"


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%%|\{\}")


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


@NEEDS_GETTEXT
def test_each_translation_keeps_its_placeholders():
    forms = translations(PO)
    assert len(forms) > 400
    for english, french in forms:
        assert sorted(PLACEHOLDER.findall(french)) == sorted(PLACEHOLDER.findall(english)), (english, french)


# French as the edition writes it: a narrow no-break space (U+202F) before : ; ! ? and %, and
# inside « »; the comb always by its full name (a row's short words aside, its full words a tap
# away); a form that reads right before any name (no "de Alice", which French writes "d'Alice");
# the tie-break as the rules word it. And as a proofreader finishes it (issue 28): curly
# apostrophes and French quotation marks, never straight ones (Django's own French writes
# "Nom d’utilisateur" beside ours); no "(s)" for a plural a number decides (each number its own
# plural forms); a number and its unit never parted at the end of a line ("13 PV": a no-break space).
SPACE_BEFORE_SIGN = re.compile(
    r"[ \u00a0](?:[:;!?»]|%%(?!\())|«[ \u00a0]"
)  # (%%(time)s: a placeholder, in a template's text)
SIGN_WITHOUT_NARROW_SPACE = re.compile(r"[^\s\u202f/](?:[;!?»]|:(?=\s|$))|«[^\u202f]")
COMB_ALONE = re.compile(r"Alvéoles(?! d’Hibernation)")
BEFORE_A_NAME = re.compile(r"\b(?:[dD]e|[qQ]ue|[jJ]e) %\((?:name|names|keep|merged|site_name|player|who)\)s")
STRAIGHT_QUOTE = re.compile(r"['\"]")
PLURAL_SHORTCUT = re.compile(r"\w\((?:e?s|e)\)")
UNIT_APART = re.compile(r"(?:%\(\w+\)[sd]|\d) PV\b")
FRENCH_RULES = (
    SPACE_BEFORE_SIGN,
    SIGN_WITHOUT_NARROW_SPACE,
    COMB_ALONE,
    BEFORE_A_NAME,
    STRAIGHT_QUOTE,
    PLURAL_SHORTCUT,
    UNIT_APART,
)
SHORT_LABELS = {category.short_label for category in CATEGORIES} | {"Comb majorities"}


@NEEDS_GETTEXT
def test_the_french_catalogue_writes_french_typography_and_the_editions_words():
    wrong = []
    for english, french in translations(PO):
        for rule in FRENCH_RULES:
            if rule.search(french) and not (rule is COMB_ALONE and english in SHORT_LABELS):
                wrong.append(f"{rule.pattern}: {french!r}")
        if PLURAL_SHORTCUT.search(english):
            wrong.append(f"{PLURAL_SHORTCUT.pattern}: {english!r}")
        if "tie on active workers" in english or "win the tie" in english or "wins the tie" in english:
            assert "remport" not in french, french  # "l’emporte au départage"
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    ("french", "rule"),
    [
        ("Total : 12", SPACE_BEFORE_SIGN),
        ("Total\u00a0: 12", SPACE_BEFORE_SIGN),
        ("« oui »", SPACE_BEFORE_SIGN),
        ("50 %%", SPACE_BEFORE_SIGN),
        ("Total: 12", SIGN_WITHOUT_NARROW_SPACE),
        ("Vraiment?", SIGN_WITHOUT_NARROW_SPACE),
        ("les Alvéoles", COMB_ALONE),
        ("les Alvéoles d'Hibernation", COMB_ALONE),
        ("pions de %(name)s", BEFORE_A_NAME),
        ("l'Automa", STRAIGHT_QUOTE),
        ('pas d’utilisateur "%(name)s"', STRAIGHT_QUOTE),
        ("%(skipped)s déjà enregistrée(s)", PLURAL_SHORTCUT),
        ("ignoré(e)", PLURAL_SHORTCUT),
        ("%(vp)s PV de retard", UNIT_APART),
        ("8 PV par cadre", UNIT_APART),
    ],
)
def test_the_french_typography_rules_find_what_they_forbid(french, rule):
    assert rule.search(french)


@pytest.mark.parametrize(
    "french",
    [
        "Total\u202f: 12",
        "«\u202foui\u202f»",
        "50\u202f%%",
        "21:14",
        "https://x",
        "les Alvéoles d’Hibernation",
        "%(name)s\u202f: pions",
        "de %(count)s parties",
        "à %%(time)s",
        "l’Automa",
        "pas d’utilisateur «\u202f%(name)s\u202f»",
        "(%(count)s problèmes)",
        "%(vp)s\u00a0PV de retard",
        "les PV de départ",
    ],
)
def test_the_french_typography_rules_let_good_french_be(french):
    assert not any(rule.search(french) for rule in FRENCH_RULES)


@NEEDS_GETTEXT
def test_each_compiled_catalogue_holds_exactly_what_its_po_says(tmp_path):
    assert stale_catalogues(ROOT / "locale", tmp_path) == [], (
        "run: scripts/messages.sh compile (Django's compilemessages), and commit the .mo"
    )


@NEEDS_GETTEXT
def test_a_compiled_catalogue_behind_its_po_is_found_out(tmp_path):
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "locale", locale)
    po = locale / "fr" / "LC_MESSAGES" / "django.po"
    assert stale_catalogues(locale, tmp_path) == []
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Recrues"', 'msgstr "Recrutées"', 1), encoding="utf-8")
    assert stale_catalogues(locale, tmp_path) == [po]  # a translation changed
    po.with_suffix(".mo").unlink()
    assert stale_catalogues(locale, tmp_path) == [po]  # none compiled


def test_the_categories_are_the_french_editions_words_from_the_catalogue():
    with translation.override("fr"):
        french = {category.key: translation.gettext(category.label) for category in CATEGORIES}
        majority = translation.gettext(MAJORITY_LABEL)
    assert french == FRENCH_CATEGORIES
    assert majority == "Majorité sur les secteurs des Alvéoles d’Hibernation"
    assert not any(hasattr(category, "label_fr") for category in CATEGORIES), "one label, the catalogue translates"


def test_docs_scoring_rules_name_the_categories_as_the_catalogue_does():
    rows = re.findall(
        r"^\| `(\w+)` \| [^|]+ \| ([^|]+) \|", (ROOT / "docs" / "scoring-rules.md").read_text(), re.MULTILINE
    )
    documented = {key: french.strip() for key, french in rows}
    assert documented == FRENCH_CATEGORIES


@pytest.mark.skipif(
    shutil.which("xgettext") is None and os.environ.get("CI") != "true",
    reason="collecting the strings needs GNU gettext's xgettext (scripts/test.sh installs it)",
)
def test_the_catalogue_holds_every_string_makemessages_collects(tmp_path):
    """Django's makemessages, run on a copy of the project, finds no string that the committed
    catalogue lacks, and the catalogue keeps no string that is no longer used."""
    assert shutil.which("xgettext"), "GNU gettext (xgettext) is needed here"
    for name in ("scoring", "templates", "apiary_site", "static", "manage.py"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / name)
    (tmp_path / "locale" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    shutil.copy(PO, tmp_path / "locale" / "fr" / "LC_MESSAGES" / "django.po")

    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            "--locale",
            "fr",
            "--no-obsolete",
            "--add-location",
            "file",
            "-v",
            "0",
        ],
        cwd=tmp_path,
        check=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )

    # msgcmp DEF REF: every message of REF is in DEF (its translation aside)
    collected = str(tmp_path / "locale/fr/LC_MESSAGES/django.po")
    new = gettext_tool("msgcmp", "--use-fuzzy", "--use-untranslated", "--no-fuzzy-matching", str(PO), collected)
    assert new.returncode == 0, f"new strings: run scripts/messages.sh and translate them\n{new.stderr}"
    gone = gettext_tool("msgcmp", "--use-fuzzy", "--use-untranslated", "--no-fuzzy-matching", collected, str(PO))
    assert gone.returncode == 0, f"strings no longer used: run scripts/messages.sh\n{gone.stderr}"


# ---------------------------------------------------------------------------------------------
# Nothing user-facing escapes translation


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


class TemplateText(HTMLParser):
    """A template's HTML with every tag and variable replaced by PLACE: the literal words left in
    its text and its user-facing attributes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.literal: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        attributes = dict(attrs)
        for name, value in attributes.items():
            if not value:
                continue
            if (
                name in CHECKED_ATTRIBUTES
                or name.startswith("data-msg-")
                or (name == "value" and tag == "input" and attributes.get("type") in ("submit", "button"))
            ):
                self.check(value, f"{tag}[{name}]")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.check(data, "text")

    def check(self, text: str, where: str):
        # The attributes a partial gives the tag it is used in ({% partialdef field-data %}) are no words.
        attributes = re.sub(r'[\w-]+="[^"]*"|\bdata-[\w-]+', " ", text.replace(PLACE, " "))
        words = re.findall(r"[^\W\d_]{2,}", attributes)
        if words:
            self.literal.append(f"{where}: {' '.join(text.replace(PLACE, '…').split())!r}")


def untranslated_template_text(source: str) -> list[str]:
    """The words a template shows that no {% translate %} or {% blocktranslate %} carries."""
    pieces = []
    inside = []  # the blocks whose text is not shown as it is (blocktranslate, comment, verbatim)
    for token in Lexer(source).tokenize():
        if token.token_type is TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents else ""
            if name in ("blocktranslate", "blocktrans", "comment", "verbatim"):
                inside.append(name)
            elif name in ("endblocktranslate", "endblocktrans", "endcomment", "endverbatim") and inside:
                inside.pop()
            pieces.append(PLACE)
        elif token.token_type is TokenType.TEXT and not inside:
            pieces.append(token.contents)
        else:
            pieces.append(PLACE)
    reader = TemplateText()
    reader.feed("".join(pieces))
    return reader.literal


def test_the_template_checker_finds_a_word_no_tag_translates():
    assert untranslated_template_text('<p>Saved</p><button aria-label="Add one">+</button>') == [
        "text: 'Saved'",
        "button[aria-label]: 'Add one'",
    ]
    assert (
        untranslated_template_text(
            '{% load i18n %}<p title="{% translate "Saved" %}">{% blocktranslate %}Hello {{ n }}{% endblocktranslate %}'
            ' · {{ name }} — 3 + 4</p>{# a comment #}{% comment %}Notes{% endcomment %}<script>var a = "b c";</script>'
        )
        == []
    )


@pytest.mark.parametrize("path", template_files(), ids=lambda path: str(path.relative_to(ROOT / "templates")))
def test_every_word_of_a_template_is_marked_for_translation(path):
    assert untranslated_template_text(path.read_text(encoding="utf-8")) == []


# Calls whose text a person reads: a string (or f-string) with words given to them directly is a
# string nobody marked for translation.
USER_FACING_CALLS = {
    "ValidationError",
    "HttpResponse",
    "Http404",
    "PermissionDenied",
    "CommandError",
    "NoAccess",
    "NotAllowed",
    "ViewOnly",
    "Problem",
    "GameFileError",
    "write",
    "add_error",
    "success",
    "error",
    "warning",
    "info",
}
USER_FACING_KEYWORDS = {"label", "short_label", "help_text", "empty_label", "verbose_name", "help", "message", "title"}
NOT_USER_FACING = {"content_type", "Content-Type"}


def python_files() -> list[Path]:
    files = sorted([*(ROOT / "scoring").rglob("*.py"), *(ROOT / "apiary_site").glob("*.py")])
    return [path for path in files if "migrations" not in path.parts and path.name not in MACHINE_MODULES]


def _words(node: ast.AST) -> str | None:
    """The literal words of a string or f-string, when it has some."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = " ".join(part.value for part in node.values if isinstance(part, ast.Constant))
    else:
        return None
    return text if re.search(r"[A-Za-z]{2,}\W+[A-Za-z]", text) else None


def untranslated_python_strings(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        if (
            called in ("warning", "info", "error", "debug", "exception")
            and isinstance(node.func, ast.Attribute)
            and (getattr(node.func.value, "id", "") in ("logger", "logging", "log"))
        ):
            continue  # the server's log is for its operator, in English
        arguments = []
        if called in USER_FACING_CALLS:
            arguments += [(f"{called}()", argument) for argument in node.args]
        arguments += [
            (f"{called}({keyword.arg}=)", keyword.value)
            for keyword in node.keywords
            if keyword.arg in USER_FACING_KEYWORDS
        ]
        for where, argument in arguments:
            if isinstance(argument, ast.Dict):  # error_messages={...}
                continue
            words = _words(argument)
            if words is not None and words not in NOT_USER_FACING:
                found.append(f"line {argument.lineno}: {where} {words[:80]!r}")
    return found


def test_the_python_checker_finds_a_message_nobody_marked():
    assert untranslated_python_strings(
        'raise ValidationError("Type a number.")\n'
        'raise CommandError(f"cannot read {path}: {why}")\n'
        'x = forms.CharField(label="Your name")\n'
    ) == [
        "line 1: ValidationError() 'Type a number.'",
        "line 2: CommandError() 'cannot read  : '",
        "line 3: CharField(label=) 'Your name'",
    ]
    assert (
        untranslated_python_strings(
            'raise ValidationError(_("Type a number."))\n'
            'HttpResponse(text, content_type="text/plain; charset=utf-8")\n'
            'logger.warning("Rate limit %r reached", rule)\n'
        )
        == []
    )


@pytest.mark.parametrize("path", python_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_message_of_the_python_code_is_marked_for_translation(path):
    found = untranslated_python_strings(path.read_text(encoding="utf-8"))
    assert [item for item in found if (path.name, item.split(": ", 1)[1]) not in NOBODY_READS] == []


# Strings in those calls that no person reads: a database column's note (the admin is not installed).
NOBODY_READS = {("models.py", "BigIntegerField(help_text=) 'Sum of the VP of '")}


def test_the_phone_side_takes_every_word_from_the_page_which_translates_it():
    """The scripts of static/scoring/ say nothing of their own: each message is read from a
    data-msg-* attribute of the pad (``msg("msgSaving")``), which pad.html fills with a
    {% translate %}; no other string of a script is a sentence shown to the player."""
    scripts = {path.name: path.read_text(encoding="utf-8") for path in (ROOT / "static" / "scoring").glob("*.js")}
    template = (ROOT / "templates" / "scoring" / "pad.html").read_text(encoding="utf-8")
    keys = {key for script in scripts.values() for key in re.findall(r"""["'](msg[A-Z]\w+)["']""", script)}
    assert "msgSaving" in keys, "the scripts read their words with msg()"
    for key in sorted(keys):
        attribute = "data-" + re.sub(r"([A-Z])", lambda m: "-" + m.group(1).lower(), key)
        assert re.search(rf'{attribute}="{{% translate \'[^\']+\' %}}"', template), (
            f"{attribute} is missing from the pad, or not translated"
        )
    for name, script in scripts.items():
        strings = re.findall(r'"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\'', re.sub(r"//[^\n]*", "", script))
        sentences = [
            double or single
            for double, single in strings
            if re.fullmatch(r"[A-Z][a-z]+(?:[ ,:;'’]+[A-Za-z]+)+[.!?…]?", double or single)
        ]
        assert sentences == [], f"words of {name}'s own: read them from the page (a data-msg-* attribute)"


# ---------------------------------------------------------------------------------------------
# The pad as the editions write it (issue 28): the rules a program can hold, each shown to find
# what it forbids, and the words and figures the pages show in both languages.


# -- No sentence with a colon is assembled outside the catalogue: in a template, a colon and the
# words on either side of it come from one {% translate %} or {% blocktranslate %} (a label and a
# text glued by the template, "{{ label }}: {{ help }}", or a label ending with a colon followed
# by a variable, read as one sentence as inline elements do not part them).

PIECE = "\x01"  # between two pieces of a template: its literal text, a translation, a variable, a tag
INLINE = frozenset({"a", "abbr", "b", "bdi", "code", "em", "i", "label", "output", "small", "span", "strong", "sup"})


def template_pieces(source: str) -> str:
    """A template's text as it reads, each piece apart (PIECE between): a {% translate %} its
    words, a {% blocktranslate %} its whole sentence (its variables as PLACE), a variable PLACE, a
    tag nothing; comments and {% verbatim %} left out."""
    pieces, block, skipping = [], None, 0
    for token in Lexer(source).tokenize():
        contents = token.contents
        name = contents.split()[0] if token.token_type is TokenType.BLOCK and contents else ""
        if name in ("comment", "verbatim"):
            skipping += 1
        elif name in ("endcomment", "endverbatim"):
            skipping -= 1
        elif skipping or token.token_type is TokenType.COMMENT:
            continue
        elif name in ("blocktranslate", "blocktrans"):
            block = []
        elif name in ("endblocktranslate", "endblocktrans"):
            pieces.append("".join(block))
            block = None
        elif block is not None:  # (a blocktranslate's text, variables and {% plural %}: its sentence)
            block.append(PLACE if token.token_type is TokenType.VAR else "" if name == "plural" else contents)
        elif name in ("translate", "trans") and " as " not in contents:
            message = token.split_contents()[1]
            pieces.append(ast.literal_eval(message) if message[0] in "'\"" else PLACE)  # (a variable's words)
        elif token.token_type is TokenType.TEXT:
            pieces.append(contents)
        else:
            pieces.append(PLACE if token.token_type is TokenType.VAR else "")
    return PIECE.join(pieces)


class TextRuns(HTMLParser):
    """The runs of text a reader meets (inline elements do not end one, a blank line does: a
    paragraph of a mail) and the user-facing attributes, scripts and styles left out."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text: list[str] = [""]
        self.attributes: list[str] = []
        self.skip = 0

    @property
    def runs(self) -> list[str]:
        return [run for text in self.text for run in re.split(r"\n[ \t\x01]*\n", text)] + self.attributes

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for name, value in attributes.items():
            if value and (name in CHECKED_ATTRIBUTES or name.startswith("data-msg-")):
                self.attributes.append(value)
        if tag in ("script", "style"):
            self.skip += 1
        if tag not in INLINE:
            self.text.append("")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1
        if tag not in INLINE:
            self.text.append("")

    def handle_data(self, data):
        if not self.skip:
            self.text[-1] += data


def colons_assembled(text: str) -> list[str]:
    """The colons of a run with words on both sides that are not of the same piece."""
    found = []
    for match in re.finditer(":", text):
        before, after = text[: match.start()], text[match.end() :]
        gap_before, gap_after = re.search(rf"[\s{PIECE}]*$", before).group(), re.match(rf"[\s{PIECE}]*", after).group()
        words_before, words_after = before.strip(f" \t\n{PIECE}"), after.strip(f" \t\n{PIECE}")
        if words_before and words_after and PIECE in gap_before + gap_after and not after.startswith("//"):
            found.append(" ".join(text.replace(PIECE, "").replace(PLACE, "…").split()))
    return found


def colons_assembled_in_template(source: str) -> list[str]:
    reader = TextRuns()
    reader.feed(template_pieces(source))
    return [found for run in reader.runs for found in colons_assembled(run)]


def test_the_colon_rule_finds_a_sentence_a_template_assembles():
    assert colons_assembled_in_template("{{ row.label }}{% if row.help %}: {{ row.help }}{% endif %}") == ["…: …"]
    assert colons_assembled_in_template('<p>{% translate "Also played as:" %} {{ names }}</p>') == ["Also played as: …"]
    assert colons_assembled_in_template(
        "<p><b>{% blocktranslate %}Sector {{ n }}:{% endblocktranslate %}</b> {{ sentence }}</p>"
    ) == ["Sector …: …"]
    assert colons_assembled_in_template(
        '<a><span class="visually-hidden">{% translate "winner:" %} </span><bdi>{{ name }}</bdi></a>'
    ) == ["winner: …"]
    assert colons_assembled_in_template('<b title="{{ a }}: {% translate "VP" %}">x</b>') == ["…: VP"]


def test_the_colon_rule_lets_a_sentence_of_the_catalogue_be():
    assert (
        colons_assembled_in_template(
            "<p>{% blocktranslate with names=x %}Shared victory: {{ names }}{% endblocktranslate %}</p>"
            '<p>{% translate "Nobody has entered these yet:" %}</p><ul><li>{{ what }}</li></ul>'
            '<div hx-headers=\'{"X-CSRFToken": "{{ csrf_token }}"}\'>'
            '{% translate "Your data: export and import" %}</div>'
            '<style>.a { color: red; }</style><a href="https://example.com/{{ x }}">{{ y }}</a>'
        )
        == []
    )


@pytest.mark.parametrize("path", template_files(), ids=lambda path: str(path.relative_to(ROOT / "templates")))
def test_no_template_assembles_a_sentence_with_a_colon(path):
    assert colons_assembled_in_template(path.read_text(encoding="utf-8")) == []


def _model_classes(tree: ast.AST) -> list[ast.ClassDef]:
    """The module's Django models (a subclass of models.Model, or of a model of the module)."""
    models, names = [], {"Model"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(
            getattr(base, "attr", getattr(base, "id", "")) in names for base in node.bases
        ):
            models.append(node)
            names.add(node.name)
    return models


def colons_assembled_in_python(source: str) -> list[str]:
    """The strings of the Python code that glue a colon to a value ("{label}: {text}", "%s: %s",
    format_html("{}: {}")), the names a row of the database gives itself in a shell aside
    (a model's __str__) and the log (for its operator, in English)."""
    tree = ast.parse(source)
    skipped = set()
    for model in _model_classes(tree):
        for node in model.body:
            if isinstance(node, ast.FunctionDef) and node.name in ("__str__", "__repr__"):
                skipped |= {id(inner) for inner in ast.walk(node)}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", "") in ("debug", "info", "warning", "error", "exception")
            and getattr(node.func.value, "id", "") in ("logger", "logging", "log")
        ):
            skipped |= {id(inner) for inner in ast.walk(node)}
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        text = None
        if isinstance(node, ast.JoinedStr):
            text = "".join(part.value if isinstance(part, ast.Constant) else PLACE for part in node.values)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", "")) in ("format_html", "format")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            text = re.sub(r"\{\w*\}", PLACE, str(node.args[0].value))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant):
            text = re.sub(r"%(?:\(\w+\))?[sd]", PLACE, str(node.left.value))
        if text is not None and re.search(rf"{PLACE}\s*:\s|\S:\s+{PLACE}", text):
            found.append(f"line {node.lineno}: {text.replace(PLACE, '…')!r}")
    return found


def test_the_colon_rule_finds_a_sentence_the_python_code_assembles():
    assert colons_assembled_in_python(
        'a = f"{self.path}: {self.message}"\nb = format_html("{}: {}", x, y)\nc = "%s: %s" % (x, y)\n'
    ) == ["line 1: '…: …'", "line 2: '…: …'", "line 3: '…: …'"]
    assert (
        colons_assembled_in_python(
            'a = _("%(label)s: %(value)s") % {"label": x, "value": y}\nb = f"transfer:{key}:{n}"\n'
            'logger.warning(f"refused {x}: {y}")\nclass Seat(models.Model):\n    def __str__(self):\n'
            '        return f"{self.name}: {self.total}"\n'
        )
        == []
    )


@pytest.mark.parametrize("path", python_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_python_code_assembles_a_sentence_with_a_colon(path):
    assert colons_assembled_in_python(path.read_text(encoding="utf-8")) == []


# A message that is only a label and its colon is the half of a sentence some code finishes.
LABEL_AND_COLON = re.compile(r"^(?:%\(\w+\)s[\s,]*)+:$")


@NEEDS_GETTEXT
def test_no_message_of_the_catalogue_is_half_a_sentence():
    assert LABEL_AND_COLON.search("%(label)s:") and not LABEL_AND_COLON.search("The game cannot be finished yet:")
    assert [english for english, _french in translations(PO) if LABEL_AND_COLON.search(english)] == []


# -- No short label reads as another row, or as a section's title (French players typed comb
# points in the row whose short words were the comb section's own name).


def colliding_labels(rows: dict[str, tuple[str, str]], titles: list[str]) -> list[str]:
    """Each row (key: its short words, its full words) whose short words are a section's title,
    another row's short words or another row's full words."""
    found = []
    for key, (short, _full) in rows.items():
        others = [words for other, pair in rows.items() if other != key for words in pair]
        if short in titles or short in others:
            found.append(f"{key}: {short!r}")
    return found


def test_the_label_rule_finds_a_short_label_that_reads_as_something_else():
    rows = {
        "comb_pods": ("Alvéoles d’Hibernation", "Bonus des Alvéoles d’Hibernation"),
        "farms": ("Fermes", "Fermes construites"),
        "farm_income": ("Fermes", "Revenus des Fermes"),
        "recruits": ("Recrues", "Recrues"),
    }
    assert colliding_labels(rows, ["Alvéoles d’Hibernation"]) == [
        "comb_pods: 'Alvéoles d’Hibernation'",
        "farms: 'Fermes'",
        "farm_income: 'Fermes'",
    ]
    assert colliding_labels({"recruits": ("Recrues", "Recrues")}, ["Fin de la partie"]) == []


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_row_of_the_pad_reads_as_another_row_or_a_section(owner, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(owner)
    game = game_started("Alice", "Bruno")  # (a breakdown game: every row)

    html = client.get(url("pad", game)).content.decode()

    titles = [
        unescape(strip_tags(title)).strip() for title in re.findall(r"<h2[^>]*>(.*?)(?:<small|</h2>)", html, re.DOTALL)
    ]
    helps = re.findall(
        r'<details class="row-help" id="help-(\w+)"[^>]*><summary>([^<]*)</summary>'
        r'<small class="help">([^<]*)</small>',
        html,
    )
    rows = {key: (unescape(short), unescape(full)) for key, short, full in helps}
    assert len(rows) == len(CATEGORIES)  # every category but the VP track, and the comb's majorities
    with translation.override(language):
        assert translation.gettext("Hibernation Comb") in titles
    assert colliding_labels(rows, titles) == []


# -- Every date through the one date filter (``scoring.explain.game_date``: "1er" in French), and
# every time of day through the one clock (``scoring.explain.clock``: "21 h 14" in French).

DATE_FILTERS = re.compile(
    r"\|\s*(?:date|time|naturalday|naturaltime|timesince|timeuntil)\b|\{%\s*now\s+(?!['\"]U['\"])"
)
DATE_FORMATTERS = re.compile(
    r"^\s*(?:from|import)\s+django\.(?:utils\.dateformat|utils\.timesince|template\."
    r"defaultfilters\s+import\s+(?:.*\b)?date\b)|\bformats\.(?:date|time)_format\b",
    re.MULTILINE,
)
# A game file's problems quote its own timestamps as the file writes them.
MACHINE_DATES = {("reading.py", "at")}


def dates_outside_the_filter_in_template(source: str) -> list[str]:
    return [match.group() for match in DATE_FILTERS.finditer(source)]


def dates_outside_the_filter_in_python(source: str, name: str = "") -> list[str]:
    """Python that writes a date or a time for a person itself: a formatter of Django's imported
    (``scoring/wording/numbers_and_dates.py`` holds the one use of each), or a message given
    isoformat() or strftime()."""
    found = [f"imports {match.group().strip()!r}" for match in DATE_FORMATTERS.finditer(source)]
    for node in ast.walk(ast.parse(source)):
        values: list[tuple[str, ast.AST]] = []
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.right, ast.Dict):
            values = [
                (getattr(key, "value", ""), value)
                for key, value in zip(node.right.keys, node.right.values, strict=False)
            ]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("words", "labelled"):
            values = [(keyword.arg, keyword.value) for keyword in node.keywords]
        for key, value in values:
            if (name, key) in MACHINE_DATES:
                continue
            if any(
                isinstance(inner, ast.Call) and getattr(inner.func, "attr", "") in ("isoformat", "strftime")
                for inner in ast.walk(value)
            ):
                found.append(f"line {value.lineno}: {key} written by isoformat() or strftime()")
    return found


def test_the_date_rule_finds_a_date_written_outside_the_filter():
    assert dates_outside_the_filter_in_template(
        '{{ game.played_on|date:_("D j M Y") }} {{ at|time:"H:i" }} {% now "j M Y" %} {{ at|timesince }}'
    ) == ["|date", "|time", "{% now ", "|timesince"]
    assert dates_outside_the_filter_in_python(
        "from django.utils.dateformat import format as date_format\n"
        'x = words(_("%(keep)s played on %(date)s."), keep=k, date=game.played_on.isoformat())\n'
        'y = _("at %(time)s") % {"time": at.strftime("%H:%M")}\n'
    ) == [
        "imports 'from django.utils.dateformat'",
        "line 2: date written by isoformat() or strftime()",
        "line 3: time written by isoformat() or strftime()",
    ]
    assert dates_outside_the_filter_in_template('{{ game.played_on|game_date:_("D j M Y") }} {% now "U" %}') == []


@pytest.mark.parametrize("path", template_files(), ids=lambda path: str(path.relative_to(ROOT / "templates")))
def test_every_template_writes_a_date_through_the_one_filter(path):
    assert dates_outside_the_filter_in_template(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "path",
    [path for path in python_files() if path != ROOT / "scoring" / "wording" / "numbers_and_dates.py"],
    ids=lambda path: str(path.relative_to(ROOT)),
)
def test_the_python_code_writes_a_date_through_the_one_filter(path):
    assert dates_outside_the_filter_in_python(path.read_text(encoding="utf-8"), path.name) == []


FIRST_OF_DECEMBER = date(2026, 12, 1)


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "day"), [("fr", "1er déc. 2026"), ("en", "1 Dec 2026")])
def test_every_page_that_shows_a_games_date_writes_it_through_the_one_filter(owner, language, day):
    """The first of the month is "1er" on every page that shows the day a game was played (in
    French the first a table-mate sees, Which player are you?, lost it), and the long form's
    weekday is abbreviated with its period ("mar. 1er déc. 2026")."""
    accept = {"HTTP_ACCEPT_LANGUAGE": language}
    phone = Client(**accept)
    phone.force_login(owner)
    game = game_scored(player("Alice", farm_income=10), player("Bruno", farm_income=5), played_on=FIRST_OF_DECEMBER)
    finished = game_scored(
        player("Alice", farm_income=10), player("Bruno", farm_income=5), played_on=FIRST_OF_DECEMBER, finished=True
    )
    link = services.link_renew(game=game, access="edit").token
    holder = Client(**accept)
    holder.get(reverse("scoring:join", args=[link]))
    other = Client(**accept)
    other.force_login(User.objects.create_user("zoe", password=PASSWORD))
    alice, bruno = (Seat.objects.get(game=finished, name=name).player for name in ("Alice", "Bruno"))

    pages = {
        "pad": phone.get(url("pad", game)),
        "results": phone.get(url("results", game)),
        "table": phone.get(url("table", game)),
        "during": phone.get(url("during", game)),
        "delete": phone.get(url("delete", game)),
        "history": phone.get(url("history")),
        "who": holder.get(url("who", game)),
        "join": other.get(reverse("scoring:join", args=[link])),
        "player": phone.get(reverse("scoring:player", args=[alice.pk])),
        "merge": phone.post(reverse("scoring:player_merge", args=[alice.pk]), {"same_as": bruno.pk}),
    }

    for name, response in pages.items():
        assert day in text_of(response.content.decode()), name
    if language == "fr":
        assert "mar. 1er déc. 2026" in text_of(pages["pad"].content.decode())


@pytest.mark.parametrize(("language", "written"), [("fr", "21\u202fh\u202f14"), ("en", "21:14")])
def test_a_time_of_day_reads_as_the_typographers_write_it(language, written):
    from scoring.wording.numbers_and_dates import clock

    with translation.override(language), timezone.override("UTC"):
        assert clock(datetime(2026, 12, 1, 21, 14, tzinfo=UTC)) == written


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "written"), [("fr", "G\u202f\\h\u202fi"), ("en", "H:i")])
def test_the_phone_side_writes_a_time_as_the_server_does(owner, language, written):
    """offline.js writes the time of an offline copy in the format the page gives it
    (tests/js/clock.test.js), the server's own."""
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(owner)

    html = client.get(url("pad", game_started("Alice"))).content.decode()

    assert re.search(r'id="offline-copy"[^>]* data-time-format="([^"]*)"', html).group(1) == written


@pytest.mark.django_db
def test_who_finished_a_game_another_day_and_when_reads_as_french_writes_it(french, owner):
    game = game_started("Alice", "Bruno", played_on=FIRST_OF_DECEMBER)
    services.game_finish(game=game, by=Actor(user=owner))
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.make_aware(datetime(2026, 12, 1, 21, 14)))

    text = text_of(assert_french(french.get(url("pad", game)), status=200))

    assert "Terminée par le propriétaire le 1er déc. 2026 à 21\u202fh\u202f14." in text


# -- Figures: a negative one with a true minus sign, wherever it is shown


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_negative_figure_is_written_with_a_true_minus_sign(owner, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(owner)
    game = game_scored(
        player("Maya", starting_vp=0, carvings=-7), player("Tom", starting_vp=0, farm_income=3), finished=True
    )

    pages = [client.get(url(name, game)).content.decode() for name in ("pad", "results", "table")]
    pages.append(client.get(url("history")).content.decode())

    for html in pages:
        text = text_of(html)
        assert "\u22127" in text and not re.search(r"(?<![\w+])-7\b", text), text[:200]


# -- Recent changes: "just now" for the last minute, in both languages


@pytest.mark.parametrize(
    ("seconds", "language", "written"),
    [
        (0, "en", "just now, by Ann"),
        (59, "en", "just now, by Ann"),
        (60, "en", "1\u00a0minute ago, by Ann"),
        (0, "fr", "à l’instant, par Ann"),
        (59, "fr", "à l’instant, par Ann"),
        (60, "fr", "il y a 1\u00a0minute, par Ann"),
        (-5, "en", "just now, by Ann"),  # (a clock a little ahead: still just now)
    ],
)
def test_what_was_done_within_the_last_minute_was_done_just_now(seconds, language, written):
    from datetime import timedelta

    from scoring.wording.numbers_and_dates import when_by

    now = datetime(2026, 12, 1, 21, 14, tzinfo=UTC)
    with translation.override(language):
        assert shown(when_by(now - timedelta(seconds=seconds), "Ann", now)) == written


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "just_now", "earlier"),
    [
        ("en", "just now, by the owner", "5\u00a0minutes ago, by the owner"),  # (Django's timesince: a no-break space)
        ("fr", "à l’instant, par le propriétaire", "il y a 5\u00a0minutes, par le propriétaire"),
    ],
)
def test_recent_changes_say_just_now_for_the_last_minute(owner, language, just_now, earlier):
    from datetime import timedelta

    from scoring.models import Change

    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(owner)
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farms", value=3, by=Actor(user=owner))
    save_value(seat=seat_of(game, 2), key="farms", value=4, by=Actor(user=owner))
    first = Change.objects.filter(game=game).order_by("pk").first()
    Change.objects.filter(pk=first.pk).update(at=timezone.now() - timedelta(minutes=5, seconds=30))

    changes = re.findall(r'<span class="change-when">(.*?)</span>', client.get(url("pad", game)).content.decode())

    assert [unescape(strip_tags(change)) for change in changes] == [just_now, earlier]
