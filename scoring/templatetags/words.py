"""Small phrases of the pages, whole in the catalogue (``scoring.wording``): a percentage, a list
of names, the players of a game with their totals; numbers, dates and times as the language
writes them (the one filter of each, on every page); and a date field that works in every language."""

from __future__ import annotations

import copy

from django import forms, template
from django.utils.formats import number_format
from django.utils.html import format_html_join

from scoring.rules import names as name_rules
from scoring.wording import numbers_and_dates, sentences

register = template.Library()


@register.filter
def bdi(name) -> str:
    """{% blocktranslate with name=view.name|bdi %}: a name put into a sentence of the catalogue,
    escaped, in its own ``<bdi>`` (``wording.sentences.isolated``). Elsewhere a template writes the element
    itself, ``<bdi>{{ view.name }}</bdi>``; never in an attribute, which holds text only."""
    return sentences.isolated(name)


@register.filter
def longest_unbroken(name) -> int:
    """The characters a line holds at least to show ``name`` without breaking a word
    (``scoring.rules.names.longest_unbroken``): the table view's type is sized by it."""
    return name_rules.longest_unbroken(str(name))


@register.filter
def listed(names) -> str:
    """{% blocktranslate with names=aliases|listed %}: "Ann", "Ann and Annie", "Ann, Annie and Anna",
    each name isolated (``sentences.names_list``)."""
    return sentences.names_list(list(names))


@register.filter
def percent(value) -> str:
    """{{ rate|percent }}: "42%", in French "42 %" (and "12,5 %")."""
    return numbers_and_dates.percent(number_format(value) if isinstance(value, float) else value)


@register.filter
def figure(value) -> str:
    """{{ view.result.total|figure }}: a number as the page shows it, "12.5" (French "12,5"), a
    negative one with a true minus sign, "−3" (``numbers_and_dates.figure``)."""
    return numbers_and_dates.figure(value)


@register.filter
def game_date(value, date_format: str) -> str:
    """{{ game.played_on|game_date:_("D j M Y") }}: the one date filter of the pages
    (``numbers_and_dates.game_date``): Django's ``date`` filter, and in French the first of the month
    written as French writes it, "1er" ("ven. 1er mai 2026", "1er décembre")."""
    return numbers_and_dates.game_date(value, date_format)


@register.simple_tag
def time_format() -> str:
    """{% time_format %}: how a time of day reads in the page's language, in the letters of
    Django's date format, for the phone side (offline.js) to write one as the server does
    (``numbers_and_dates.time_format``: "21:14", French "21 h 14")."""
    return numbers_and_dates.time_format()


@register.filter
def players_with_totals(views) -> str:
    """The players of a scoreboard with their totals: "Alice (80), Bruno (75), Carla (60)", each
    name isolated (``numbers_and_dates.name_with_total``)."""
    return format_html_join(
        ", ", "{}", ((numbers_and_dates.name_with_total(view.name, view.result.total),) for view in views)
    )


@register.filter
def date_input(bound_field) -> str:
    """{{ form.played_on|date_input }}: the field, with a date written YYYY-MM-DD whatever the
    language, as ``<input type="date">`` requires (Django writes the language's own format
    there, 30/11/2026 in French, which a browser's date field reads as no date at all)."""
    widget = bound_field.field.widget
    if not isinstance(widget, forms.DateInput):
        return bound_field.as_widget()
    iso = copy.copy(widget)
    iso.format = "%Y-%m-%d"
    return bound_field.as_widget(widget=iso)
