"""The pad's history in words: what a change changed and whose, when and by whom, who finished
the game and when, and a field's text as a sentence shows it."""

from __future__ import annotations

from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from scoring.fields import WORKERS, tokens_position
from scoring.models import GameEvent
from scoring.rules.categories import CATEGORY_BY_KEY
from scoring.rules.sums import MINUS
from scoring.wording.numbers_and_dates import clock, game_date, when_by
from scoring.wording.sentences import isolated, words


def value_words(text: str, missing: str = "—") -> str:
    """A field's text (sums.input_text, or a change's old and new) in words: "yes" or "no" for a
    yes/no entry, ``missing`` when not entered, else the number or sum as typed, each minus a true
    minus sign ("−3", "14−3")."""
    if text in ("True", "False"):
        return _("yes") if text == "True" else _("no")
    return text.replace("-", MINUS) if text else missing


def change_label(change) -> SafeString:
    """What a change changed and whose, as the pad names its fields, in the row's short words:
    "Farms built, Bruno", "Tokens in sector 2, Bruno" (the name ``isolated``)."""
    if change.field == WORKERS:
        what = _("Active workers")
    elif (position := tokens_position(change.field)) is not None:
        what = _("Tokens in sector %(number)s") % {"number": position + 1}
    else:
        category = CATEGORY_BY_KEY.get(change.field)
        what = _(category.short_label or category.label) if category else change.field
    return format_html("{}, {}", what, isolated(change.seat.name))


def change_line(change) -> SafeString:
    """A change as the pad's recent changes list it, one sentence: "Farms built, Bruno: 3 → 4"
    ("—" for not entered; ``wording.sentences.words``; in an attribute, ``|striptags``)."""
    return words(
        _("%(what)s: %(old)s → %(new)s"),
        what=change_label(change),
        old=value_words(change.old),
        new=value_words(change.new),
    )


def change_when(change, now=None) -> SafeString:
    """When a change was made and by whom: "just now, by Ann (edit link)", "5 minutes ago, by the owner"."""
    return when_by(change.at, author_words(change), now)


def author_words(item) -> SafeString | str:
    """Who made a change, or finished or reopened the game (``models.Authored``): a link's holder
    always as one ("Ann (edit link)", "the edit link" when they gave no name), whatever name they
    typed; otherwise the account's display name (never its login), "the owner" for an owner who
    gave none (or a visitor, scoring without an account), or "someone" (a script, an old import).
    A name is ``isolated``: whatever it holds stays inside it, "(edit link)" after it."""
    name = item.author
    if item.by_link_holder:
        return words(_("%(name)s (edit link)"), name=isolated(name)) if name else _("the edit link")
    if name:
        return isolated(name)
    by_owner = item.by_user_id is not None or getattr(item, "by_visitor", False)  # (a visitor owns its games)
    return _("the owner") if by_owner else _("someone")


def actor_words(actor) -> SafeString | str:
    """Who is doing something now (an ``actors.Actor``), in the words the history will say it with."""
    return author_words(GameEvent(**actor.authored))


def finished_sentence(game, event) -> SafeString:
    """Who finished the game and when, as every pad says it once it is finished ("Finished by Hana
    at 21:14.", "… on 1 Dec 2026 at 21:14." another day; French "… à 21 h 14.", "le 1er déc. 2026");
    the event (``selectors.changes.finish_event``) is None for a game finished before games said who (an import)."""
    at = timezone.localtime(game.finished_at)
    values = {
        "time": clock(at),
        "date": game_date(at.date(), _("j M Y")),
        "name": author_words(event) if event is not None else "",
    }
    today = at.date() == timezone.localdate()
    if event is None:
        return words(_("Finished at %(time)s.") if today else _("Finished on %(date)s at %(time)s."), **values)
    finished = _("Finished by %(name)s at %(time)s.") if today else _("Finished by %(name)s on %(date)s at %(time)s.")
    return words(finished, **values)
