"""Numbers, ordinals, dates and times as the language writes them: the one way each is shown, on
every page (``scoring/templatetags/words.py`` gives them to the templates) and in every sentence
made with them; and the small phrases with a figure in them, whole in the catalogue (French puts a
space before a colon and a percent sign: "Fermes construites : 3 PV", "42 %")."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.template.defaultfilters import date as date_filter
from django.utils import formats, timezone
from django.utils.safestring import SafeString
from django.utils.timesince import timesince
from django.utils.translation import get_language, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

from scoring.rules.sums import MINUS
from scoring.wording.sentences import isolated, words

NO_BREAK_SPACE = "\u00a0"  # between the parts of what never breaks across lines: a date, a number and its unit


def figure(value) -> str:
    """A number as a page shows it: in the language's own writing (12.5, in French 12,5), its
    thousands grouped ("1,500", French "1 500" with a narrow no-break space:
    apiary_site/formats), a negative one with a true minus sign ("−3"). What a field holds stays
    as typed (its sums read the hyphen, the keypad's "−" types one)."""
    text = str(formats.number_format(value, force_grouping=True))
    return MINUS + text[1:] if text.startswith("-") else text


def file_size(size: int) -> str:
    """A file's size as the upload's hint says its limit ("2 MB", French « 2 Mo »; under a
    megabyte, "300 KB", « 300 Ko »), where Django's filesizeformat says « 2,0 Mio »:
    one decimal where it is not whole."""
    megabytes = size / (1024 * 1024)
    if megabytes < 1:
        return _("%(amount)s KB") % {"amount": figure(round(size / 1024))}
    amount = round(megabytes, 1)
    return _("%(amount)s MB") % {"amount": figure(int(amount) if amount == int(amount) else amount)}


# The ordinal's words by the last digit, in humanize's contexts (the catalogue's; translated when used).
_ORDINAL_BY_LAST_DIGIT = (
    pgettext_lazy("ordinal 0", "{}th"),
    pgettext_lazy("ordinal 1", "{}st"),
    pgettext_lazy("ordinal 2", "{}nd"),
    pgettext_lazy("ordinal 3", "{}rd"),
    pgettext_lazy("ordinal 4", "{}th"),
    pgettext_lazy("ordinal 5", "{}th"),
    pgettext_lazy("ordinal 6", "{}th"),
    pgettext_lazy("ordinal 7", "{}th"),
    pgettext_lazy("ordinal 8", "{}th"),
    pgettext_lazy("ordinal 9", "{}th"),
)


def ordinal(value: int) -> str:
    """ "1st", "2nd", "3rd", "11th" in English; "1er", "2e", "11e" in French: plain text (never
    the HTML of Django's own French ordinals, "1<sup>er</sup>", which would show as tags in a
    sentence, an attribute or a spreadsheet).

    The contexts and words are those of ``django.contrib.humanize``'s ``ordinal``, so the
    project's catalogue, which Django reads before the apps' ones, also gives that filter (and
    ``scoring.presenters.board``'s ranks) the same plain-text ordinals."""
    if value < 0:
        return str(value)
    if value == 1:
        return pgettext("ordinal is 1", "{}st").format(value)
    if value % 100 in (11, 12, 13):
        return pgettext("ordinal 11, 12, 13", "{}th").format(value)
    return str(_ORDINAL_BY_LAST_DIGIT[value % 10]).format(value)


def tokens_words(count: int) -> str:
    return ngettext("%(count)s token", "%(count)s tokens", count) % {"count": count}


def vp_title(label: str, vp: int) -> str:
    """A chart segment's title, "Farms built: 3 VP": French "Fermes construites : 3 PV"."""
    return _("%(label)s: %(vp)s VP") % {"label": label, "vp": figure(vp)}


def percent(value) -> str:
    """ "42%": French "42 %"; a negative one with a true minus sign ("−1.7%")."""
    text = str(value)
    return _("%(percent)s%%") % {"percent": MINUS + text[1:] if text.startswith("-") else text}


def name_with_total(name: str, total: int) -> SafeString:
    """ "Alice (80)": a player and their total VP (``words``)."""
    return words(_("%(name)s (%(total)s)"), name=isolated(name), total=figure(total))


# The months whose abbreviation the French edition's typography writes otherwise than Django's
# French catalogue ("janv.", "févr."; Django's "jan.", "fév."): the project's catalogue, which
# Django reads before its own, gives them (the context and words are Django's, django/utils/dates.py).
_MONTH_ABBREVIATIONS = (pgettext_lazy("abbrev. month", "Jan."), pgettext_lazy("abbrev. month", "Feb."))


def game_date(value, date_format: str) -> str:
    """A game's day, the one way every page writes it (``{{ game.played_on|game_date:_("D j M Y") }}``):
    Django's ``date`` filter with a format of the catalogue, and in French the first of the month
    written as French writes it, "1er" ("ven. 1er mai 2026", "1er déc. 2026"); its words joined by
    no-break spaces, so that a line never ends inside a date."""
    if value and getattr(value, "day", None) == 1 and (get_language() or "").split("-")[0] == "fr":
        date_format = _first_of_the_month(date_format)
    return date_filter(value, date_format).replace(" ", NO_BREAK_SPACE)  # (one unit: never broken across lines)


def _first_of_the_month(date_format: str) -> str:
    """The format with "er" (escaped, as Django's date format reads it) after each day of the
    month ("j"), leaving escaped letters alone."""
    written, escaped = [], False
    for letter in date_format:
        written.append(letter)
        if not escaped and letter == "j":
            written.append("\\e\\r")
        escaped = letter == "\\" and not escaped
    return "".join(written)


def time_format() -> str:
    """How a time of day reads, in the letters of Django's date format: "21:14" in English, the
    typographers' "21 h 14" in French (``clock``; the phone side's offline.js reads it from the page)."""
    return pgettext("time of day, in the letters of Django’s date format", "H:i")


def clock(moment: datetime) -> str:
    """A moment's time of day where the site is (settings.TIME_ZONE): "21:14", French "21 h 14"."""
    return date_filter(timezone.localtime(moment), time_format())


JUST_NOW = timedelta(minutes=1)  # what happened within it was "just now" (Django's timesince says "0 minutes")


def when_by(moment: datetime, by, now: datetime | None = None) -> SafeString:
    """When something was done and by whom, as the pad's recent changes say it: "just now, by Ann"
    within the last minute, else "5 minutes ago, by Ann" (Django's timesince; ``words``: ``by``
    given ``isolated``)."""
    now = now or timezone.now()
    if now - moment < JUST_NOW:
        return words(_("just now, by %(by)s"), by=by)
    return words(_("%(ago)s ago, by %(by)s"), ago=timesince(moment, now), by=by)
