"""Words of the pad that need a little code: a change and its author, as the history shows them."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from scoring.scoreboard import change_label, value_words

register = template.Library()


@register.filter
def change_words(change) -> str:
    """ "Bruno's Farms built 3 → 4" ("—" for not entered)."""
    return _("%(what)s %(old)s → %(new)s") % {
        "what": change_label(change), "old": value_words(change.old), "new": value_words(change.new),
    }


@register.filter
def change_author(change) -> str:
    """Who made a change: a link's holder always as one ("Ann (edit link)", "the edit link" when
    they gave no name), whatever name they typed; otherwise the account's display name (never its
    login), "the owner" for an owner who gave none (or a visitor, scoring without an account), or
    "someone" (a script, an old import)."""
    name = change.author
    if change.by_link_holder:
        return _("%(name)s (edit link)") % {"name": name} if name else _("the edit link")
    if name:
        return name
    by_owner = change.by_user_id is not None or getattr(change, "by_visitor", False)  # (a visitor owns its games)
    return _("the owner") if by_owner else _("someone")
