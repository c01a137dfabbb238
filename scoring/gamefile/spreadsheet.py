"""The spreadsheet *Your data* downloads beside the game file: every stored game of an account,
one row per player (``docs/game-file.md``, "In the app: Your data"), its figures the engine's.
UTF-8 with a byte order mark (so that spreadsheet apps read accents), a header row in the
language being spoken, the columns separated as that language's spreadsheets expect; a text cell
never starts a formula. Unlike the rest of the game file, it reads the stored games."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from typing import Protocol

from django.utils.translation import get_language, gettext, pgettext, pgettext_lazy

from scoring.models import Game
from scoring.rules.categories import CATEGORIES
from scoring.selectors.games import game_result

# The spreadsheet's columns. Their names in English are the machine names below; in another
# language the header row is in that language's words (a category's column is the category's
# label, in French the edition's words), from the catalogue.
CSV_COLUMNS: tuple[str, ...] = (
    "played_on",
    "game_id",
    "finished",
    "seat",
    "player",
    "faction",
    "automa",
    *(category.key for category in CATEGORIES),
    "active_workers",
    "hibernation_tokens",
    "majority",
    "during",
    "end",
    "total",
    "rank",
    "winner",
)
# The spreadsheet's column names, in the language of the page it is downloaded from (issue 50:
# the English file said its machine names, "played_on", where the French one said words); a
# category's column is named by its label (the edition's words).
_CSV_HEADINGS = {
    "played_on": pgettext_lazy("CSV column", "Date"),
    "game_id": pgettext_lazy("CSV column", "Game"),
    "finished": pgettext_lazy("CSV column", "Finished"),
    "seat": pgettext_lazy("CSV column", "Seat"),
    "player": pgettext_lazy("CSV column", "Player"),
    "faction": pgettext_lazy("CSV column", "Faction"),
    "automa": pgettext_lazy("CSV column", "Automa"),
    "active_workers": pgettext_lazy("CSV column", "Active workers"),
    "hibernation_tokens": pgettext_lazy("CSV column", "Hibernation tokens"),
    "majority": pgettext_lazy("CSV column", "Comb majorities"),
    "during": pgettext_lazy("CSV column", "During the game"),
    "end": pgettext_lazy("CSV column", "End of the game"),
    "total": pgettext_lazy("CSV column", "Total"),
    "rank": pgettext_lazy("CSV column", "Rank"),
    "winner": pgettext_lazy("CSV column", "Winner"),
}
_CATEGORY_LABELS = {category.key: category.label for category in CATEGORIES}

# A text cell starting with one of these is a formula to a spreadsheet: it gets a ' in front.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class Writable(Protocol):
    def write(self, text: str, /) -> object: ...


def spreadsheet_write(games: Iterable[Game], out: Writable) -> None:
    """The spreadsheet of ``games`` (loaded with ``selectors.games.games_with_everything``, in the order
    given) written to ``out`` (a file, or an HTTP answer): the byte order mark, the header row,
    then each game's rows."""
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=csv_delimiter())
    writer.writerow(csv_header())
    for game in games:
        writer.writerows(csv_rows(game))


def csv_header() -> list[str]:
    """The header row in the language being spoken: each of ``CSV_COLUMNS`` named in words (the
    catalogue's), a category's column by its label in the edition's words."""
    return [
        str(_CSV_HEADINGS[name]) if name in _CSV_HEADINGS else gettext(_CATEGORY_LABELS[name]) for name in CSV_COLUMNS
    ]


def csv_delimiter() -> str:
    """What separates the columns: a comma, in French a semicolon, as a French spreadsheet
    (whose decimal separator is the comma) opens a CSV file in columns."""
    return ";" if (get_language() or "en").split("-")[0] == "fr" else ","


def csv_rows(game: Game) -> Iterator[list[object]]:
    """The game's rows, one per player in seat order, for a game loaded with
    ``selectors.games.games_with_everything``. The figures are the engine's (``selectors.games.game_result``);
    an entry nobody has entered is an empty cell, a yes/no entry 0 or 1."""
    result = game_result(game)
    for seat, outcome in zip(game.seats.all(), result.players, strict=True):
        counts = [tokens.count for tokens in seat.tokens.all()]
        yield [
            game.played_on.isoformat(),
            game.public_id,
            _yes_no(game.is_finished),
            seat.number,
            _text(seat.name),
            _text(seat.faction),
            _yes_no(seat.is_automa),
            *(_entry(getattr(seat, category.key)) for category in CATEGORIES),
            _entry(seat.active_workers),
            sum(counts) if counts else "",
            outcome.majority,
            outcome.during,
            outcome.end,
            outcome.total,
            outcome.rank,
            _yes_no(outcome.winner),
        ]


def _yes_no(value: bool) -> str:
    """ "yes" or "no" in the language being spoken (a spreadsheet's cell, not the pad's words)."""
    return pgettext("CSV cell", "yes") if value else pgettext("CSV cell", "no")


def _entry(value: int | bool | None) -> int | str:
    if value is None:
        return ""
    return int(value)  # a yes/no entry as 1 or 0


def _text(value: str) -> str:
    return f"'{value}" if value.startswith(_FORMULA_STARTS) else value
