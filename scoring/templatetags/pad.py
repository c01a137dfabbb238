"""What the pad's template needs a little code for: a change and its author, as the history shows them,
and the cells of the seat in view."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from scoring.explain import words
from scoring.scoreboard import author_words, change_label, value_words

register = template.Library()


@register.filter
def change_words(change) -> str:
    """ "Bruno's Farms built 3 → 4" ("—" for not entered), the name isolated (``explain.words``;
    in an attribute, ``|striptags``)."""
    return words(_("%(what)s %(old)s → %(new)s"), what=change_label(change), old=value_words(change.old),
                 new=value_words(change.new))


@register.filter
def change_author(change) -> str:
    """Who made a change, or finished or reopened the game (``scoreboard.author_words``)."""
    return author_words(change)


@register.filter
def in_view(cells, seat: int | None):
    """The cells of the seat in view (the "one player at a time" view, ``?player=2``), or every
    cell (everyone): one test per row, not per cell."""
    return [cell for cell in cells if cell.seat == seat] if seat else cells
