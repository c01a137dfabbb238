"""Words of the pad that need a little code: a change and its author, as the history shows them."""

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
