"""Small phrases of the pages, whole in the catalogue (``scoring.explain``): a label followed by a
colon, a percentage, the players of a game with their totals, a date as the language writes it;
and a date field that works in every language."""

from __future__ import annotations

import copy

from django import forms, template
from django.template.defaultfilters import date as date_filter
from django.utils.formats import number_format
from django.utils.html import format_html_join
from django.utils.translation import get_language

from scoring import explain

register = template.Library()


@register.filter
def bdi(name) -> str:
    """{% blocktranslate with name=view.name|bdi %}: a name put into a sentence of the catalogue,
    escaped, in its own ``<bdi>`` (``explain.isolated``). Elsewhere a template writes the element
    itself, ``<bdi>{{ view.name }}</bdi>``; never in an attribute, which holds text only."""
    return explain.isolated(name)


@register.filter
def label_colon(label) -> str:
    """{{ cell.label_html|label_colon }}: "Farms built, Alice:", in French "Fermes construites, Alice :"."""
    return explain.label_colon(label)


@register.filter
def percent(value) -> str:
    """{{ rate|percent }}: "42%", in French "42 %" (and "12,5 %")."""
    return explain.percent(number_format(value) if isinstance(value, float) else value)


@register.filter
def game_date(value, date_format: str) -> str:
    """{{ game.played_on|game_date:_("D j M Y") }}: Django's ``date`` filter, and in French the
    first of the month written as French writes it, "1er" ("ven 1er mai 2026", "1er décembre")."""
    if value and getattr(value, "day", None) == 1 and (get_language() or "").split("-")[0] == "fr":
        date_format = _first_of_the_month(date_format)
    return date_filter(value, date_format)


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


@register.filter
def players_with_totals(views) -> str:
    """The players of a scoreboard with their totals: "Alice (80), Bruno (75), Carla (60)", each
    name isolated (``explain.name_with_total``)."""
    return format_html_join(", ", "{}", ((explain.name_with_total(view.name, view.result.total),) for view in views))


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
