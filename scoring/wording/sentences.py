"""A sentence of the catalogue with its values put in, as HTML (``words``): each name in its own
``<bdi>`` (``isolated``), so that a name, whatever it holds, never reorders the words around it;
the sentence's own words and every value escaped; the Automa named as the edition names it
(``AUTOMA``). ``plain_text`` turns such a sentence into the text the pad's script shows; a
sentence goes on after a label and its colon as a ``clause``."""

from __future__ import annotations

import html
from collections.abc import Sequence

from django.utils.html import conditional_escape, format_html, strip_tags
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"  # a <bdi> in plain text


# The Automa's place in a sentence, given instead of its seat's name: no name anyone typed, but
# the game's own word, with the article the edition writes ("the Automa", « l’Automa »), and a
# capital where it starts a sentence (``sentence``).
AUTOMA = "\0Automa\0"


def _automa(*, starting: bool = False) -> SafeString:
    if starting:
        return conditional_escape(pgettext("the Automa, starting a sentence", "The Automa"))
    return conditional_escape(pgettext("the Automa, within a sentence", "the Automa"))


def isolated(name: str) -> SafeString:
    """A name as the pages show it: escaped, in its own ``<bdi>`` (HTML's bidirectional isolate),
    so that whatever it holds (letters written right to left, a character that reorders text
    stored before ``scoring.rules.names`` refused it) it never reorders the words around it: "by
    <bdi>Ann</bdi> (edit link)" keeps "(edit link)" where it is. (``AUTOMA``: the Automa, in the
    game's words.)"""
    if name == AUTOMA:
        return _automa()
    return format_html("<bdi>{}</bdi>", name)


def words(message: str, **values) -> SafeString:
    """A sentence of the catalogue with its values put in, as HTML: the sentence's own words
    escaped (a translator's markup is shown as written, never read as markup), each value escaped
    unless it is HTML already (a name ``isolated``, or a sentence made here)."""
    return mark_safe(conditional_escape(message) % {key: conditional_escape(value) for key, value in values.items()})


def sentence(message: str, **values) -> SafeString:
    """A whole sentence (``words``), which may start with the Automa: then with a capital ("The
    Automa leads with 3 tokens", « L’Automa est 2e »)."""
    made = words(message, **values)
    within = _automa()
    if made.startswith(within):
        return mark_safe(_automa(starting=True) + made[len(within) :])
    return made


def plain_text(sentence: str) -> str:
    """A sentence made here as plain text (the pad's script shows its refusals as text): each
    ``<bdi>`` becomes Unicode's first-strong isolate (U+2068 … U+2069, which text reads as a page
    reads a <bdi>), and what was escaped is itself again."""
    isolates = str(sentence).replace("<bdi>", FIRST_STRONG_ISOLATE).replace("</bdi>", POP_DIRECTIONAL_ISOLATE)
    return html.unescape(strip_tags(isolates))


def names_list(names: Sequence[str]) -> SafeString:
    """ "Alice", "Alice and Bruno", "Alice, Bruno and Carla" (Django's get_text_list), each name
    ``isolated``, the words between them escaped."""
    return listed([isolated(name) for name in names])


def listed(items: Sequence[SafeString]) -> SafeString:
    """Items already made HTML ("<bdi>Alice</bdi> (2)"), listed as names are: "A, B and C"."""
    marks = [f"\0{index}\0" for index in range(len(items))]  # (no word of a catalogue holds a NUL)
    joined: str = conditional_escape(str(get_text_list(marks, _("and"))))
    for mark, item in zip(marks, items, strict=True):
        joined = joined.replace(mark, item)
    return mark_safe(joined)


def labelled(label: str, value) -> SafeString:
    """ "Player: Alice" (a filter chip), "Farms built, Alice: 120 is far above …" (a value's
    message under its row): one sentence of the catalogue, French "Joueur : Alice" (``words``: a
    name given ``isolated``, a label given as HTML kept as it is)."""
    return words(_("%(label)s: %(value)s"), label=label, value=value)


def clause(message: str) -> str:
    """A message of the catalogue, written as a sentence of its own, as the end of one that a
    label and a colon begin ("Farms built, Alice: the value must be …", French « Fermes
    construites, Alice : la valeur doit … »): its first word lowercase, as both languages write
    what follows a colon. A name (given ``isolated``: it starts with its <bdi>) and a word of
    capitals ("VP", "BG Stats") are left as they are. HTML stays HTML."""
    text = str(message)
    if len(text) < 2 or not (text[0].isupper() and text[1].islower()):
        return message
    lowered = text[0].lower() + text[1:]
    return mark_safe(lowered) if isinstance(message, SafeData) else lowered
