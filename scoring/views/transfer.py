"""Your data: the games you own downloaded as the game file (JSON, docs/game-file.md) or as a
spreadsheet (CSV, ``gamefile.spreadsheet``), and a game file uploaded, checked and shown before
its games are added.

Thin function-based views that work without JavaScript: selectors read, services write, and
``scoring.gamefile`` reads, checks and writes the file. An upload goes in three steps:

1. ``import_file`` (POST) checks the file. A file with problems is refused with every problem
   named by its path, and nothing is kept. A valid one waits to be added
   (``services.uploads.upload_keep``: one a session, in the waiting room, an hour at most from when its
   place was taken; with the account's, the address's or the site's places taken the upload is
   refused in words by its field, saying what the person can do and until when, and what waits
   stays). The browser is sent to the preview.
2. ``import_file`` (GET) reads the waiting file again and lists the games it will add and those
   it skips because the account already has them (``selectors.imports.import_preview``), and until when
   it waits.
3. ``import_confirm`` (POST, naming the token; rate limited) starts adding its games, and
   ``import_continue`` goes on, a step a request (``services.uploads.import_step``). Each answer is the
   progress (a bar, in the page; htmx asks for the next step as soon as one is shown; without
   JavaScript, *Continue* does); the last goes back to the data page, which says what the import
   added (all of its steps, whichever tabs of the session sent them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from scoring.access import keeper_of
from scoring.actors import Keeper
from scoring.forms.transfer import GameFileUploadForm
from scoring.gamefile import GameFileError, Problem, checked_text, dump_document, parse_document, to_json
from scoring.gamefile.spreadsheet import spreadsheet_write
from scoring.selectors.games import games_downloaded, games_for_export, games_kept_count
from scoring.selectors.imports import import_preview
from scoring.services.imports import fingerprints_fill
from scoring.services.uploads import (
    ACCOUNT,
    ADDRESS,
    NEW_ACCOUNTS,
    WAITING_ROOM_KEYS,
    NoPlace,
    import_step,
    upload_forget,
    upload_keep,
    upload_named,
    upload_waiting,
)
from scoring.views.common import AccountRequest
from scoring.web import limits
from scoring.wording.numbers_and_dates import clock

SESSION_DONE = "transfer_done"  # what the last import did, for the data page: {"added", "skipped", "name"}
MAX_SHOWN_NAME = 100  # characters of an uploaded file's name shown back


# ---------------------------------------------------------------------------------------------
# The data page


@never_cache
@login_required
@require_safe
def data(request: AccountRequest) -> HttpResponse:
    """Both downloads, the upload form, and what the last import did (said once)."""
    return _data_page(request, done=request.session.pop(SESSION_DONE, None))


def _data_page(
    request: AccountRequest,
    *,
    form: GameFileUploadForm | None = None,
    problems: Sequence[Problem] = (),
    file_name: str = "",
    done: dict | None = None,
    stale: bool = False,
    status: int = 200,
) -> HttpResponse:
    context = {
        "form": form or GameFileUploadForm(),
        "problems": problems,
        "file_name": file_name,
        "done": done,
        "stale": stale,
        "owned": games_kept_count(Keeper(user=request.user)),
    }
    return render(request, "scoring/transfer.html", context, status=status)


# ---------------------------------------------------------------------------------------------
# Downloads


def _attachment(response: HttpResponse, extension: str) -> HttpResponse:
    response["Content-Disposition"] = (
        f'attachment; filename="apiary-games-{timezone.localdate().isoformat()}.{extension}"'
    )
    return response


@never_cache
@require_safe
def export_json(request: HttpRequest) -> HttpResponse:
    """Every game the account owns (or, without one, this browser started), oldest first, with its
    change history: the game file. A table without accounts keeps its games this way too."""
    text = to_json(dump_document(games_for_export(keeper=keeper_of(request))))
    return _attachment(HttpResponse(text, content_type="application/json; charset=utf-8"), "json")


@never_cache
@require_safe
def export_csv(request: HttpRequest) -> HttpResponse:
    """The same games, one row per player (``gamefile.spreadsheet``)."""
    response = _attachment(HttpResponse(content_type="text/csv; charset=utf-8"), "csv")
    spreadsheet_write(games_downloaded(keeper_of(request)), response)
    return response


# ---------------------------------------------------------------------------------------------
# Upload, preview, confirmation


@limits.rate_limit("upload", methods=("POST",))
@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def import_file(request: AccountRequest) -> HttpResponse:
    """POST: check an uploaded game file; GET: the preview of the file waiting to be added."""
    if request.method == "POST":
        form = GameFileUploadForm(request.POST, request.FILES)
        if not form.is_valid():
            return _data_page(request, form=form, status=422)
        upload = form.cleaned_data["file"]
        name = (upload.name or "")[:MAX_SHOWN_NAME]
        try:
            text = checked_text(upload.read())
        except GameFileError as error:
            return _data_page(request, problems=error.problems, file_name=name, status=422)
        no_place = upload_keep(
            session=request.session, user=request.user, address=limits.client(request), name=name, text=text
        )
        if no_place is not None:
            return _no_place(request, form, no_place)
        fingerprints_fill(request.user)  # the preview looks the account's games up by them
        return redirect("scoring:import")

    pending = upload_waiting(session=request.session, user=request.user)
    if pending is None:
        return redirect("scoring:data")
    if pending.get("done") is not None:  # being added: where it stands, and Continue
        return _progress_page(request, pending)
    try:
        games = parse_document(pending["text"])
    except GameFileError as error:  # checked when it was uploaded; checked again all the same
        upload_forget(session=request.session, user=request.user)
        return _data_page(request, problems=error.problems, file_name=pending["name"], status=422)
    context = {
        "preview": import_preview(request.user, games),
        "upload": {"token": pending["token"], "name": pending["name"], "until": clock(pending["until"])},
    }
    return render(request, "scoring/transfer.html", context)


def _no_place(request: AccountRequest, form: GameFileUploadForm, no_place: NoPlace) -> HttpResponse:
    """The upload form again, saying by its file field why the file cannot wait
    (``services.uploads.upload_keep``), what the person can do, and from when sending it again works:
    409 when the account's own files hold its places (they can free one), else 429 (the address's)
    or 503 (the new accounts' share, or the site's), with a ``Retry-After``."""
    time = clock(_minute_after(no_place.until))
    if no_place.whose == ACCOUNT:
        message = ngettext(
            "%(count)d game file of your account is already waiting to be added, sent from another browser or "
            "device: add or cancel it there, or wait until %(time)s, when it stops waiting, then send this file "
            "again.",
            "%(count)d game files of your account are already waiting to be added, sent from other browsers or "
            "devices: add or cancel one of them there, or wait until %(time)s, when the first of them stops "
            "waiting, then send this file again.",
            no_place.waiting,
        ) % {"count": no_place.waiting, "time": time}
        form.add_error("file", message)
        return _data_page(request, form=form, status=409)
    if no_place.whose == ADDRESS:
        message = gettext(
            "As many game files as may wait from one network are already waiting to be added, sent from yours "
            "(every phone and computer on it together): wait until %(time)s, when enough of them have stopped "
            "waiting, then send this file again. Whoever sent them can make room sooner by adding or cancelling "
            "theirs."
        )
        status = 429
    elif no_place.whose == NEW_ACCOUNTS:
        message = ngettext(
            "Accounts made in the last %(days)d day already have as many game files waiting to be added as they "
            "may: wait until %(time)s, when enough of them have stopped waiting, then send this file again.",
            "Accounts made in the last %(days)d days already have as many game files waiting to be added as they "
            "may: wait until %(time)s, when enough of them have stopped waiting, then send this file again.",
            settings.IMPORT_NEW_ACCOUNT_DAYS,
        )
        status = 503
    else:
        message = gettext(
            "Too many game files are waiting to be added on this site right now: wait until %(time)s, when "
            "enough of them have stopped waiting, then send this file again."
        )
        status = 503
    form.add_error("file", message % {"time": time, "days": settings.IMPORT_NEW_ACCOUNT_DAYS})
    response = _data_page(request, form=form, status=status)
    response["Retry-After"] = str(max(1, math.ceil((no_place.until - timezone.now()).total_seconds())))
    return response


def _minute_after(moment: datetime) -> datetime:
    """The first whole minute at or after ``moment``: a place free at 14:05:20 is said free at 14:06."""
    whole = moment.replace(second=0, microsecond=0)
    return whole if whole == moment else whole + timedelta(minutes=1)


@limits.rate_limit("import")
@login_required
@require_POST
def import_confirm(request: AccountRequest) -> HttpResponse:
    """Start adding the games of the waiting file (or, with ``cancel``, forget it): the first step."""
    pending = upload_named(session=request.session, user=request.user, token=request.POST.get("token", ""))
    if "cancel" in request.POST:
        if pending is not None:
            upload_forget(session=request.session, user=request.user)
        return redirect("scoring:data")
    if pending is None:  # added already, cancelled, replaced by another upload, expired, or signed out since
        return _data_page(request, stale=True, status=409)
    if pending.get("done") is None:  # (else a second Add, from another tab: it goes on from where it stands)
        pending.update(done=0, added=0, skipped=0)
    return _import_step(request, pending)


@login_required
@require_POST
def import_continue(request: AccountRequest) -> HttpResponse:
    """The next step of adding the waiting file's games."""
    pending = upload_named(session=request.session, user=request.user, token=request.POST.get("token", ""))
    if pending is None or pending.get("done") is None:
        return _data_page(request, stale=True, status=409)
    return _import_step(request, pending)


def _import_step(request: AccountRequest, pending: dict) -> HttpResponse:
    """A step of adding the waiting file (``services.uploads.import_step``): the progress, or once every
    game is done the data page, which says what the import as a whole added."""
    step = import_step(session=request.session, user=request.user, pending=pending)
    if step.problems:
        return _data_page(request, problems=step.problems, file_name=step.name, status=422)
    if not step.finished:
        if request.htmx:
            return _progress_page(request, step.progress)
        return redirect("scoring:import")  # the progress, as a page a reload or Back shows again
    request.session[SESSION_DONE] = {"added": step.added, "skipped": step.skipped, "name": step.name}
    if request.htmx:
        return HttpResponseClientRedirect(reverse("scoring:data"))
    return redirect("scoring:data")


def _progress_page(request: AccountRequest, pending: dict) -> HttpResponse:
    """How far adding the waiting file has come: the whole page, or its progress for htmx."""
    importing = {key: value for key, value in pending.items() if key not in WAITING_ROOM_KEYS}
    template = "scoring/transfer.html#import-progress" if request.htmx else "scoring/transfer.html"
    return render(request, template, {"importing": importing})
