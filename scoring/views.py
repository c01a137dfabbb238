"""The pages. Thin: forms check input, services write, selectors and the scoreboard read.

Every page works as a plain form post without JavaScript; htmx requests get a partial of
the same page template (``scoring/pad.html#totals``) plus out-of-band partials.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring import selectors, services
from scoring.categories import MAX_SECTORS
from scoring.forms import (
    GameStartForm,
    PadField,
    PlayerRowFormSet,
    SectorRowFormSet,
    check_players,
    filled_players,
    filled_sectors,
    pad_field,
    parse_pad_value,
)
from scoring.models import Game
from scoring.scoreboard import scoreboard_for
from scoring.sums import NotASum, evaluate_sum

# The partials an htmx save refreshes, out of band, besides the field's own status.
PAD_OOB_PARTIALS = (
    "totals", "during-subtotal", "majority-row", "end-subtotal", "comb-hints", "sector-summaries", "ranking",
)


def _game_or_404(game_id: int) -> Game:
    try:
        return selectors.game_get(game_id)
    except Game.DoesNotExist:
        raise Http404(_("There is no such game.")) from None


def _render_partials(request: HttpRequest, template: str, names: list[str], context: dict, status: int = 200):
    """One response holding several partials of ``template``: the first is the swap target,
    the rest carry ``hx-swap-oob`` (they read ``oob`` from the context)."""
    html = render_to_string(f"{template}#{names[0]}", context, request)
    html += "".join(render_to_string(f"{template}#{name}", {**context, "oob": True}, request) for name in names[1:])
    return HttpResponse(html, status=status)


# ---------------------------------------------------------------------------------------------
# History and statistics


@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/history.html", {"games": selectors.history()})


@require_GET
def player_stats(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/players.html", {"players": selectors.player_statistics()})


# ---------------------------------------------------------------------------------------------
# Starting a game


@require_http_methods(["GET", "POST"])
def game_start(request: HttpRequest) -> HttpResponse:
    """Start a game. ``?layout=ID`` fills the comb in from a saved layout; without JavaScript,
    the "Use this layout" button posts the half-filled form back (``use_layout``) to do the
    same, so nothing typed is lost and no game is created yet."""
    layouts = selectors.comb_layouts()
    quiet = False
    if request.method == "POST" and "use_layout" in request.POST:
        data = _with_layout_sectors(request.POST, layouts)
        quiet = True  # the form is being filled in: no errors yet, and nothing is created
    elif request.method == "POST":
        data = request.POST
    elif "layout" in request.GET:
        data = _with_layout_sectors(request.GET, layouts)
        quiet = True  # a form being filled in: show no errors yet
    else:
        data = None

    form = GameStartForm(data)
    players = PlayerRowFormSet(data, prefix="player")
    if data is None:
        layout = layouts[0] if layouts else None
        form = GameStartForm(initial={"layout": layout.pk, "layout_name": layout.name} if layout else None)
        initial = [{"first": s.first_vp, "second": s.second_vp} for s in layout.sectors.all()] if layout else []
        sectors = SectorRowFormSet(prefix="sector", initial=initial)
    else:
        sectors = SectorRowFormSet(data, prefix="sector")

    if request.method == "POST" and not quiet and form.is_valid() & players.is_valid() & sectors.is_valid():
        named = filled_players(players)
        check_players(form, named)
        if not form.errors:
            game = _start_game(form, named, filled_sectors(sectors))
            return redirect("scoring:pad", game_id=game.pk)
    context = {
        "form": form,
        "players": players,
        "sectors": sectors,
        "layouts": layouts,
        "quiet": quiet,
        "known_names": selectors.known_player_names(),
        "layouts_data": [
            {"id": layout.pk, "name": layout.name, "sectors": [[s.first_vp, s.second_vp] for s in layout.sectors.all()]}
            for layout in layouts
        ],
    }
    return render(request, "scoring/start.html", context, status=422 if request.method == "POST" and not quiet else 200)


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
    for key, value in (("player-TOTAL_FORMS", "5"), ("player-INITIAL_FORMS", "0"),
                       ("sector-TOTAL_FORMS", str(MAX_SECTORS)), ("sector-INITIAL_FORMS", "0")):
        data.setdefault(key, value)
    return data


@transaction.atomic
def _start_game(form: GameStartForm, named: list[dict], sectors: list[tuple[int, int]]) -> Game:
    data = form.cleaned_data
    setups = [services.PlayerSetup(p["name"].strip(), p.get("faction") or "") for p in named]
    if data["solo"]:
        # Solo: the Automa is first in turn order (1 VP), the player second (2 VP).
        setups = [services.PlayerSetup(_("Automa"), automa=True), *setups]
    if data.get("layout_name", "").strip() and sectors:
        services.comb_layout_save(name=data["layout_name"], sectors=sectors)
    return services.game_create(
        players=setups,
        sectors=sectors,
        played_on=data["played_on"],
        notes=data.get("notes", ""),
        end_trigger_token=data["end_trigger_token"],
    )


# ---------------------------------------------------------------------------------------------
# The pad


@require_http_methods(["GET", "POST"])
def pad(request: HttpRequest, game_id: int) -> HttpResponse:
    """The scoring pad. A plain POST (no JavaScript) saves every field of the form at once."""
    game = _game_or_404(game_id)
    if request.method == "GET":
        return render(request, "scoring/pad.html", {"board": scoreboard_for(game)})

    errors, typed, step_name = _save_posted_fields(request, game)
    game = _game_or_404(game_id)
    if errors:
        board = scoreboard_for(game, errors=errors, typed=typed)
        return render(request, "scoring/pad.html", {"board": board, "form_errors": True}, status=422)
    anchor = f"#f-{step_name}" if step_name else ""
    return redirect(reverse("scoring:pad", args=[game.pk]) + anchor)


def _save_posted_fields(request: HttpRequest, game: Game) -> tuple[dict[str, str], dict[str, str], str]:
    """Save every pad field of a plain form post (no JavaScript): the errors by field name,
    what was typed into the refused fields, and the field a stepper button stepped."""
    seats, sectors = list(game.seats.all()), list(game.sectors.all())
    errors: dict[str, str] = {}
    typed: dict[str, str] = {}
    step = request.POST.get("step", "")  # a stepper's "+"/"-" button without JavaScript: "s1-t0:+1"
    step_name, _sep, step_delta = step.partition(":")
    posted = []
    for name in _posted_field_names(request):
        field = pad_field(seats, sectors, name)
        if field is None:
            continue
        raw = request.POST.getlist(name)[-1]
        if name == step_name and step_delta in ("+1", "-1"):
            raw = _stepped(field, raw, int(step_delta))
        posted.append((field, raw))
    for field, raw in posted:
        _save_field(field, raw, errors, typed)
    # A token moved between sectors may be refused only because the other sector was saved
    # after it: try the refused token counts once more, now that every other value is in.
    for field, raw in posted:
        if field.is_tokens and field.name in errors:
            _save_field(field, raw, errors, typed)
    return errors, typed, step_name


def _posted_field_names(request: HttpRequest) -> list[str]:
    return [name for name in request.POST if name.startswith("s") and "-" in name]


def _stepped(field: PadField, raw: str, delta: int) -> str:
    """A stepper's +/- without JavaScript: from what the field holds (a sum counts as its
    result), kept within the field's limits, as the script does with JavaScript."""
    try:
        current = evaluate_sum(raw) if raw.strip() else 0
    except NotASum:
        return raw  # leave the bad text alone: it gets its message like any typed value
    low, high = field.limits
    return str(max(low, min(high, current + delta)))


def _save_field(field: PadField, raw: str, errors: dict[str, str], typed: dict[str, str]) -> bool:
    """Check and save one field; on bad input, record the message and keep what was typed."""
    try:
        parsed = parse_pad_value(field, raw)
        if field.is_tokens:
            services.tokens_set(seat=field.seat, sector=field.sector, count=parsed.value)
        elif field.is_workers:
            services.seat_set_active_workers(seat=field.seat, workers=parsed.value)
        else:
            services.entry_set_value(
                seat=field.seat, key=field.category.key, value=parsed.value, sum_text=parsed.sum_text
            )
    except ValidationError as error:
        errors[field.name] = error.messages[0]
        typed[field.name] = raw
        return False
    errors.pop(field.name, None)
    typed.pop(field.name, None)
    return True


@require_POST
def pad_field_save(request: HttpRequest, game_id: int) -> HttpResponse:
    """Save one field as it is typed (htmx). Answers with the field's status, and out of band
    every figure that may have changed. Bad input answers 422 with the message in words."""
    game = _game_or_404(game_id)
    seats, sectors = list(game.seats.all()), list(game.sectors.all())
    name = request.POST.get("field", "")
    field = pad_field(seats, sectors, name)
    if field is None or name not in request.POST:
        return HttpResponse(_("This field is not part of the game."), status=400)
    raw = request.POST.getlist(name)[-1]
    errors: dict[str, str] = {}
    typed: dict[str, str] = {}
    saved = _save_field(field, raw, errors, typed)
    if not request.htmx:
        return redirect(reverse("scoring:pad", args=[game.pk]) + f"#{field.id()}")
    game = _game_or_404(game_id)
    board = scoreboard_for(game, errors=errors, typed=typed)
    cell = board.cell_for(pad_field(board.seats, board.sectors, name))
    context = {"board": board, "cell": cell, "saved": saved}
    if not saved:
        return _render_partials(request, "scoring/pad.html", ["field-status"], context, status=422)
    return _render_partials(request, "scoring/pad.html", ["field-status", *PAD_OOB_PARTIALS], context)


@require_GET
def pad_figures(request: HttpRequest, game_id: int) -> HttpResponse:
    """Every figure of the pad (htmx), to follow what another phone saves."""
    game = _game_or_404(game_id)
    if not request.htmx:
        return redirect("scoring:pad", game_id=game.pk)
    board = scoreboard_for(game)
    return _render_partials(request, "scoring/pad.html", ["totals", *PAD_OOB_PARTIALS[1:]], {"board": board})


# ---------------------------------------------------------------------------------------------
# Results, finishing, deleting


@require_GET
def results(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game_or_404(game_id)
    return render(request, "scoring/results.html", {"board": scoreboard_for(game)})


@require_POST
def game_finish(request: HttpRequest, game_id: int) -> HttpResponse:
    """Mark the game finished. The pad's fields come along (the button is part of the pad's
    form), so without JavaScript what was typed is saved first; a refused value stops here."""
    game = _game_or_404(game_id)
    errors, typed, _step = _save_posted_fields(request, game)
    game = _game_or_404(game_id)
    if errors:
        board = scoreboard_for(game, errors=errors, typed=typed)
        return render(request, "scoring/pad.html", {"board": board, "form_errors": True}, status=422)
    board = scoreboard_for(game)
    if board.finish_problems:
        return render(request, "scoring/pad.html", {"board": board, "finish_problems": board.finish_problems},
                      status=422)
    services.game_finish(game=game)
    return redirect("scoring:results", game_id=game.pk)


@require_http_methods(["GET", "POST"])
def game_delete(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game_or_404(game_id)
    if request.method == "POST":
        services.game_delete(game=game)
        return redirect("scoring:history")
    return render(request, "scoring/delete.html", {"board": scoreboard_for(game)})
