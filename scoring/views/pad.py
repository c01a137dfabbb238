"""The scoring pad: the page, one value saved, the poll that brings the other phones' saves,
undo, and finishing the game.

Saving follows one rule everywhere (``services.pad.field_save``): a save changes only the value
this phone changed, and only when the stored value is the one this phone saw (or by a step,
+1/-1, applied to the stored value). Without JavaScript the pad is one form (``PadForm``): a post
saves the fields whose posted value differs from the one the page showed. With JavaScript each
field saves itself through ``pad_field_save`` (``FieldSaveForm``), naming the version it saw;
the answer is partials of the pad's own template.
"""

from __future__ import annotations

from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import condition, require_http_methods, require_POST, require_safe

from apiary_site.compression import keep_uncompressed
from scoring.access import GameAccess, NoAccess, Role, ViewOnly, link_name_set, owner_name_set, session_tag
from scoring.forms.pad import FieldSaveForm, GameModeForm, LinkHolderNameForm, PadFinishForm, PadForm
from scoring.models import Change, Game
from scoring.presenters import answers
from scoring.presenters.board import Scoreboard
from scoring.presenters.changes import change_label, finished_sentence, value_words
from scoring.presenters.comb_hints import comb_hints
from scoring.presenters.pad_page import PadPage, script_words
from scoring.presenters.results import standings
from scoring.rules.categories import MAX_PLAYERS
from scoring.selectors.changes import finish_event, game_change, recent_changes
from scoring.selectors.games import game_played_next, game_shared, game_state
from scoring.services import finishing as finishing_services
from scoring.services import pad as pad_services
from scoring.services.finishing import FinishOutcome, pad_finish
from scoring.services.pad import Outcome, SaveResult, ValueSave, field_save, values_save
from scoring.views.common import HtmxHttpRequest, render_partials, with_game
from scoring.views.offline import keep_offline, not_kept
from scoring.views.protocol import finished_mark, poll_etag, revision_tag, say_game, say_revision, say_session
from scoring.views.sharing import share_links, sheet_address
from scoring.web import limits
from scoring.web.refusals import sentence
from scoring.wording.sentences import words

PAD = "scoring/pad.html"
TABLE = "scoring/table.html"
LIVE_ANSWERS = "pad"  # the cache of the poll's answers (settings.CACHES: each worker's own memory)


@never_cache
@keep_offline  # a copy on the phone, shown only offline (scoring/views/offline.py)
@require_http_methods(["GET", "HEAD", "POST"])
@with_game(Role.VIEW)
def pad(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """The scoring pad (read-only for a view link). A plain post (no JavaScript) saves the fields
    this phone changed, and shows again those it could not save, with why."""
    if request.method != "POST":  # GET, or HEAD (the same answer, without its body)
        return _pad_page(request, access)
    if not access.can_edit:
        raise ViewOnly(_("This link only lets you watch the game: it cannot change anything."))
    form = PadForm(**_pad_fields_of(access), data=request.POST)
    form.is_valid()  # (a field's own error leaves the others to be saved)
    saves = form.value_saves()
    over = _over_save_limit(request, saves)
    if over is not None:
        return _posted_page(request, access, answers.over_limit_answer(form, saves, over))
    saved = values_save(game=access.game, saves=saves, by=access.actor)
    if any(result.outcome is Outcome.GONE for result in saved):
        raise NoAccess()
    posted = answers.posted_answer(form, saves, saved)
    if posted is not None:
        return _posted_page(request, access, posted)
    query = f"?player={request.POST['player']}" if request.POST.get("player", "").isdigit() else ""
    anchor = f"#f-{form.stepped}" if form.stepped else ""
    return redirect(reverse("scoring:pad", args=[access.game.public_id]) + query + anchor)


@never_cache
@require_POST
@limits.rate_limit("save")
@with_game(Role.EDIT)
def pad_field_save(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """Save one value for the pad's script (``FieldSaveForm`` says what it posts). Answers the
    field's status and, out of band, the figures that kind of field can change (and the recent
    changes when the page shows them): 200 when saved (or when this page already saved a newer
    value), 409 when the value changed on another phone since the page saw it (nothing written;
    the status says to what), 422 for bad input (said under the field, what was typed kept),
    400 for a field that is not the game's. ``X-Pad-Revision`` carries the game's revision."""
    form = FieldSaveForm(request.POST)
    valid, typed = form.is_valid(), request.POST.get("value", "")
    if form.cleaned_data.get("session", "") not in ("", session_tag(request)):
        # (the page was opened in a session that has ended: what it kept is not this session's to save)
        answer = _pad_sentence(
            access.game, _("This page was opened in a session that has ended: it cannot save. Reload the page."), 403
        )
        return say_session(answer, request)
    address = form.address
    if address is None:  # (not a field of any game's: the form says so)
        return _pad_sentence(access.game, str(form.errors["field"][0]), 400)
    if not valid:
        message = str(next(iter(form.errors.values()))[0])
        return _save_answer(
            request, access, answers.input_refused(game_state(access.game), address, message, typed=typed)
        )
    result = field_save(game=access.game, address=address, by=access.actor, **form.save_arguments())
    return _save_answer(request, access, answers.save_answer(result, typed=typed, changes=form.cleaned_data["changes"]))


def _save_answer(request: HttpRequest, access: GameAccess, answer: answers.SaveAnswer) -> HttpResponse:
    """The answer to one save of the pad's script, as ``answers`` says it. A sentence alone says
    how the game stands as the save found it (finished by another phone since the access read it)."""
    if answer.board is None:
        if not answer.sentence:
            return sentence("", 404)
        return _pad_sentence(answer.game or access.game, answer.sentence, answer.status)
    context = _pad_context(request, access, answer.board, **answer.context)
    response = _pad_partials(request, list(answer.partials), context, status=answer.status)
    # (what a poll would bring at this revision: a page whose last poll was the revision before
    # this save's write has every figure the write changed, and polls on from here)
    response["ETag"] = poll_etag(answer.board.game)
    return response


def _pad_sentence(game: Game, message: str, status: int) -> HttpResponse:
    """A save refused in one sentence, saying how ``game`` stands (``protocol.say_game``)."""
    return say_game(sentence(message, status), game)


def _revision_tag(request: HttpRequest, access: GameAccess) -> str:
    return revision_tag(access.game)


@never_cache
@require_safe
@with_game(Role.VIEW, polled=True)
@condition(etag_func=_revision_tag)
def pad_live(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """What the other phones saved (the pad polls it): 304 with no body while the game's revision
    is the one the phone has (its ETag, Django's ``condition``); otherwise every field's value
    and version and, out of band, every figure, and the recent changes when the page shows them
    (``changes=1``). A game out of reach stops the poll (286, ``with_game``).

    The table's phones ask for the same revision: its answer is made for the first to ask and kept
    (``LIVE_ANSWERS``) for the others, under what it depends on (``_live_key``). It holds nothing
    of the session it was made for (no CSRF token: the script sends the page's; no name of who
    asks). With the recent changes it is made for each poll: their "2 minutes ago" follows the
    clock, and their undo what the phone may do; a finished game's for each phone too, as its
    offer of the table's next game holds the phone's CSRF token (and its revision seldom moves:
    the polls are 304s)."""
    changes = request.GET.get("changes") == "1"
    if changes or access.game.is_finished:
        return _live_answer(request, access, changes=changes)
    answer = caches[LIVE_ANSWERS].get_or_set(_live_key(request, access), lambda: _live_answer(request, access))
    assert isinstance(answer, HttpResponse)  # (what the cache keeps is an answer)
    return answer


def _live_answer(request: HttpRequest, access: GameAccess, *, changes: bool = False) -> HttpResponse:
    board = Scoreboard(game_state(access.game))
    return _pad_partials(request, answers.poll_partials(changes=changes), _pad_context(request, access, board))


def _live_key(request: HttpRequest, access: GameAccess) -> str:
    """What a poll's answer (without the recent changes) depends on: the game and its revision,
    the language, the seat in view (``?player=``) and whether the page may edit (every partial is
    told). (An answer made from a revision read later, one more save in, is kept under the one
    the access read: it is never older than what it is kept for.) And the phone's time zone, for
    the times an answer writes."""
    game = access.game
    editable = access.can_edit and not game.is_finished
    place = f"{get_language()}:{timezone.get_current_timezone_name()}"
    return f"live:{game.public_id}:{game.revision}:{place}:{_seat_asked(request) or ''}:{editable:d}"


@never_cache
@require_safe
@with_game(Role.VIEW, polled=True)
@condition(etag_func=_revision_tag)
def game_table(request: HtmxHttpRequest, access: GameAccess) -> HttpResponse:
    """*Table view*: every player's name, rank and total, large enough to read across the
    table, how far each stands from the lead, the tie-breaks and a shared victory in words; live
    as values arrive (htmx polls it for its standings, with the ETag it last got: a 304 while
    nothing changed)."""
    board = Scoreboard(game_state(access.game))
    game = board.game
    next_game = game_played_next(game) if game.is_finished else None
    context = {"board": board, "access": access, "standings": standings(board), "next_game": next_game}
    context["poll_etag"] = poll_etag(access.game)  # (the page is what a poll now brings)
    if request.htmx:
        return render_partials(request, TABLE, ["standings"], context)
    return render(request, TABLE, context)


@never_cache
@require_POST
@limits.rate_limit("save")
@with_game(Role.EDIT)
def change_undo(request: HtmxHttpRequest, access: GameAccess, change_id: int) -> HttpResponse:
    """Undo one change of the game: a save like any other (itself a change), refused, with the
    reason, when the value has changed again since. With htmx, the answer is a poll's with the
    recent changes, the game as it stands, into #live like a poll's (so that a poll's swap of the
    list while the undo was on its way leaves nothing of it to land on a list no longer in the
    page: live.js), and the reason apart from the list."""
    change = game_change(access.game, change_id)
    if change is None:
        raise NoAccess()
    result = pad_services.change_undo(game=access.game, change=change, by=access.actor)
    if result.outcome is Outcome.GONE:
        raise NoAccess()
    message = _undo_refusal(change, result)
    board = Scoreboard(result.stands)
    if request.htmx:
        context = _pad_context(request, access, board, undo_message=message)
        return _pad_partials(request, answers.undo_partials(), context, status=409 if message else 200)
    if message:
        return _pad_page(request, access, board=board, status=409, undo_message=message)
    return redirect(reverse("scoring:pad", args=[access.game.public_id]) + "#changes")


def _undo_refusal(change: Change, result: SaveResult) -> str:
    """Why an undo was not done, in words ("" when it was)."""
    if result.outcome is Outcome.CONFLICT:
        return words(
            _("%(what)s: changed again since, to %(now)s. Undoing would overwrite that, so nothing was changed."),
            what=change_label(change),
            now=value_words(result.text),
        )
    if result.outcome is Outcome.FINISHED:
        return answers.finished_refusal(result.stands.game, result.finish)
    if result.outcome is Outcome.NO_FIELD:  # a field of the other way of counting the during-the-game points
        return words(
            _("%(what)s: the game now counts its points another way, so nothing was changed."),
            what=change_label(change),
        )
    return result.message if result.outcome is Outcome.REFUSED else ""


@never_cache
@require_POST
@limits.rate_limit("save")
@with_game(Role.EDIT)
def game_finish(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """Finish the game: every phone's pad then shows it finished and takes no more values. Without
    JavaScript the Finish button is part of the pad's form: what this phone changed is saved first,
    and a refused value stops here. The values far from what games record (each linking to its
    field) and the categories that nobody has entered are listed, and an edit link's holder is
    told that they finish the game for the table: the game is finished only once that is confirmed."""
    form = PadFinishForm(**_pad_fields_of(access), data=request.POST)
    form.is_valid()  # (a field's own error leaves the others to be saved)
    saves = form.value_saves()
    over = _over_save_limit(request, saves)
    if over is not None:
        return _posted_page(request, access, answers.over_limit_answer(form, saves, over))
    result = pad_finish(
        game=access.game, saves=saves, refused=bool(form.errors), confirmed=form.confirmed, by=access.actor
    )
    if result.outcome is FinishOutcome.GONE:
        raise NoAccess()
    posted = answers.posted_answer(form, saves, result.saves)
    if posted is not None:  # (a value not saved: said under it, what was typed kept)
        return _posted_page(request, access, posted)
    if result.outcome in (FinishOutcome.FINISHED, FinishOutcome.ALREADY):
        return redirect("scoring:results", game_id=access.game.public_id)
    board = Scoreboard(result.stands)
    questions = answers.finish_questions(board, result, access.actor)
    status = 422 if result.outcome is FinishOutcome.BLOCKED else 200
    return _pad_page(request, access, board=board, status=status, **questions)


@never_cache
@require_POST
@limits.rate_limit("save")
@with_game(Role.OWNER)
def game_reopen(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """Reopen a finished game to correct its scores: its owner's deliberate act, recorded in its
    history; every phone's pad takes values again at its next poll. Finishing it again is the pad's
    Finish, as for any game."""
    finishing_services.game_reopen(game=access.game, by=access.actor)
    return redirect("scoring:pad", game_id=access.game.public_id)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@limits.rate_limit("save", methods=("POST",))
@with_game(Role.EDIT)
def game_mode_change(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """How the game counts its during-the-game points, and the other way offered (the pad's link
    beside its heading): its form counts them on the VP track or as the breakdown
    (``services.pad.game_mode_change``) and goes back to the pad, or comes back refused with why
    (409) while the way the game counts now holds values. A plain page and form: no script."""
    if request.method == "POST":
        form = GameModeForm(request.POST)
        if not form.is_valid():
            return sentence(_("The points scored during the game are counted on the VP track or in a breakdown."), 400)
        try:
            pad_services.game_mode_change(game=access.game, during=form.cleaned_data["during"])
        except ValidationError as refusal:
            return _during_page(request, access, status=409, mode_message=refusal.messages[0])
        seat = request.GET.get("player", "")
        return redirect(sheet_address(access.game, int(seat) if seat.isdigit() else None))
    return _during_page(request, access)


def _during_page(request: HttpRequest, access: GameAccess, *, status: int = 200, **context) -> HttpResponse:
    board = Scoreboard(game_state(access.game))
    return render(
        request,
        "scoring/during.html",
        {"board": board, "access": access, "player": _seat_in_view(request, board), **context},
        status=status,
    )


@require_POST
@limits.rate_limit("save")
@with_game(Role.EDIT)
def link_name(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """Who is typing says their name, for the table's phones: a link's holder without an account in
    the pad's Recent changes (their changes then carry that name, always shown as a link holder's:
    ``presenters.changes.author_words``), the owner whom the table would know only as "the owner" in
    *Score together* (``access.owner_name_set``: "Finished by Alice", not "by the owner"). A name
    refused (``forms.pad.LinkHolderNameForm``) comes back under the field, as it was typed."""
    if not (access.asks_name or access.asks_owner_name):
        return redirect("scoring:pad", game_id=access.game.public_id)
    form = LinkHolderNameForm(request.POST)
    if not form.is_valid():
        return _pad_page(
            request, access, status=422, name_error=form.errors["name"][0], name_typed=request.POST.get("name", "")
        )
    if access.is_owner:
        owner_name_set(request, access, form.cleaned_data["name"])
        return redirect(reverse("scoring:pad", args=[access.game.public_id]) + "?shared=1#share")
    link_name_set(request, access, form.cleaned_data["name"])
    return redirect(reverse("scoring:pad", args=[access.game.public_id]) + "#changes-box")


# ---------------------------------------------------------------------------------------------


def _pad_fields_of(access: GameAccess) -> dict:
    """The seats, sectors and way of scoring a ``PadForm`` reads a post of this game against."""
    state = game_state(access.game)
    return {"seats": state.seats, "sectors": state.sectors, "during": state.game.during}


def _over_save_limit(request: HttpRequest, saves: list[ValueSave]) -> limits.Refused | None:
    """A plain post's values counted against the save limit, as many saves of the pad's script
    are (one a value): over it, none is saved (``answers.posted_answer`` says so under each)."""
    return limits.over_limit(request, "save", hits=len(saves)) if saves else None


def _posted_page(request: HttpRequest, access: GameAccess, posted: answers.PostedAnswer) -> HttpResponse:
    """The pad again after a plain post not (wholly) saved: each value's message under it, what
    was typed kept; 429 with ``Retry-After`` when the post was over the save limit, else 422."""
    response = _pad_page(
        request, access, status=posted.status, errors=posted.errors, typed=posted.typed, form_errors=True
    )
    if posted.retry_after:
        response["Retry-After"] = str(posted.retry_after)
    return response


def _seat_asked(request: HttpRequest) -> int | None:
    """The seat number the page asks to show alone (``?player=2``), if it can be one of a game's."""
    try:
        number = int(request.GET.get("player") or request.POST.get("player") or "")
    except ValueError:
        return None
    return number if 1 <= number <= MAX_PLAYERS else None


def _seat_in_view(request: HttpRequest, board: Scoreboard) -> int | None:
    """The seat of the "one player at a time" view (``?player=2``), or None for everyone."""
    number = _seat_asked(request)
    return number if any(seat.number == number for seat in board.seats) else None


def _pad_context(request: HttpRequest, access: GameAccess, board: Scoreboard, **extra) -> dict:
    """What the pad template and its partials read (``presenters.pad_page.PadPage``): the board,
    the access, the one-player view and the recent changes (read only if a rendered part shows
    them), and what the way it is drawn adds (``extra``: a save's answer, a post's messages...)."""
    game = board.game
    page = PadPage(
        board=board,
        access=access,
        player=_seat_in_view(request, board),
        editable=access.can_edit and not game.is_finished,
        finished=finished_sentence(game, finish_event(game)) if game.is_finished else "",
        finished_mark=finished_mark(game),
        next_game=game_played_next(game) if game.is_finished else None,
        comb_hints=comb_hints(board),
        changes=SimpleLazyObject(lambda: recent_changes(game)),
        **extra,
    )
    return page.context()


def _pad_partials(request: HttpRequest, names: list[str], context: dict, status: int = 200) -> HttpResponse:
    """Partials of the pad, with the game's revision they show (``protocol.say_revision``)."""
    return say_revision(render_partials(request, PAD, names, context, status=status), context["board"].game)


def _pad_page(
    request: HttpRequest,
    access: GameAccess,
    *,
    status: int = 200,
    board: Scoreboard | None = None,
    errors: dict | None = None,
    typed: dict | None = None,
    **context,
) -> HttpResponse:
    """The whole pad page (of ``board``, or of the game as it stands now), with the messages of a
    post that was not (wholly) saved."""
    if board is None:
        board = Scoreboard(game_state(access.game), errors=errors or {}, typed=typed or {})
    context["poll_etag"] = poll_etag(board.game)  # (the page is what a poll at its revision brings)
    context["script_words"] = script_words()
    if access.is_owner:
        # The links' addresses (secrets) only when the owner opens Score together (``?shared=1``):
        # a page that holds them is never kept offline (``offline.not_kept``), the pad without them is.
        share = share_links(request, board.game, board.seats) if request.GET.get("shared") else []
        context["share_live"] = game_shared(board.game)
        context["share"] = share
        context["share_has"] = {item["link"].access: True for item in share}
        asked = request.GET.get("shared", "")
        context["share_open"] = asked if asked in context["share_has"] else (share[0]["link"].access if share else "")
        # Score together sits in the first screen of a new pad (nothing entered yet, by anyone), where
        # the table gathers round the QR code; once scoring has begun, beside Recent changes. (Not
        # the revision: making the link moves it on, and the box jumped to the bottom: issue 49.)
        context["share_on_top"] = not board.scoring_started
    context = _pad_context(request, access, board, **context)
    response = render(request, PAD, context, status=status)
    # The share links are secrets: never compressed beside what others typed (BREACH), nor kept.
    if context.get("share"):
        keep_uncompressed(not_kept(response))
    return response
