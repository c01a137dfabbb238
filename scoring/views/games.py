"""The games: the history and its statistics, starting a game, its results, deleting it and
exporting it as a game file."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import condition, require_http_methods, require_POST, require_safe

from scoring.access import GameAccess, NotAllowed, Role, SessionEnded, game_start_for_keeper, keeper_of
from scoring.actors import Keeper
from scoring.forms.games import (
    GameStartForm,
    HistoryFilterForm,
    PlayerRowFormSet,
    PlayLengthForm,
    SectorRowFormSet,
    filled_sectors,
)
from scoring.gamefile import dump_document, to_json
from scoring.presenters import bgstats
from scoring.presenters.board import Scoreboard
from scoring.presenters.results import breakdown, vp_chart
from scoring.rules.categories import MAX_PLAYERS, MAX_SECTORS
from scoring.rules.play_again import NextGame, next_game
from scoring.selectors.changes import play_facts
from scoring.selectors.games import (
    comb_layouts,
    game_data,
    game_played_next,
    game_shared,
    game_state,
    games_kept_count,
    games_with_everything,
    known_player_names,
)
from scoring.selectors.history import HistoryFilters, history_page
from scoring.selectors.statistics import overall_statistics
from scoring.services import games as games_services
from scoring.services.finishing import play_length_set
from scoring.services.games import PlayerSetup
from scoring.views.common import HtmxHttpRequest, render_partials, with_game
from scoring.views.offline import keep_offline
from scoring.views.protocol import poll_etag, revision_tag
from scoring.web import limits
from scoring.web.refusals import sentence
from scoring.wording.numbers_and_dates import game_date
from scoring.wording.sentences import isolated, labelled

RESULTS = "scoring/results.html"


@never_cache
@keep_offline  # a copy on the phone, shown only offline (scoring/views/offline.py)
@require_safe
def game_list(request: HtmxHttpRequest) -> HttpResponse:
    """The home page: the games of the account (or of this browser, for a visitor), a page at a
    time, narrowed by the filters in the address. A visitor who has started no game yet is
    welcomed with the start form itself: no account is needed to score."""
    keeper = keeper_of(request)
    if keeper.is_visitor and not games_kept_count(keeper):
        return _start_page(request, keeper, template="scoring/welcome.html")
    form = HistoryFilterForm(request.GET)
    cleaned = form.cleaned_data if form.is_valid() else {}
    filters = HistoryFilters(**{name: value for name, value in cleaned.items() if value not in (None, "")})
    page, entries = history_page(keeper, filters, request.GET.get("page"))
    return render(
        request,
        "scoring/history.html",
        {
            "form": form,
            "filters": filters,
            "page": page,
            "games": entries,
            "chips": _filter_chips(request, form, cleaned),
            "query": _query_without(request, "page"),
            "known_names": known_player_names(keeper),
            "visitor": keeper.is_visitor,
        },
    )


def _query_without(request: HttpRequest, *names: str) -> str:
    """The page's query string without ``names`` (for links that change one thing)."""
    query = request.GET.copy()
    for name in names:
        query.pop(name, None)
    return query.urlencode()


def _filter_chips(request: HttpRequest, form: HistoryFilterForm, cleaned: dict) -> list[dict]:
    """Each active filter in words, with the link that removes it."""
    chips = []
    for name, value in cleaned.items():
        if value in (None, ""):
            continue
        field = form.fields[name]
        shown = dict(field.choices).get(value, value) if hasattr(field, "choices") else value
        if name == "player":  # (a name typed: isolated, wording.sentences.isolated)
            shown = isolated(shown)
        elif isinstance(shown, date):  # (as every page writes a day, never 2026-01-01)
            shown = game_date(shown, _("j M Y"))
        chips.append({"label": labelled(str(field.label), shown), "url": "?" + _query_without(request, name, "page")})
    return chips


@never_cache
@login_required
@require_safe
def statistics(request: HttpRequest) -> HttpResponse:
    """Figures over the user's finished games, each with the number of games behind it."""
    return render(request, "scoring/statistics.html", {"stats": overall_statistics(request.user)})


# ---------------------------------------------------------------------------------------------
# Starting a game


@limits.rate_limit("start", methods=("POST",))
@require_http_methods(["GET", "HEAD", "POST"])
def game_start(request: HtmxHttpRequest) -> HttpResponse:
    """Start a game, for an account or, without one, for this browser (a visitor: the game is the
    browser's until it makes an account, ``actors.Keeper``). The comb is filled in from a saved
    layout one way (``_with_layout_sectors``):
    at first from the latest, then from the one chosen: ``?layout=ID`` (htmx asks for the comb
    alone when the choice changes), or without JavaScript the "Use this layout" button, which
    posts the half-filled form back (``use_layout``), so nothing typed is lost and no game is
    created yet; "Add a sector" without JavaScript posts it back the same way (``add_sector``),
    kept as typed with one more comb row shown (``_sector_rows_shown``)."""
    keeper = keeper_of(request)
    if request.method != "POST" or "use_layout" in request.POST or "add_sector" in request.POST:
        return _start_page(request, keeper)  # being filled in: no errors, nothing created
    form = GameStartForm(request.POST, keeper=keeper)
    solo = GameStartForm.base_fields["solo"].widget.value_from_datadict(request.POST, {}, "solo")
    players = PlayerRowFormSet(request.POST, prefix="player", solo=solo)
    sectors = SectorRowFormSet(request.POST, prefix="sector")
    if form.is_valid() & players.is_valid() & sectors.is_valid():
        data = form.cleaned_data
        try:
            game = game_start_for_keeper(
                request,
                lambda keeper: games_services.game_start(
                    players=[PlayerSetup(p["name"].strip(), p.get("faction") or "") for p in players.named()],
                    solo=data["solo"],
                    sectors=filled_sectors(sectors),
                    layout_name=data.get("layout_name", ""),
                    played_on=data["played_on"],
                    notes=data.get("notes", ""),
                    end_trigger_token=data["end_trigger_token"],
                    during=data["during"],
                    after=data["again_of"],
                    **keeper.owner_fields,
                ),
            )
        except SessionEnded:  # signed in or out on another page meanwhile: nothing stored
            form.add_error(
                None,
                _(
                    "You signed in or out on another page while this game was being started, so it "
                    "was not started. Check the form and start the game again."
                ),
            )
            return render(
                request,
                "scoring/start.html",
                _start_context(keeper, form, players, sectors, typed=request.POST),
                status=409,
            )
        return redirect("scoring:pad", game_id=game.public_id)
    return render(
        request, "scoring/start.html", _start_context(keeper, form, players, sectors, typed=request.POST), status=422
    )


def _start_page(request: HtmxHttpRequest, keeper: Keeper, template: str = "scoring/start.html") -> HttpResponse:
    """The start form being filled in, as typed so far (none yet: empty), its comb from the
    layout chosen (at first, the latest saved one), or as typed with one more row (``add_sector``)."""
    layouts = comb_layouts(keeper)
    typed: Mapping[str, Any] = request.POST if request.method == "POST" else request.GET
    if "add_sector" not in typed:
        if "layout" not in typed and layouts:
            typed = {"layout": str(layouts[0].pk)}
        typed = _with_layout_sectors(typed, layouts)
    context = _start_context(keeper, *_start_forms_being_filled(typed, keeper), typed=typed, layouts=layouts)
    if request.htmx and "layout" in request.GET:  # a layout chosen (htmx): the comb alone, filled in from it
        return render(request, "scoring/start.html#comb-sectors", context)
    return render(request, template, context)


def _start_context(keeper: Keeper, form, players, sectors, *, typed, layouts=None) -> dict:
    return {
        "form": form,
        "players": players,
        "sectors": sectors,
        "layouts": comb_layouts(keeper) if layouts is None else layouts,
        "known_names": known_player_names(keeper),
        "visitor": keeper.is_visitor,
        "sector_rows": _sector_rows_shown(typed),
    }


def _start_forms_being_filled(data, keeper: Keeper) -> tuple[GameStartForm, object, object]:
    """The start form as typed so far, unbound (so it shows no errors yet), with what was typed
    as its initial values."""
    keys = ("played_on", "solo", "end_trigger_token", "during", "layout", "layout_name", "notes", "again_of")
    form = GameStartForm(initial={key: data.get(key) for key in keys if data.get(key) not in (None, "")}, keeper=keeper)
    players = PlayerRowFormSet(
        prefix="player",
        initial=[
            {"name": data.get(f"player-{i}-name", ""), "faction": data.get(f"player-{i}-faction", "")}
            for i in range(MAX_PLAYERS)
        ],
    )
    sectors = SectorRowFormSet(
        prefix="sector",
        initial=[
            {"first": data.get(f"sector-{i}-first") or None, "second": data.get(f"sector-{i}-second") or None}
            for i in range(MAX_SECTORS)
        ],
    )
    return form, players, sectors


def _sector_rows_shown(typed) -> int:
    """How many comb sector rows the start form shows: every row up to the last one filled in (at
    least one, to fill in), and one more for each "Add a sector" (``sector_rows`` carries the
    count shown, without JavaScript). No empty row beyond them: "Add a sector" brings the next."""
    filled = [
        position
        for position in range(MAX_SECTORS)
        if typed.get(f"sector-{position}-first") or typed.get(f"sector-{position}-second")
    ]
    shown = filled[-1] + 1 if filled else 0
    if "add_sector" in typed:
        try:
            asked = int(typed.get("sector_rows") or 0)
        except ValueError:
            asked = 0
        shown = max(shown, asked) + 1
    return min(MAX_SECTORS, max(1, shown))


def _with_layout_sectors(query, layouts) -> dict:
    """The submitted start form with its sectors replaced by the chosen layout's."""
    data = query.copy()
    layout = next((item for item in layouts if str(item.pk) == query.get("layout")), None)
    for position in range(MAX_SECTORS):
        data[f"sector-{position}-first"] = ""
        data[f"sector-{position}-second"] = ""
    if layout is not None:
        for sector in layout.sectors.all():
            data[f"sector-{sector.position}-first"] = str(sector.first_vp)
            data[f"sector-{sector.position}-second"] = str(sector.second_vp)
        data["layout_name"] = layout.name
    for key, value in (
        ("player-TOTAL_FORMS", "5"),
        ("player-INITIAL_FORMS", "0"),
        ("sector-TOTAL_FORMS", str(MAX_SECTORS)),
        ("sector-INITIAL_FORMS", "0"),
    ):
        data.setdefault(key, value)
    return data


@never_cache
@require_safe
@with_game(Role.VIEW)
def play_again(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """*Play again*, from a game's results: the start form filled in for the next game of the
    same table (``play_again.next_game``: seats moved on by one, factions cleared, the same comb,
    way of counting and end-of-game token), to change and confirm. It posts to the start form as
    ever, so the new game is whoever's taps *Start scoring*; the form carries the game played
    (``again_of``), whose table's phones are then offered the new game (``services.games.game_start``).
    Offered to the game's owner alone: the holder of a link starts no game from the owner's table
    (nor in the owner's account)."""
    if not access.is_owner:
        raise NotAllowed(_("Only the game’s owner can start the next game with its players."))
    keeper = keeper_of(request)
    layouts = comb_layouts(keeper)
    state = game_state(access.game)
    upcoming = next_game(
        state.seats, state.sectors, during=state.game.during, end_trigger_token=state.game.end_trigger_token
    )
    typed = {**_next_game_typed(upcoming, layouts), "again_of": access.game.public_id}
    context = _start_context(keeper, *_start_forms_being_filled(typed, keeper), typed=typed, layouts=layouts)
    context.update(next_game=upcoming, again_shared=game_shared(access.game))
    return render(request, "scoring/start.html", context)


def _next_game_typed(upcoming: NextGame, layouts) -> dict:
    """The start form as if typed for the next game: its players in their new seats, and its comb
    as the saved layout of the same sectors (chosen, so that starting keeps it the latest), or as
    typed when no layout has them."""
    typed = {
        "end_trigger_token": str(upcoming.end_trigger_token),
        "during": upcoming.during.value,
        "solo": "on" if upcoming.solo else "",
    }
    for position, name in enumerate(upcoming.players):
        typed[f"player-{position}-name"] = name
    same = next(
        (
            layout
            for layout in layouts
            if [(s.first_vp, s.second_vp) for s in layout.sectors.all()] == list(upcoming.sectors)
        ),
        None,
    )
    if same is not None and upcoming.sectors:
        return _with_layout_sectors({**typed, "layout": str(same.pk)}, layouts)
    for position, (first, second) in enumerate(upcoming.sectors):
        typed[f"sector-{position}-first"], typed[f"sector-{position}-second"] = str(first), str(second)
    return typed


def _results_tag(request: HtmxHttpRequest, access: GameAccess) -> str | None:
    """The results' poll (htmx's) is a 304 while the game's revision is the one it has: the
    revision moves on with every save, a finish, a reopening and the table's next game. (The
    page itself is never a 304: it holds who is signed in.)"""
    return revision_tag(access.game) if request.htmx else None


@never_cache
@require_safe
@with_game(Role.VIEW, polled=True)
@condition(etag_func=_results_tag)
def results(request: HtmxHttpRequest, access: GameAccess) -> HttpResponse:
    """The results: the winner, the ranking and what to do next (*Log this play in BG Stats*, how
    long the play lasted, and for the owner of a finished game *Play again*) in the first screen;
    the chart, the breakdown and the comb below. They follow the game (htmx polls them: the
    ``results`` partial): another phone's save, a finish or a reopening, and the table's next
    game, offered in one tap to every phone left on them."""
    return _results_page(request, access)


def _results_page(
    request: HtmxHttpRequest, access: GameAccess, *, length_form: PlayLengthForm | None = None, status: int = 200
) -> HttpResponse:
    board = Scoreboard(game_state(access.game))
    context = {
        "board": board,
        "access": access,
        "vp_chart": vp_chart(board),
        "breakdown": breakdown(board),
        "bgstats_link": bgstats.play_link(board, play_facts(access.game)),
        "offers_play_again": access.is_owner and access.game.is_finished,
        "next_game": game_played_next(access.game) if access.game.is_finished else None,
        "length_form": length_form or PlayLengthForm(initial={"minutes": access.game.play_minutes}),
        "poll_etag": poll_etag(access.game),  # (the ETag a poll now gets: _results_tag)
    }
    if request.htmx:
        return render_partials(request, RESULTS, ["results"], context, status=status)
    return render(request, RESULTS, context, status=status)


@never_cache
@require_POST
@limits.rate_limit("save")
@with_game(Role.OWNER)
def play_length(request: HtmxHttpRequest, access: GameAccess) -> HttpResponse:
    """How long the play lasted, said by its owner on the results of a finished game (for BG
    Stats), as the rest of a finished game is theirs to change: saved, in the game's history, and
    back to the results; refused under its field, what was typed kept. A game in progress shows
    no such form: its length is refused (409)."""
    if not access.game.is_finished:
        return sentence(_("The play length is said once the game is finished, on its results."), 409)
    form = PlayLengthForm(request.POST)
    if not form.is_valid():
        return _results_page(request, access, length_form=form, status=422)
    play_length_set(game=access.game, minutes=form.cleaned_data["minutes"], by=access.actor)
    return redirect(reverse("scoring:results", args=[access.game.public_id]) + "#play-length")


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@limits.rate_limit("save", methods=("POST",))
@with_game(Role.OWNER)
def game_delete(request: HttpRequest, access: GameAccess) -> HttpResponse:
    if request.method == "POST":
        games_services.game_delete(game=access.game)
        return redirect("scoring:history")
    return render(request, "scoring/delete.html", {"board": Scoreboard(game_state(access.game)), "access": access})


@never_cache
@require_safe
@with_game(Role.VIEW)
def game_export(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """The game as a game file (docs/game-file.md), to download."""
    game = games_with_everything().get(pk=access.game.pk)
    document = to_json(dump_document([game_data(game, changes=True)]))
    response = HttpResponse(document, content_type="application/json; charset=utf-8")
    name = f"apiary-{access.game.played_on.isoformat()}-{access.game.public_id[:6]}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
