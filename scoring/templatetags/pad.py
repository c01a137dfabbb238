"""Words of the pad that need a little code: a change, its author and when, as the history shows them."""

from __future__ import annotations

from django import template

from scoring.scoreboard import author_words, change_line, change_when

register = template.Library()


@register.filter
def change_words(change) -> str:
    """ "Farms built, Bruno: 3 → 4" ("—" for not entered), the name isolated (``scoreboard.change_line``;
    in an attribute, ``|striptags``)."""
    return change_line(change)


@register.filter
def change_author(change) -> str:
    """Who made a change, or finished or reopened the game (``scoreboard.author_words``)."""
    return author_words(change)


@register.filter
def change_made(change) -> str:
    """When a change was made, and by whom: "just now, by Ann", "5 minutes ago, by the owner"
    (``scoreboard.change_when``)."""
    return change_when(change)
