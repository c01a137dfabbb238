"""The pad as the editions write it (issue 28): the rules a program can hold, each shown to find
what it forbids, and the words and figures the pages show in both languages.

- No sentence with a colon is assembled outside the catalogue (in a template, in the Python code,
  or by a message of the catalogue that is only half a sentence).
- No short label of the pad reads as another row or as a section's title.
- Every date goes through the one date filter and every time of day through the one clock
  ("mar. 1er déc. 2026", "21 h 14"), on the server and on the phone side alike.
- A negative figure is written with a true minus sign, wherever it is shown.
- Recent changes say "just now" ("à l’instant") for the last minute.
"""

from __future__ import annotations

import ast
import re
from datetime import UTC, date, datetime
from html import unescape
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.template.base import Lexer, TokenType
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import strip_tags

from scoring.actors import Actor
from scoring.models import Game, Seat
from scoring.rules.categories import CATEGORIES
from scoring.services.finishing import game_finish
from scoring.services.sharing import link_renew
from tests.i18n.helpers import (
    CHECKED_ATTRIBUTES,
    NEEDS_GETTEXT,
    PLACE,
    PO,
    ROOT,
    assert_french,
    python_files,
    shown,
    template_files,
    text_of,
    translations,
    url,
)
from tests.support.factories import PASSWORD, game_scored, game_started, player, save_value, seat_of
from tests.support.pages import markup, parse

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

    html = markup(client.get(url("pad", game)))

    titles = [
        unescape(strip_tags(title)).strip() for title in re.findall(r"<h2[^>]*>(.*?)(?:<small|</h2>)", html, re.DOTALL)
    ]
    rows = {
        help["id"].removeprefix("help-"): (help.one("summary").text, help.one("small", class_="help").text)
        for help in parse(html).find_all("details", class_="row-help")
    }
    assert len(rows) == len(CATEGORIES)  # every category but the VP track, and the comb's majorities
    with translation.override(language):
        assert translation.gettext("Hibernation Comb") in titles
    assert colliding_labels(rows, titles) == []


# -- Every date through the one date filter (``wording.numbers_and_dates.game_date``: "1er" in French), and
# every time of day through the one clock (``wording.numbers_and_dates.clock``: "21 h 14" in French).

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
@pytest.mark.parametrize(("language", "day"), [("fr", "1er\u00a0déc.\u00a02026"), ("en", "1\u00a0Dec\u00a02026")])
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
    link = link_renew(game=game, access="edit").token
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
        assert day in text_of(markup(response)), name
    if language == "fr":
        assert "mar.\u00a01er\u00a0déc.\u00a02026" in text_of(markup(pages["pad"]))  # (one unit)


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

    html = markup(client.get(url("pad", game_started("Alice"))))

    assert parse(html).by_id("offline-copy")["data-time-format"] == written


@pytest.mark.django_db
def test_who_finished_a_game_another_day_and_when_reads_as_french_writes_it(french, owner):
    game = game_started("Alice", "Bruno", played_on=FIRST_OF_DECEMBER)
    game_finish(game=game, by=Actor(user=owner))
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.make_aware(datetime(2026, 12, 1, 21, 14)))

    text = text_of(assert_french(french.get(url("pad", game)), status=200))

    assert "Terminée par le propriétaire le 1er\u00a0déc.\u00a02026 à 21\u202fh\u202f14." in text


# -- Figures: a negative one with a true minus sign, wherever it is shown


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_negative_figure_is_written_with_a_true_minus_sign(owner, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(owner)
    game = game_scored(
        player("Maya", starting_vp=0, carvings=-7), player("Tom", starting_vp=0, farm_income=3), finished=True
    )

    pages = [markup(client.get(url(name, game))) for name in ("pad", "results", "table")]
    pages.append(markup(client.get(url("history"))))

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

    changes = re.findall(r'<span class="change-when">(.*?)</span>', markup(client.get(url("pad", game))))

    assert [unescape(strip_tags(change)) for change in changes] == [just_now, earlier]
