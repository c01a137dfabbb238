"""What the pad's view tests share (``tests/views/test_pad*.py``): the pad's categories and
figures, the refusals' words, and reading a save's answer."""

from __future__ import annotations

from django.test import Client

from scoring.models import Game
from scoring.rules.categories import During, categories_of
from tests.support.pages import Element, page, top_level, url

# The categories of a breakdown game's pad (the games here are breakdowns; the VP track's pad is
# tests/views/test_during.py's).
PAD_CATEGORIES = categories_of(During.BREAKDOWN)

# Every figure of the pad: what the live view and an undo send out of band (3 comb sectors).
OOB_IDS = [
    "totals",
    "during-subtotal",
    "majority-row",
    "end-subtotal",
    "comb-hints",
    "sector-0-summary",
    "sector-1-summary",
    "sector-2-summary",
    "ranking",
    *(f"label-{category.key}" for category in PAD_CATEGORIES),  # each row's heading: entered yet or not
    *(f"warnings-{category.key}" for category in PAD_CATEGORIES),  # each row's values to check
]
# Refusals as said under a field, after its label and a colon ("Farms built, Alice: this save …").
MISSING_VERSION = "this save does not say which version of the value it replaces: reload the page, then type it again."
NOT_SHOWN = (
    "this page did not say what it showed here, so saving could overwrite another phone’s value: reload "
    "the page, then type it again."
)


def status_of(response) -> Element:
    """The field's status: the first element of a save's answer (the swap target)."""
    return top_level(page(response))[0]


def hints(client: Client, game: Game) -> list[str]:
    return [p.text for p in page(client.get(url("pad", game))).by_id("comb-hints").find_all("p")]


QUEENS_999 = "Position on the Queen’s Favor track, Bruno: 999 is far above what this category usually scores (0 to 25)."
