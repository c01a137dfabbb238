"""What is wrong with a game file: each problem named by its path in the document
(``games[0].players[2].end.farms``), in the language being spoken once Django hands its
``gettext`` here (``translate_with``; plain Python says them in English)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scoring.rules.sums import MINUS


def _translate_nothing(message: str) -> str:
    return message


_translate: Callable[[str], str] = _translate_nothing


def translate_with(function: Callable[[str], str]) -> None:
    """Have the problems said in the language being spoken: ``scoring.apps`` hands Django's
    ``gettext`` here once Django is set up. Without it (plain Python) they stay in English."""
    global _translate
    _translate = function


def _(message: str) -> str:
    """A problem's words in the language being spoken (``makemessages`` collects them)."""
    return _translate(message)


def number(value: int) -> str:
    """A whole number as a problem says it: a negative one with a true minus sign ("from −99",
    never the hyphen of "-99")."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


@dataclass(frozen=True)
class Problem:
    path: str
    message: str

    def __str__(self) -> str:
        """ "games[0].end.farms: must be …", one sentence of the catalogue (French puts a space before the colon)."""
        return _("%(label)s: %(value)s") % {"label": self.path, "value": self.message}


class GameFileError(ValueError):
    """The document is not a valid game file; ``problems`` lists every reason, by path."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))
