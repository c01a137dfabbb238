"""Short sums typed into a score field ("3+6+2"), in plain Python.

A field accepts a whole number or a sum of whole numbers with + and - between them, so a
player can add up a category as they count it. The pad stores the result and keeps the
text so it stays editable.
"""

from __future__ import annotations

import re

MAX_SUM_LENGTH = 60
MINUS = "\u2212"  # a true minus sign: "−3", never the hyphen of "-3" (as the pages write a figure; a sum may hold it)
_NORMALIZE = str.maketrans({MINUS: "-", "\u2013": "-", "\uff0b": "+", "\uff0d": "-"})
# Only the digits 0 to 9: Python's \d would also take other scripts' digits ("٣", "１２").
_SUM = re.compile(r"[+-]?[0-9]+(?:[+-][0-9]+)*")


class NotASum(ValueError):
    """The text is neither a whole number nor a sum of whole numbers."""


def normalize(text: str) -> str:
    """The text as the pad keeps it: no spaces, plain ASCII signs."""
    return "".join(text.translate(_NORMALIZE).split())


def evaluate_sum(text: str) -> int:
    """The value of ``text``: ``"12"`` is 12, ``"3+6+2"`` is 11, ``"14-3"`` is 11.

    Raises NotASum for anything else (letters, decimals, ``"3++2"``, an empty text).
    """
    compact = normalize(text)
    if not compact or len(compact) > MAX_SUM_LENGTH or not _SUM.fullmatch(compact):
        raise NotASum(text)
    return sum(int(term) for term in re.findall(r"[+-]?[0-9]+", compact))


def is_sum(text: str) -> bool:
    """True when ``text`` is a sum of several terms rather than one plain number."""
    compact = normalize(text)
    return bool(re.search(r"[0-9][+-]", compact))


def input_text(value: int | bool | None, sum_text: str = "") -> str:
    """A stored value as the pad's input shows it: the sum it was typed as (when it still makes
    the value), the number, "" when not entered, and "True" or "False" for a yes/no entry (as
    Django writes a checkbox's hidden initial)."""
    if isinstance(value, bool):
        return str(value)
    if value is not None and sum_text:
        try:
            if evaluate_sum(sum_text) == value:
                return sum_text
        except NotASum:
            pass
    return "" if value is None else str(value)
