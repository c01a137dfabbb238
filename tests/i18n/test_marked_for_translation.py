"""Nothing user-facing escapes translation: every word a template shows is carried by a
{% translate %} or a {% blocktranslate %}, every message of the Python code a person reads is
marked for translation, and the pad's scripts say nothing of their own (each message is read from
a data-msg-* attribute the template translates). Each checker is shown to find what it forbids.
"""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser

import pytest
from django.template.base import Lexer, TokenType

from scoring.presenters.pad_page import script_words
from tests.i18n.helpers import CHECKED_ATTRIBUTES, PLACE, ROOT, python_files, template_files


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
    """The scripts of static/scoring/ say nothing of their own: each message is read from the
    words the pad writes for them (``msg("msgSaving")``: ``presenters.pad_page.script_words``,
    each a gettext of the catalogue); no other string of a script is a sentence shown to the
    player."""
    scripts = {path.name: path.read_text(encoding="utf-8") for path in (ROOT / "static" / "scoring").glob("*.js")}
    keys = {key for script in scripts.values() for key in re.findall(r"""["'](msg[A-Z]\w+)["']""", script)}
    assert "msgSaving" in keys, "the scripts read their words with msg()"
    assert sorted(keys - script_words().keys()) == [], "words the pad does not write for its script"
    for name, script in scripts.items():
        strings = re.findall(r'"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\'', re.sub(r"//[^\n]*", "", script))
        sentences = [
            double or single
            for double, single in strings
            if re.fullmatch(r"[A-Z][a-z]+(?:[ ,:;'’]+[A-Za-z]+)+[.!?…]?", double or single)
        ]
        assert sentences == [], f"words of {name}'s own: read them from the page (a data-msg-* attribute)"
