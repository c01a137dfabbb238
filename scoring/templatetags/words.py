"""Small phrases of the pages, whole in the catalogue (``scoring.explain``): a label followed by a
colon, a percentage, the players of a game with their totals."""

from __future__ import annotations

from django import template
from django.utils.formats import number_format

from scoring import explain

register = template.Library()


@register.filter
def label_colon(label) -> str:
    """{{ cell.label|label_colon }}: "Farms built:", in French "Fermes construites :"."""
    return explain.label_colon(label)


@register.filter
def percent(value) -> str:
    """{{ rate|percent }}: "42%", in French "42 %" (and "12,5 %")."""
    return explain.percent(number_format(value) if isinstance(value, float) else value)


@register.filter
def players_with_totals(views) -> str:
    """The players of a scoreboard with their totals: "Alice (80), Bruno (75), Carla (60)"."""
    return ", ".join(explain.name_with_total(view.name, view.result.total) for view in views)
