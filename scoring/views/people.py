"""The people of your games: the players list (``players/``), a player's page
(``players/<id>/``) with their figures and a chart of their totals over time, and the merge of
two records of one person ("Same person as…"). Only the signed-in user's own players: any
other player's address is a 404, as one that does not exist."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from scoring.presenters.results import score_chart
from scoring.selectors.people import player_of, player_page, players_table
from scoring.services.people import players_merge
from scoring.web import limits


@never_cache
@login_required
@require_safe
def players(request: HttpRequest) -> HttpResponse:
    rows = players_table(request.user)
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
    keep = player_of(request.user, player_id)
    if keep is None:
        raise Http404()
    same_as = request.POST.get("same_as", "")
    merged = player_of(request.user, int(same_as)) if same_as.isdigit() else None
    if merged is None:
        return _player_page(request, player_id, error=_("Choose one of your players."), status=400)
    try:
        players_merge(keep=keep, merged=merged)
    except ValidationError as refused:
        return _player_page(request, player_id, error=refused.messages[0], status=400)
    return redirect("scoring:player", player_id=keep.pk)


def _player_page(request: HttpRequest, player_id: int, *, error: str = "", status: int = 200) -> HttpResponse:
    found = player_of(request.user, player_id)
    if found is None:
        raise Http404()
    figures = player_page(found)
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
