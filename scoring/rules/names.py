"""What a name may hold: the one rule of every name a person types (a player of the start form, an
account's name, the name an edit link's holder gives, a comb layout's) or a game file brings (a
player's, a faction's, the author of a change), read by the forms (``forms.names.NameField``) and the game
file's reader (``gamefile``) alike. Plain Python: the game file's reader has no Django.

A name is shown among other words ("3 min ago, by Ann (edit link)"), so it may hold no character
that hides or reorders text, which would make it say what it is not (a name typed as U+202E and
"aivilO" reads "by (knil tide) Olivia"):

- no format character (Unicode's category Cf, as Python's ``unicodedata`` knows it): the
  bidirectional embeddings, overrides, isolates and marks (U+202A-202E, U+2066-2069, U+200E,
  U+200F, U+061C), the zero-width space, word joiner and no-break space (U+200B, U+2060, U+FEFF),
  the soft hyphen, the invisible mathematical operators, the interlinear annotations, the tags
  (U+E0000-E007F, which spell hidden text) and the rest of Cf (the Arabic, Syriac and Kaithi
  number signs, the Egyptian hieroglyphs' and shorthand's format controls, the musical symbols'
  beams): none is a letter, and none belongs in a name;
- no control character (Cc) and no line or paragraph separator (Zl, Zp): a name is one line, and a
  paragraph separator ends the isolation of whatever holds the name;
- except the two joiners (U+200C ZERO WIDTH NON-JOINER, U+200D ZERO WIDTH JOINER) where a script
  or an emoji needs them, and there only: right after a virama (a halant: Devanagari, Bengali,
  Malayalam's chillus, Sinhala's "ශ්‍රී", ...; the context rule of IDNA, RFC 5892 A.1 and A.2), the
  non-joiner between two letters of the Arabic script, marks aside (Persian "می‌خواهم"; RFC 5892
  reads the letters' joining types, which Python does not know: their bidirectional class, AL,
  stands for them), and the joiner between two pictographs, a variation selector or a skin tone
  aside (the emoji sequences of UTS #51: "👩‍💻", "🏳️‍🌈"). Elsewhere a joiner changes nothing that can
  be seen, and would only make two names that look the same differ.

Nor may a name hold what Unicode calls a *default-ignorable* character beyond those (what a
renderer shows nothing of, ``DEFAULT_IGNORABLE``): the combining grapheme joiner (U+034F), the Hangul
fillers (U+115F, U+1160, U+3164, U+FFA0, which alone make a blank name), the Khmer inherent vowels,
the unassigned ignorables; and the variation selectors (U+FE00-FE0F, U+E0100-E01EF) and the
Mongolian ones (U+180B-180D, U+180F) except after a character they vary: a symbol, a digit or
punctuation (an emoji's "❤️", "1️⃣", "‼️"), a letter of a script without case (an ideograph's
variant), a Mongolian letter. "Ann" and "Ann" with a selector after its "n" would be two names that
look the same. Names are compared with these characters removed and case ignored (``name_key``).

Every other character is kept: letters of any script with their combining marks, digits,
punctuation, symbols and emoji, spaces, and the characters of a Unicode newer than the server's
(a new emoji typed on a phone). Where a name is typed, runs of spaces and line breaks become one
space before the rule is read (``one_line``); a game file's names are read as they are written.
"""

from __future__ import annotations

import re
import unicodedata

ZERO_WIDTH_NON_JOINER = "\u200c"
ZERO_WIDTH_JOINER = "\u200d"
_REFUSED_CATEGORIES = frozenset({"Cf", "Cc", "Zl", "Zp"})
_VIRAMA = 9  # the canonical combining class of a virama
_MARKS = frozenset({"Mn", "Me"})  # what sits on a letter: the joining rules look past them
_EMOJI_MODIFIERS = frozenset({"Mn", "Me", "Sk"})  # a variation selector (Mn), a skin tone (Sk)


# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15.1), which Python's
# unicodedata does not give: the ranges not already of the refused categories (Cf) matter here.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
_VARIATION_SELECTORS = ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF))
_MONGOLIAN_SELECTORS = ((0x180B, 0x180D), (0x180F, 0x180F))
_MONGOLIAN_LETTERS = (0x1820, 0x18AA)
# What a variation selector may follow: a symbol, a digit or punctuation (emoji and keycaps), or a
# letter of a script without case (an ideograph, whose variants the selectors choose).
_VARIED_CATEGORIES = frozenset({"So", "Sm", "Sc", "Sk", "Nd", "No", "Po", "Lo"})


def _in(char: str, ranges: tuple[tuple[int, int], ...]) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in ranges)


def is_default_ignorable(char: str) -> bool:
    return _in(char, DEFAULT_IGNORABLE)


def name_key(name: str) -> str:
    """What makes two names the same name: without the spaces around them, the default-ignorable
    characters left out, case ignored ("Ann", " ann " and "Ann" with a selector are one name)."""
    return "".join(char for char in name.strip() if not is_default_ignorable(char)).casefold()


def one_line(text: str) -> str:
    """The text as a name typed on a page is kept: without the spaces around it, each run of
    spaces, tabs and line breaks inside it one space."""
    return " ".join(text.split())


def refused_character(name: str) -> str | None:
    """The first character of ``name`` that a name cannot hold (the module's rule), or None."""
    for index, char in enumerate(name):
        if unicodedata.category(char) in _REFUSED_CATEGORIES and not _joins(name, index):
            return char
        if is_default_ignorable(char) and not _varies(name, index) and not _joins(name, index):
            return char
    return None


def _varies(name: str, index: int) -> bool:
    """Whether the character at ``index`` is a variation selector after a character it varies."""
    char, before = name[index], name[index - 1] if index > 0 else "\0"
    if _in(char, _MONGOLIAN_SELECTORS):
        return _MONGOLIAN_LETTERS[0] <= ord(before) <= _MONGOLIAN_LETTERS[1]
    return _in(char, _VARIATION_SELECTORS) and unicodedata.category(before) in _VARIED_CATEGORIES


def character_words(char: str) -> str:
    """A character as a message names it: "U+202E RIGHT-TO-LEFT OVERRIDE"."""
    code = f"U+{ord(char):04X}"
    name = unicodedata.name(char, "")
    return f"{code} {name}" if name else code


def _joins(name: str, index: int) -> bool:
    """Whether the character at ``index`` is a joiner doing a script's or an emoji's work there."""
    char = name[index]
    if char not in (ZERO_WIDTH_NON_JOINER, ZERO_WIDTH_JOINER):
        return False
    if index > 0 and unicodedata.combining(name[index - 1]) == _VIRAMA:
        return True
    if char == ZERO_WIDTH_NON_JOINER:
        before, after = _neighbours(name, index, _MARKS)
        return unicodedata.bidirectional(before) == "AL" and unicodedata.bidirectional(after) == "AL"
    before, after = _neighbours(name, index, _EMOJI_MODIFIERS)
    return unicodedata.category(before) == "So" and unicodedata.category(after) == "So"


def _neighbours(name: str, index: int, skipped: frozenset[str]) -> tuple[str, str]:
    """The nearest characters before and after ``index`` that are not of the ``skipped``
    categories (NUL where there is none, which no rule takes)."""
    before, after = index - 1, index + 1
    while before >= 0 and unicodedata.category(name[before]) in skipped:
        before -= 1
    while after < len(name) and unicodedata.category(name[after]) in skipped:
        after += 1
    return (name[before] if before >= 0 else "\0"), (name[after] if after < len(name) else "\0")


def longest_unbroken(name: str) -> int:
    """How many characters of ``name`` a line must hold at least when the name breaks only where
    a person would break it: at its spaces, and after its hyphens ("Dominique-Alexandre": 10,
    "Dominique-"). The table view sizes a name's type by it, so that no word is split."""
    pieces = re.split(r"\s+|(?<=[-\u2010])", name.strip())
    return max((len(piece) for piece in pieces), default=0)
