"""The people of your games: the players list (``players/``), a player's page
(``players/<id>/``) with their figures and a chart of their totals over time, and the merge of
two records of one person ("Same person as…"). Only the signed-in user's own players: any
other player's address is a 404, as one that does not exist."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from scoring import limits, selectors, services
from scoring.selectors import ScorePoint


@never_cache
@login_required
@require_safe
def players(request: HttpRequest) -> HttpResponse:
    rows = selectors.players_table(request.user)
    return render(
        request,
        "scoring/players.html",
        {
            "players": rows,
            "any_finished": any(row.games for row in rows),
        },
    )


@never_cache
@login_required
@require_safe
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    return _player_page(request, player_id)


@login_required
@require_POST
@limits.rate_limit("save")
def player_merge(request: HttpRequest, player_id: int) -> HttpResponse:
    """This player is the same person as the one chosen (``same_as``): the chosen record's
    games come here and it is deleted. Both must be the signed-in user's players."""
    mine = selectors.players_of(request.user)
    keep = get_object_or_404(mine, pk=player_id)
    try:
        merged = mine.get(pk=int(request.POST.get("same_as", "")))
    except (ValueError, mine.model.DoesNotExist):
        return _player_page(request, player_id, error=_("Choose one of your players."), status=400)
    try:
        services.players_merge(keep=keep, merged=merged)
    except ValidationError as refused:
        return _player_page(request, player_id, error=refused.messages[0], status=400)
    return redirect("scoring:player", player_id=keep.pk)


def _player_page(request: HttpRequest, player_id: int, *, error: str = "", status: int = 200) -> HttpResponse:
    found = get_object_or_404(selectors.players_of(request.user), pk=player_id)
    figures = selectors.player_page(found)
    return render(
        request,
        "scoring/player.html",
        {
            "page": figures,
            "chart": score_chart(figures.scores),
            "merge_error": error,
        },
        status=status,
    )


# ---------------------------------------------------------------------------------------------
# The chart of a player's totals, drawn on the server (no inline style: the CSP forbids it)


@dataclass
class ScoreChart:
    width: int
    height: int
    points: str  # the polyline's points
    dots: list[dict]
    axis: list[dict]  # the labelled values on the y axis
    left: int
    bottom: int
    first: date  # the first and last games' dates, written in the page's language
    last: date


def score_chart(scores: list[ScorePoint], *, width: int = 340, height: int = 160) -> ScoreChart | None:
    """A line of the totals by game date, oldest first, a dot per game (a winning game's filled)."""
    if not scores:
        return None
    left, right, top, bottom = 30, width - 8, 10, height - 22
    low = min(0, *(point.total for point in scores))
    high = max(1, *(point.total for point in scores))
    step = (right - left) / (len(scores) - 1) if len(scores) > 1 else 0

    def y_of(total: int) -> float:
        return round(bottom - (total - low) / (high - low) * (bottom - top), 2)

    dots = []
    for index, point in enumerate(scores):
        x = round(left + index * step if len(scores) > 1 else (left + right) / 2, 2)
        dots.append(
            {"x": x, "y": y_of(point.total), "total": point.total, "date": point.played_on, "winner": point.winner}
        )
    return ScoreChart(
        width=width,
        height=height,
        points=" ".join(f"{dot['x']},{dot['y']}" for dot in dots),
        dots=dots,
        axis=[{"y": y_of(value), "label_y": y_of(value) + 4, "value": value} for value in sorted({low, high})],
        left=left,
        bottom=bottom,
        first=scores[0].played_on,
        last=scores[-1].played_on,
    )
