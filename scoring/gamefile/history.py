"""The change history in the pad's words: a field is "t<sector position>" where the file says
"hibernation[<sector index>]", and a value is the text its input showed ("" not entered,
"True"/"False" for the flag, "3+6+2" for a sum, "12"). The selectors and services translate
with these, so that they need no rules of their own."""

from __future__ import annotations

import re

from scoring.fields import tokens_key, tokens_position
from scoring.gamefile.data import ChangeValue
from scoring.rules.sums import is_sum

_HIBERNATION_ENTRY = re.compile(r"hibernation\[(0|[1-9][0-9]*)\]")


def entry_of_field(key: str) -> str:
    """The file's entry for the pad's field key ("t2" is "hibernation[2]")."""
    position = tokens_position(key)
    return key if position is None else f"hibernation[{position}]"


def field_of_entry(entry: str) -> str:
    """The pad's field key for a (valid) entry of the file ("hibernation[2]" is "t2")."""
    found = _HIBERNATION_ENTRY.fullmatch(entry)
    return tokens_key(int(found.group(1))) if found else entry


def value_of_text(text: str) -> ChangeValue:
    """The file's value for the text a field showed ("" is None, "True" is true, "3+4" stays)."""
    if text == "":
        return None
    if text in ("True", "False"):
        return text == "True"
    if is_sum(text):
        return text
    try:
        return int(text)
    except ValueError:
        return text  # never recorded by the pad; written as it is (and refused by the reader)


def text_of_value(value: ChangeValue) -> str:
    """The text a field shows for a value of the file (the inverse of ``value_of_text``)."""
    if value is None:
        return ""
    return str(value)
