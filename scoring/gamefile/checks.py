"""The primitive checks of a game file's values: objects and their keys, whole numbers, true or
false, texts (one line, or the notes' lines; a name holds nothing that hides or reorders text),
dates with their offset; each problem said with the value as the file writes it."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from scoring.gamefile.problems import Problem, _, number
from scoring.rules.names import character_words, refused_character

# A date-time with its offset: seconds required, at most 6 digits of fraction, "Z" or ±HH:MM.
_DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:\d{2})")


class _Object(dict[str, Any]):
    """A JSON object that remembers the keys it was given more than once."""

    duplicates: list[str]


def _object_pairs(pairs: list[tuple[str, Any]]) -> _Object:
    obj = _Object()
    obj.duplicates = []
    for key, value in pairs:
        if key in obj and key not in obj.duplicates:
            obj.duplicates.append(key)
        obj[key] = value
    return obj


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        quoted = json.dumps(value, ensure_ascii=False)
        try:
            quoted.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate ("\ud800"): quoted as the JSON escape
            quoted = json.dumps(value)
        # The quotation marks are the sentence's own (French writes « »), the text between them as JSON writes it.
        return _("the text “%(text)s”") % {"text": quoted[1:-1]}
    if isinstance(value, float):
        return _("the number %(number)s") % {"number": json.dumps(value)}
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, dict):
        return _("an object")
    return json.dumps(value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Checks:
    """The primitive checks of a document's values, each recording its problem by path (``problems``)
    and answering the value, or None when it is not one; the grammar (``reading``) builds on them."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def problem(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    def object(
        self, value: Any, path: str, allowed: Sequence[str], required: Sequence[str] = ()
    ) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.problem(path, _("must be an object (not %(value)s)") % {"value": _describe(value)})
            return None
        for key in getattr(value, "duplicates", []):
            self.problem(f"{path}.{key}" if path else key, _("is given more than once"))
        for key in value:
            if key not in allowed:
                self.problem(self.join(path, key), self.unknown_key_message(path, key))
        for key in required:
            if key not in value:
                self.problem(self.join(path, key), _("is required"))
        return value

    @staticmethod
    def join(path: str, key: str) -> str:
        return f"{path}.{key}" if path else key

    def unknown_key_message(self, path: str, key: str) -> str:
        """Why ``key`` is not one of an object's (the grammar says more where it knows more)."""
        return _("is not a key the format knows")

    def integer(self, value: Any, path: str, low: int, high: int) -> int | None:
        if not _is_int(value):
            self.problem(
                path,
                _("must be a whole number from %(low)s to %(high)s (not %(value)s)")
                % {"low": number(low), "high": number(high), "value": _describe(value)},
            )
            return None
        if not low <= value <= high:
            self.problem(
                path,
                _("must be a whole number from %(low)s to %(high)s (not %(value)s)")
                % {"low": number(low), "high": number(high), "value": number(value)},
            )
            return None
        return value

    def boolean(self, value: Any, path: str) -> bool | None:
        if not isinstance(value, bool):
            self.problem(path, _("must be true or false (not %(value)s)") % {"value": _describe(value)})
            return None
        return value

    def text(
        self,
        value: Any,
        path: str,
        max_length: int | None = None,
        required: bool = False,
        lines: bool = False,
        name: bool = False,
    ) -> str | None:
        """A text of the file, without the spaces around it: names, factions and authors are one
        line; ``lines`` (the notes) may also hold line breaks and tabs. Any other control character
        (NUL, escape, …) is refused, and a ``name`` (a player's, a faction's, an author's) holds
        nothing that hides or reorders text (``scoring.rules.names``: refused, never removed, so that a
        name is stored as the file writes it or not at all)."""
        if not isinstance(value, str):
            self.problem(path, _("must be text (not %(value)s)") % {"value": _describe(value)})
            return None
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            self.problem(path, _("holds a character that is not valid Unicode text"))
            return None
        control = next(
            (char for char in value.strip() if unicodedata.category(char) == "Cc" and not (lines and char in "\n\r\t")),
            None,
        )
        if control is not None:
            self.problem(
                path,
                _("holds a control character (%(code)s), which text cannot hold") % {"code": f"U+{ord(control):04X}"},
            )
            return None
        text = value.strip()
        hidden = refused_character(text) if name else None
        if hidden is not None:
            self.problem(
                path,
                _("holds a character that can hide or reorder text (%(character)s), which a name cannot hold")
                % {"character": character_words(hidden)},
            )
            return None
        if required and not text:
            self.problem(path, _("must not be empty"))
            return None
        if max_length is not None and len(text) > max_length:
            self.problem(
                path,
                _("must be at most %(max)s characters long (not %(length)s)")
                % {"max": max_length, "length": len(text)},
            )
            return None
        return text

    def date_time(self, value: Any, path: str) -> datetime | None:
        example = "2026-11-29T21:04:05+01:00"
        if not (isinstance(value, str) and _DATE_TIME.fullmatch(value)):
            self.problem(
                path,
                _("must be a date and time with its offset from UTC, such as %(example)s (not %(value)s)")
                % {"example": example, "value": _describe(value)},
            )
            return None
        try:
            moment = datetime.fromisoformat(value)
            moment.astimezone(UTC)  # a moment the database can store (years 1 to 9999 in UTC)
        except (ValueError, OverflowError):
            self.problem(path, _("is not a real date and time: %(value)s") % {"value": value})
            return None
        return moment
