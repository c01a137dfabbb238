"""The pages. Thin: forms check input, services write, selectors and the scoreboard read.

Every page works as a plain form post without JavaScript; htmx requests get a partial of
the same page template (``scoring/pad.html#totals``) plus out-of-band partials.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.template import RequestContext
from django.template.loader import get_template
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring import limits, selectors, services
from scoring.access import (
    NOBODY,
    GameAccess,
    NoAccess,
    NotAllowed,
    Role,
    ViewOnly,
    access_to,
    game_access,
    link_name_set,
    link_open,
)
from scoring.categories import MAX_PLAYERS, MAX_SECTORS, Section
from scoring.explain import labelled
from scoring.forms import (
    GameStartForm,
    HistoryFilterForm,
    PadField,
    PadForm,
    PlayerRowFormSet,
    SectorRowFormSet,
    SignUpForm,
    filled_sectors,
    pad_field_address,
    pad_form_field,
)
from scoring.gamefile import dump_document, to_json
from scoring.limits import rate_limit
from scoring.models import Change, Game, GameLink
from scoring.qr import qr_svg
from scoring.refusals import sentence
from scoring.scoreboard import Scoreboard, change_label, scoreboard_for, scoreboard_of, value_words
from scoring.sums import input_text

# The partials an htmx save refreshes, out of band, besides the field's own status.
MAX_STEP = 20  # the most taps of a stepper that one save carries

PAD_OOB_PARTIALS = (
    "totals", "during-subtotal", "majority-row", "end-subtotal", "comb-hints", "sector-summaries", "ranking",
    "row-labels",
)


def with_game(need: Role, *, everything: bool = True):
    """The view's game, as the request may reach it (``access.game_access``): the view gets the
    GameAccess instead of the game's address. A game it may not reach is a 404 (as a game that
    does not exist) and a view-only link that writes a 403; to the pad's script (htmx), these
    answers are a sentence in plain text, which it shows as it is."""

    def decorate(view):
        @wraps(view)
        def wrapper(request: HttpRequest, game_id: str, *args, **kwargs):
            games = selectors.games_with_everything() if everything else None
            try:
                access = game_access(request, game_id, need, games=games)
            except (NoAccess, NotAllowed) as refusal:
                return _refused(request, refusal)
            return view(request, access, *args, **kwargs)

        return wrapper

    return decorate


def _refused(request: HttpRequest, refusal: NoAccess | NotAllowed) -> HttpResponse:
    """A game the request may not reach: the 404 or 403 page, or for the pad's script (htmx) the
    reason as one sentence of plain text, which it shows as it is."""
    if not request.htmx:
        raise refusal
    return sentence(str(refusal.args[0]) if refusal.args else "", 403 if isinstance(refusal, NotAllowed) else 404)


def _reread(game: Game) -> Game:
    """The game's row read again, as it stands after a write (its revision; whether finished)."""
    return Game.objects.get(pk=game.pk)


def _partials_html(request: HttpRequest, template: str, names: list[str], context: dict) -> str:
    """Several partials of ``template``: the first is the swap target, the rest carry
    ``hx-swap-oob`` (they read ``oob`` from the context). They are rendered in one context, so
    the context processors run once, not once a partial."""
    first, *rest = [get_template(f"{template}#{name}").template for name in names]
    # (a partial's forms need no CSRF input: the script sends the token)
    bound = RequestContext(request, {**context, "partial": True})
    with bound.bind_template(first):
        html = first.render(bound)
        with bound.push(oob=True):
            html += "".join(partial.render(bound) for partial in rest)
    return html


def _render_partials(request: HttpRequest, template: str, names: list[str], context: dict, status: int = 200):
    """One response holding several partials of ``template`` (``_partials_html``)."""
    return HttpResponse(_partials_html(request, template, names, context), status=status)


# ---------------------------------------------------------------------------------------------
# History and statistics


@never_cache
@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    """The signed-in user's games, a page at a time, narrowed by the filters in the address; a
    newcomer is welcomed with the short form that signs them up."""
    if not request.user.is_authenticated:
        return render(request, "scoring/welcome.html", {"form": SignUpForm()})
    form = HistoryFilterForm(request.GET)
    cleaned = form.cleaned_data if form.is_valid() else {}
    filters = selectors.HistoryFilters(**{name: value for name, value in cleaned.items() if value not in (None, "")})
    page, entries = selectors.history_page(request.user, filters, request.GET.get("page"))
    return render(request, "scoring/history.html", {
        "form": form, "filters": filters, "page": page, "games": entries,
        "chips": _filter_chips(request, form, cleaned), "query": _query_without(request, "page"),
        "known_names": selectors.known_player_names(request.user),
    })


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
        chips.append({"label": labelled(field.label, shown), "url": "?" + _query_without(request, name, "page")})
    return chips


@never_cache
@login_required
@require_GET
def statistics(request: HttpRequest) -> HttpResponse:
    """Figures over the user's finished games, each with the number of games behind it."""
    return render(request, "scoring/statistics.html", {"stats": selectors.overall_statistics(request.user)})


# ---------------------------------------------------------------------------------------------
# Starting a game


@login_required
@require_http_methods(["GET", "POST"])
def game_start(request: HttpRequest) -> HttpResponse:
    """Start a game. ``?layout=ID`` fills the comb in from a saved layout; without JavaScript,
    the "Use this layout" button posts the half-filled form back (``use_layout``) to do the
    same, so nothing typed is lost and no game is created yet."""
    layouts = selectors.comb_layouts(request.user)
    quiet = False  # True while the form is being filled in: no errors yet, and nothing is created
    if request.method == "POST" and "use_layout" in request.POST:
        form, players, sectors = _start_forms_being_filled(_with_layout_sectors(request.POST, layouts))
        quiet = True
    elif request.method == "POST":
        form = GameStartForm(request.POST)
        solo = GameStartForm.base_fields["solo"].widget.value_from_datadict(request.POST, {}, "solo")
        players = PlayerRowFormSet(request.POST, prefix="player", solo=solo)
        sectors = SectorRowFormSet(request.POST, prefix="sector")
    elif "layout" in request.GET:
        form, players, sectors = _start_forms_being_filled(_with_layout_sectors(request.GET, layouts))
        quiet = True
    else:
        layout = layouts[0] if layouts else None
        form = GameStartForm(initial={"layout": layout.pk, "layout_name": layout.name} if layout else None)
        players = PlayerRowFormSet(prefix="player")
        initial = [{"first": s.first_vp, "second": s.second_vp} for s in layout.sectors.all()] if layout else []
        sectors = SectorRowFormSet(prefix="sector", initial=initial)

    if request.method == "POST" and not quiet and form.is_valid() & players.is_valid() & sectors.is_valid():
        data = form.cleaned_data
        game = services.game_start(
            players=[services.PlayerSetup(p["name"].strip(), p.get("faction") or "") for p in players.named()],
            solo=data["solo"],
            sectors=filled_sectors(sectors),
            layout_name=data.get("layout_name", ""),
            played_on=data["played_on"],
            notes=data.get("notes", ""),
            end_trigger_token=data["end_trigger_token"],
            owner=request.user,
        )
        return redirect("scoring:pad", game_id=game.public_id)
    context = {
        "form": form,
        "players": players,
        "sectors": sectors,
        "layouts": layouts,
        "known_names": selectors.known_player_names(request.user),
        "layouts_data": [
            {"id": layout.pk, "name": layout.name, "sectors": [[s.first_vp, s.second_vp] for s in layout.sectors.all()]}
            for layout in layouts
        ],
    }
    return render(request, "scoring/start.html", context, status=422 if request.method == "POST" and not quiet else 200)


def _start_forms_being_filled(data) -> tuple[GameStartForm, object, object]:
    """The start form as typed so far, unbound (so it shows no errors yet), with what was typed
    as its initial values."""
    keys = ("played_on", "solo", "end_trigger_token", "layout", "layout_name", "notes")
    form = GameStartForm(initial={key: data.get(key) for key in keys if data.get(key) not in (None, "")})
    players = PlayerRowFormSet(prefix="player", initial=[
        {"name": data.get(f"player-{i}-name", ""), "faction": data.get(f"player-{i}-faction", "")}
        for i in range(MAX_PLAYERS)
    ])
    sectors = SectorRowFormSet(prefix="sector", initial=[
        {"first": data.get(f"sector-{i}-first") or None, "second": data.get(f"sector-{i}-second") or None}
        for i in range(MAX_SECTORS)
    ])
    return form, players, sectors


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


# ---------------------------------------------------------------------------------------------
# The pad
#
# Saving follows one rule everywhere: a write changes only the field this phone changed, and
# only when the stored value is the one this phone saw (or by a step, +1/-1, applied to the
# stored value). A plain form post (no JavaScript) saves the fields whose posted value differs
# from the value the page was rendered with; with JavaScript each field saves itself through
# ``pad_field_save``, naming the field's version it saw.


def _write(pad: PadField, value=None, *, sum_text: str = "", delta: int = 0,
           guard: services.Guard = services.NO_GUARD, by=NOBODY) -> services.WriteResult:
    """Write one pad field (services.field_write; ValidationError in words)."""
    return services.field_write(seat=pad.seat, key=pad.key, value=value, sum_text=sum_text, delta=delta, guard=guard,
                                by=by)


def _conflict_message(pad: PadField, stored) -> str:
    return _("Changed on another phone to %(stored)s while you were typing: yours was not saved. "
             "Save again to replace it.") % {"stored": value_words(input_text(stored), missing=_("empty"))}


def _save_changed_fields(request: HttpRequest, access: GameAccess) -> tuple[dict[str, str], dict[str, str], str]:
    """Save what a plain form post (no JavaScript) changed: the fields whose posted value is not
    the one the page showed, each only if the stored value is still the one the page showed.
    Returns the messages by field name, what was typed into the refused fields, and the field
    that a stepper button stepped (to return to it)."""
    game, by = access.game, access.actor
    form = PadForm(list(game.seats.all()), list(game.sectors.all()), request.POST)
    errors: dict[str, str] = {}
    typed: dict[str, str] = {}
    step_name, _sep, step = request.POST.get("step", "").partition(":")  # a stepper's "s1-t0:+1"
    changed = [name for name in form.changed_data]
    if step_name in form.pads and step in ("+1", "-1") and step_name not in changed:
        _save_one(form, step_name, errors, typed, by, delta=int(step))
    # A token moved between sectors may be refused only because the other sector was saved
    # after it: try the refused token counts once more, now that every other value is in.
    for attempt in range(2):
        for name in changed:
            if attempt == 1 and not (form.pads[name].is_tokens and name in errors):
                continue
            _save_one(form, name, errors, typed, by, delta=int(step) if name == step_name and step in ("+1", "-1") else 0)
    return errors, typed, step_name if step_name in form.pads else ""


def _save_one(form: PadForm, name: str, errors: dict[str, str], typed: dict[str, str], by, delta: int = 0) -> None:
    pad = form.pads[name]
    raw = form[name].data
    raw_text = raw if isinstance(raw, str) else ("1" if raw else "")
    shown = form.shown_value(name)
    guard = services.Guard(value=shown.value) if shown is not None else services.Guard()
    try:
        if delta and name not in form.changed_data:
            result = _write(pad, delta=delta, by=by)
        else:
            parsed = form.clean_one(name, raw)
            value = parsed.value
            if delta:  # stepped after typing: step from what was typed
                low, high = pad.limits
                value = max(low, min(high, (value or 0) + delta))
            result = _write(pad, value, sum_text="" if delta else parsed.sum_text, guard=guard, by=by)
    except ValidationError as error:
        errors[name], typed[name] = error.messages[0], raw_text
        return
    if result.outcome is services.Outcome.CONFLICT:
        errors[name], typed[name] = _conflict_message(pad, result.value), raw_text
        return
    errors.pop(name, None)
    typed.pop(name, None)


def _seat_in_view(request: HttpRequest, board) -> int | None:
    """The seat of the "one player at a time" view (``?player=2``), or None for everyone."""
    try:
        number = int(request.GET.get("player") or request.POST.get("player") or "")
    except ValueError:
        return None
    return number if any(seat.number == number for seat in board.seats) else None


def _pad_context(request: HttpRequest, access: GameAccess, board, **extra) -> dict:
    """What the pad template and its partials read: the board, the access, the one-player view
    and the recent changes (read only if a rendered part shows them)."""
    game = board.game
    return {"board": board, "access": access, "player": _seat_in_view(request, board),
            "changes": SimpleLazyObject(lambda: selectors.recent_changes(game)), **extra}


def _pad_response(request: HttpRequest, names: list[str], context: dict, status: int = 200) -> HttpResponse:
    """Partials of the pad (htmx), with the game's revision they show (X-Pad-Revision)."""
    response = _render_partials(request, "scoring/pad.html", names, context, status=status)
    response["X-Pad-Revision"] = str(context["board"].game.revision)
    return response


def _pad_page(request: HttpRequest, access: GameAccess, *, status: int = 200, game: Game | None = None,
              board: Scoreboard | None = None, **context) -> HttpResponse:
    """The whole pad page (of ``board``, or of ``game`` read now), with the messages of a post
    that was not (wholly) saved."""
    if board is None:
        board = scoreboard_of(services.game_state_load(game or access.game), errors=context.pop("errors", None),
                              typed=context.pop("typed", None))
    game = board.game
    context = _pad_context(request, access, board, **context)
    if access.is_owner:
        context["share"] = _share_links(request, game)
        context["share_has"] = {item["link"].access: True for item in context["share"]}
    response = render(request, "scoring/pad.html", context, status=status)
    # The share links are secrets: never compressed beside what others typed (BREACH).
    response.holds_secrets = bool(context.get("share"))
    return response


def _share_links(request: HttpRequest, game: Game) -> list[dict]:
    """The game's live links, each with its address and QR code (SVG drawn here), for its owner."""
    shown = []
    for link in game.links.filter(revoked_at__isnull=True).order_by("access"):
        address = request.build_absolute_uri(reverse("scoring:join", args=[link.token]))
        shown.append({"link": link, "url": address, "qr": qr_svg(address)})
    return shown


@never_cache
@require_http_methods(["GET", "POST"])
@with_game(Role.VIEW, everything=False)
def pad(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """The scoring pad (read-only for a view link). A plain POST (no JavaScript) saves the fields
    this phone changed."""
    if request.method == "GET":
        return _pad_page(request, access)
    if not access.can_edit:
        raise ViewOnly(_("This link only lets you watch the game: it cannot change anything."))
    errors, typed, step_name = _save_changed_fields(request, access)
    if errors:
        return _pad_page(request, access, game=_reread(access.game), status=422, errors=errors, typed=typed,
                         form_errors=True)
    query = f"?player={request.POST['player']}" if request.POST.get("player", "").isdigit() else ""
    anchor = f"#f-{step_name}" if step_name else ""
    return redirect(reverse("scoring:pad", args=[access.game.public_id]) + query + anchor)


def _int_or_none(text: str | None) -> int | None:
    try:
        return int(text) if text not in (None, "") else None
    except ValueError:
        return None


# What each kind of field can change besides its own status: the figures a save answers with.
SAVE_PARTIALS = {
    # (and its row's heading: the first value entered in a row, or the last cleared, changes it)
    Section.DURING: ("during-subtotal", "totals", "ranking", "row-label"),
    Section.END: ("end-subtotal", "totals", "ranking", "row-label"),
    # (and the other cells of the step's sector: their awards follow it)
    "tokens": ("majority-row", "end-subtotal", "comb-hints", "sector-summaries", "totals", "ranking", "sector-live"),
    "workers": ("ranking",),
}


@never_cache
@require_POST
def pad_field_save(request: HttpRequest, game_id: str) -> HttpResponse:
    """Save one field (htmx): ``field``, and ``value`` as typed or ``step`` (the taps of a
    stepper, -20 to 20, applied to the stored value), with
    ``version`` (the field's version the page saw), ``page`` and ``seq`` (services.Guard).

    Answers the field's status, and out of band the figures that kind of field can change (and
    the recent changes when the page shows them: ``changes=1``): 200
    when saved (or when this page already saved a newer value), 409 when the field changed on
    another phone since the page saw it (nothing written; the status says to what), 422 for bad
    input, 400 for a field that is not the game's. The header ``X-Pad-Revision`` carries the
    game's revision.

    What is typed is read before the game is; then one transaction claims the game (its revision
    goes up: services.game_claim, which is also its lock), checks the access, reads the seats and
    the comb, writes, and answers from what it holds: no statement reads the game twice."""
    name = request.POST.get("field", "")
    address = pad_field_address(name)
    step = _int_or_none(request.POST.get("step"))
    if step is not None and not (0 < abs(step) <= MAX_STEP):
        step = None
    if "value" not in request.POST and step is None:
        address = None  # neither a value nor a step: nothing to save
    guard = services.Guard(
        version=_int_or_none(request.POST.get("version")),
        page=request.POST.get("page", "")[:64],
        seq=_int_or_none(request.POST.get("seq")) or 0,
    )
    typed_error = ""
    parsed = None
    if step is None and address is not None:
        try:
            parsed = pad_form_field(address.pad).clean(request.POST["value"])
        except ValidationError as refused:
            typed_error = refused.messages[0]
    refusal = too_many = None
    request.user.is_authenticated  # noqa: B018 - the session and the account read before the write lock
    # One write transaction for the rate limit's count and the save (on SQLite, one wait for the
    # database's write lock, not two, held for the write alone); a save refused or failed rolls
    # back to its savepoint, so every request is still counted.
    with transaction.atomic():
        limited = limits.check(request, "save")
        if limited is not None:
            return limited
        try:
            with transaction.atomic():
                access = access_to(request, services.game_claim(game_id), Role.EDIT)
                state = services.game_state_load(access.game)
                pad = address.pad_in(state) if address is not None else None
                if pad is None:  # (after the access: a game the request may not reach is a 404 first)
                    transaction.set_rollback(True)
                    return HttpResponse(_("This field is not part of the game."), status=400)
                if typed_error:
                    transaction.set_rollback(True)  # nothing written: the revision claimed goes back
                    state.game.revision -= 1
                    saved = None
                else:
                    saved = services.field_save(
                        state, seat=pad.seat, key=pad.key, value=None if parsed is None else parsed.value,
                        sum_text="" if parsed is None else parsed.sum_text, delta=step or 0, guard=guard,
                        by=access.actor, claimed=True)
        except (NoAccess, NotAllowed) as caught:
            refusal = caught
        except ValidationError as caught:  # a count the seat cannot hold: rolled back to the savepoint
            too_many = caught
    if refusal is not None:
        return _refused(request, refusal)
    if too_many is not None:  # the game read again, as it stands
        typed_error, saved = too_many.messages[0], None
        access = access_to(request, Game.objects.filter(public_id=game_id).first(), Role.EDIT)
        state = services.game_state_load(access.game)
        pad = address.pad_in(state)
    if not request.htmx:
        return redirect(reverse("scoring:pad", args=[access.game.public_id]) + f"#{pad.id()}")
    errors = {name: typed_error} if typed_error else {}
    typed = {name: request.POST.get("value", "")} if typed_error else {}
    board = scoreboard_of(state, result=saved.scored if saved is not None else None, errors=errors, typed=typed)
    cell = board.cell_for(board.pad(name))
    result = saved.result if saved is not None else None
    if result is not None and result.outcome is services.Outcome.SAVED:
        # The status tells what this save stored, at its own version, even when another phone
        # has saved the field again since (the figures show the latest; the poll brings the rest).
        cell.value, cell.version = result.value, result.version
        cell.initial = cell.text = input_text(result.value, "" if step is not None else parsed.sum_text)
    status = 422 if typed_error else 409 if result.outcome is services.Outcome.CONFLICT else 200
    context = _pad_context(request, access, board, cell=cell, saved=status == 200, conflict=status == 409)
    if pad.is_tokens:
        context["sector_view"] = next(view for view in board.sector_views if view.sector.pk == pad.sector.pk)
    elif pad.category is not None:
        context["row"] = board.row_heading(pad.category)
    if status == 422:
        names = ["field-status", "field-error"]
    else:
        kind = "tokens" if pad.is_tokens else "workers" if pad.is_workers else pad.category.section
        names = ["field-status", "field-error", *SAVE_PARTIALS[kind]]
        if request.POST.get("changes") == "1":  # the page shows its recent changes (an open fold)
            names.append("changes")
    return _pad_response(request, names, context, status=status)


@never_cache
@require_GET
@with_game(Role.VIEW, everything=False)
def pad_live(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """What the other phones saved (polled by the pad): 304 with no body while the game's
    revision is the one the phone has (``If-None-Match``); otherwise every field's value and
    version, and out of band every figure, and the recent changes when the page shows them
    (``changes=1``)."""
    etag = f'"rev-{access.game.revision}"'
    # A weak comparison (RFC 9110): compression on the way makes the tag weak (W/"rev-3").
    seen = [tag.strip().removeprefix("W/") for tag in request.headers.get("If-None-Match", "").split(",")]
    if etag in seen:
        response = HttpResponseNotModified()
        response["ETag"] = etag
        return response
    game = access.game
    names = ["live-values", *PAD_OOB_PARTIALS]
    # Without the recent changes (shown only in an open fold: ``changes=1``), the answer depends
    # on the game at this revision, the language and the one-player view alone (no part of it
    # reads who asks): the phones of a table polling after one save share one rendering in each
    # worker.
    if request.GET.get("changes") == "1":
        names.append("changes")
        key = None
    else:
        key = f"live:{game.public_id}:{game.revision}:{get_language()}:{request.GET.get('player', '')[:2]}"
    html = caches["pad"].get(key) if key else None
    if html is None:
        board = scoreboard_of(services.game_state_load(game))
        html = _partials_html(request, "scoring/pad.html", names, _pad_context(request, access, board))
        if key:
            caches["pad"].set(key, html)
    response = HttpResponse(html)
    response["X-Pad-Revision"] = str(game.revision)
    response["ETag"] = etag
    return response


# ---------------------------------------------------------------------------------------------
# The change history


@never_cache
@require_POST
@with_game(Role.EDIT, everything=False)
def change_undo(request: HttpRequest, access: GameAccess, change_id: int) -> HttpResponse:
    """Undo one change of the game (itself a change). Refused, with the reason, when the field
    has changed again since."""
    change = get_object_or_404(Change.objects.select_related("seat"), pk=change_id, game=access.game)
    try:
        result = services.change_undo(change=change, by=access.actor)
    except ValidationError as refused:
        message = refused.messages[0]
    else:
        message = "" if result.outcome is not services.Outcome.CONFLICT else _(
            "%(what)s has changed again since (it is now %(now)s): undoing would overwrite that, so nothing was "
            "changed."
        ) % {"what": change_label(change), "now": value_words(input_text(result.value))}
    game = _reread(access.game)
    if request.htmx:
        context = _pad_context(request, access, scoreboard_of(services.game_state_load(game)), undo_message=message)
        return _pad_response(request, ["changes", *PAD_OOB_PARTIALS], context, status=409 if message else 200)
    if message:
        return _pad_page(request, access, game=game, status=409, undo_message=message)
    return redirect(reverse("scoring:pad", args=[game.public_id]) + "#changes")


@require_POST
@with_game(Role.EDIT, everything=False)
def link_name(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """A link's holder (no account) says who they are: their changes then carry that name."""
    if access.asks_name:
        link_name_set(request, access, request.POST.get("name", ""))
    return redirect(reverse("scoring:pad", args=[access.game.public_id]) + "#changes-box")


# ---------------------------------------------------------------------------------------------
# Share links


@rate_limit("join")
@require_GET
def join(request: HttpRequest, token: str) -> HttpResponse:
    """A share link, opened (typed, tapped or scanned): its holder may now reach the game."""
    link = GameLink.objects.select_related("game").filter(token=token, revoked_at__isnull=True).first()
    if link is None:
        raise Http404(_("This link does not work (any more): ask the game's owner for a new one."))
    link_open(request, link)
    return redirect("scoring:pad", game_id=link.game.public_id)


@require_POST
@with_game(Role.OWNER, everything=False)
def link_change(request: HttpRequest, access: GameAccess, kind: str, action: str) -> HttpResponse:
    """The owner makes a new link (the old one stops working) or revokes the link of a kind."""
    if kind not in GameLink.Access.values or action not in ("new", "revoke"):
        raise Http404
    if action == "new":
        services.link_renew(game=access.game, access=kind)
    else:
        services.link_revoke(game=access.game, access=kind)
    return redirect(reverse("scoring:pad", args=[access.game.public_id]) + "?shared=1#share")


# ---------------------------------------------------------------------------------------------
# Results, finishing, deleting, exporting


@never_cache
@require_GET
@with_game(Role.VIEW)
def results(request: HttpRequest, access: GameAccess) -> HttpResponse:
    return render(request, "scoring/results.html", {"board": scoreboard_for(access.game), "access": access})


@never_cache
@require_POST
@with_game(Role.EDIT, everything=False)
def game_finish(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """Mark the game finished. Without JavaScript the Finish button is part of the pad's form:
    what this phone changed is saved first, and a refused value stops here. Categories that
    nobody has entered are listed, and the game is finished only once that is confirmed."""
    errors, typed, _step = _save_changed_fields(request, access)
    game = _reread(access.game)
    if game.is_finished and not errors:  # finished already (on another phone, or a second tap)
        return redirect("scoring:results", game_id=game.public_id)
    if errors:
        return _pad_page(request, access, game=game, status=422, errors=errors, typed=typed, form_errors=True)
    board = scoreboard_of(services.game_state_load(game))
    if board.finish_problems:
        return _pad_page(request, access, board=board, status=422, finish_problems=board.finish_problems)
    if board.not_entered and request.POST.get("confirm") != "1":
        return _pad_page(request, access, board=board, finish_confirm=board.not_entered)
    services.game_finish(game=game)
    return redirect("scoring:results", game_id=game.public_id)


@never_cache
@require_http_methods(["GET", "POST"])
@with_game(Role.OWNER)
def game_delete(request: HttpRequest, access: GameAccess) -> HttpResponse:
    if request.method == "POST":
        services.game_delete(game=access.game)
        return redirect("scoring:history")
    return render(request, "scoring/delete.html", {"board": scoreboard_for(access.game), "access": access})


@never_cache
@require_GET
@with_game(Role.VIEW)
def game_export(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """The game as a game file (docs/game-file.md), to download."""
    document = to_json(dump_document([selectors.game_data(access.game, changes=True)]))
    response = HttpResponse(document, content_type="application/json; charset=utf-8")
    name = f"apiary-{access.game.played_on.isoformat()}-{access.game.public_id[:6]}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
