"""What the pad's template needs a little code for: a change, its author and when, as the history
shows them, and the cells of the seat in view."""

from __future__ import annotations

from django import template

from scoring.presenters.changes import author_words, change_line, change_when

register = template.Library()


@register.filter
def change_words(change) -> str:
    """ "Farms built, Bruno: 3 → 4" ("—" for not entered), the name isolated (``presenters.changes.change_line``;
    in an attribute, ``|striptags``)."""
    return change_line(change)


@register.filter
def change_author(change) -> str:
    """Who made a change, or finished or reopened the game (``presenters.changes.author_words``)."""
    return author_words(change)


@register.filter
def change_made(change) -> str:
    """When a change was made, and by whom: "just now, by Ann", "5 minutes ago, by the owner"
    (``presenters.changes.change_when``)."""
    return change_when(change)


@register.filter
def in_view(cells, seat: int | None):
    """The cells of the seat in view (the "one player at a time" view, ``?player=2``), or every
    cell (everyone): one test per row, not per cell."""
    return [cell for cell in cells if cell.seat == seat] if seat else cells
