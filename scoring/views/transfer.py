"""Your data: the games you own downloaded as the game file (JSON, docs/game-file.md) or as a
spreadsheet (CSV, ``gamefile.spreadsheet``), and a game file uploaded, checked and shown before
its games are added.

Thin function-based views that work without JavaScript: selectors read, services write, and
``scoring.gamefile`` reads, checks and writes the file. An upload goes in three steps:

1. ``import_file`` (POST) checks the file. A file with problems is refused with every problem
   named by its path, and nothing is kept. A valid one waits to be added
   (``services.upload_keep``: for an hour, one a session, in the account's and the site's places;
   with every place taken the upload is refused in words by its field, and what waits stays).
   The browser is sent to the preview.
2. ``import_file`` (GET) reads the waiting file again and lists the games it will add and those
   it skips because the account already has them (``selectors.import_preview``).
3. ``import_confirm`` (POST, naming the token; rate limited) starts adding its games, and
   ``import_continue`` goes on, a step a request (``services.import_step``). Each answer is the
   progress (a bar, in the page; htmx asks for the next step as soon as one is shown; without
   JavaScript, *Continue* does); the last goes back to the data page, which says what the import
   added (all of its steps, whichever tabs of the session sent them).
"""

from __future__ import annotations

from collections.abc import Sequence

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

from scoring import selectors, services
from scoring.access import keeper_of
from scoring.forms.transfer import GameFileUploadForm
from scoring.gamefile import GameFileError, Problem, checked_text, dump_document, parse_document, to_json
from scoring.gamefile.spreadsheet import spreadsheet_write
from scoring.models import Game
from scoring.views.common import AccountRequest
from scoring.web import limits

SESSION_DONE = "transfer_done"  # what the last import did, for the data page: {"added", "skipped", "name"}
MAX_SHOWN_NAME = 100  # characters of an uploaded file's name shown back
SITE_FULL_RETRY_AFTER = 5 * 60  # seconds an upload refused for the site's places waits (Retry-After)


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
        "owned": Game.objects.filter(owner=request.user).count(),
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
    text = to_json(dump_document(selectors.games_for_export(keeper=keeper_of(request))))
    return _attachment(HttpResponse(text, content_type="application/json; charset=utf-8"), "json")


@never_cache
@require_safe
def export_csv(request: HttpRequest) -> HttpResponse:
    """The same games, one row per player (``gamefile.spreadsheet``)."""
    response = _attachment(HttpResponse(content_type="text/csv; charset=utf-8"), "csv")
    spreadsheet_write(selectors.games_downloaded(keeper_of(request)), response)
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
        full = services.upload_keep(session=request.session, user=request.user, name=name, text=text)
        if full is not None:
            return _no_place(request, form, full)
        services.fingerprints_fill(request.user)  # the preview looks the account's games up by them
        return redirect("scoring:import")

    pending = services.upload_waiting(session=request.session, user=request.user)
    if pending is None:
        return redirect("scoring:data")
    if pending.get("done") is not None:  # being added: where it stands, and Continue
        return _progress_page(request, pending)
    try:
        games = parse_document(pending["text"])
    except GameFileError as error:  # checked when it was uploaded; checked again all the same
        services.upload_forget(session=request.session, user=request.user)
        return _data_page(request, problems=error.problems, file_name=pending["name"], status=422)
    context = {
        "preview": selectors.import_preview(request.user, games),
        "upload": {"token": pending["token"], "name": pending["name"]},
    }
    return render(request, "scoring/transfer.html", context)


def _no_place(request: AccountRequest, form: GameFileUploadForm, full: str) -> HttpResponse:
    """The upload form again, saying by its file field why the file cannot wait (``services.upload_keep``)."""
    if full == services.ACCOUNT_FULL:
        count = settings.IMPORT_WAITING_PER_ACCOUNT
        message = ngettext(
            "%(count)d game file of your account is already waiting to be added, sent from another browser or "
            "device: add or cancel it there, or wait until it has waited an hour, then send this file again.",
            "%(count)d game files of your account are already waiting to be added, sent from other browsers or "
            "devices: add or cancel one of them there, or wait until it has waited an hour, then send this file "
            "again.",
            count,
        )
        form.add_error("file", message % {"count": count})
        return _data_page(request, form=form, status=409)
    message = gettext(
        "Too many game files are waiting to be added on this site right now: send this file again in a few minutes."
    )
    form.add_error("file", message)
    response = _data_page(request, form=form, status=503)
    response["Retry-After"] = str(SITE_FULL_RETRY_AFTER)
    return response


@limits.rate_limit("import")
@login_required
@require_POST
def import_confirm(request: AccountRequest) -> HttpResponse:
    """Start adding the games of the waiting file (or, with ``cancel``, forget it): the first step."""
    pending = services.upload_named(session=request.session, user=request.user, token=request.POST.get("token", ""))
    if "cancel" in request.POST:
        if pending is not None:
            services.upload_forget(session=request.session, user=request.user)
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
    pending = services.upload_named(session=request.session, user=request.user, token=request.POST.get("token", ""))
    if pending is None or pending.get("done") is None:
        return _data_page(request, stale=True, status=409)
    return _import_step(request, pending)


def _import_step(request: AccountRequest, pending: dict) -> HttpResponse:
    """A step of adding the waiting file (``services.import_step``): the progress, or once every
    game is done the data page, which says what the import as a whole added."""
    step = services.import_step(session=request.session, user=request.user, pending=pending)
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
    importing = {key: value for key, value in pending.items() if key != "text"}
    template = "scoring/transfer.html#import-progress" if request.htmx else "scoring/transfer.html"
    return render(request, template, {"importing": importing})
