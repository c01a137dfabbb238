"""Your data: the games you own downloaded as the game file (JSON, docs/game-file.md) or as a
spreadsheet (CSV), and a game file uploaded, checked and shown before its games are added.

Thin function-based views that work without JavaScript: selectors read, services write, and
``scoring.gamefile`` reads, checks and writes the file. An upload goes in three steps:

1. ``import_file`` (POST) checks the file. A file with problems is refused with every problem
   named by its path, and nothing is kept. A valid one (at most 2 MB) waits on the server for an
   hour, under a random token: its text in the cache (shared by every worker, under the account
   and the token), the token, the file's name and when it was sent in the session. Not the text
   itself in the session, which every request of the account reads (the pad's live view every
   few seconds). One file waits per session (a later one replaces it), and a waiting file holds
   a place of the account's (``IMPORT_WAITING_PER_ACCOUNT``: its other sessions' files) and one
   of the site's (``IMPORT_WAITING_TOTAL``), freed when it is added, cancelled or expires: with
   every place taken the upload is refused in words by its field, and what waits stays.
   The browser is sent to the preview.
2. ``import_file`` (GET) reads the waiting file again and lists the games it will add and those
   it skips because the account already has them (``gamefile.game_fingerprint``).
3. ``import_confirm`` (POST, naming the token; rate limited) starts adding its games, and
   ``import_continue`` goes on, ``IMPORT_STEP`` games a request (``services.games_import``
   stores them in short batches, skipping the known ones), so no request holds a worker long
   and other tables' saves never wait. Each answer is the progress (a bar, in the page; htmx
   asks for the next step as soon as one is shown; without JavaScript, *Continue* does); the
   last forgets the file and goes back to the data page, which says what the import added (all
   of its steps, whichever tabs of the session sent them: ``selectors.games_added_since``). An
   import interrupted (the page closed, a worker timed out) keeps what it stored: confirming the
   file again skips those games and adds the rest.
"""

from __future__ import annotations

import csv
import json
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext, ngettext, pgettext, pgettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from scoring import limits, selectors, services
from scoring.categories import CATEGORIES
from scoring.engine import GameResult, PlayerResult
from scoring.forms.transfer import GameFileUploadForm
from scoring.gamefile import (
    GameData,
    GameFileError,
    PlayerData,
    Problem,
    dump_document,
    parse_document,
    read_document,
    to_json,
)
from scoring.gamefile import _ as gamefile_words
from scoring.models import Game

# The file waiting to be added: {"token", "name", "since" (when it was sent), "places" (the cache
# keys of the places it holds)}, and once adding it started {"done", "total", "added", "skipped"}
# (games of the file done so far, of all, of which added and skipped by this session's steps);
# its text is in the cache.
SESSION_UPLOAD = "transfer_upload"
WAITING_SECONDS = 60 * 60  # how long an uploaded file waits to be added
SITE_FULL_RETRY_AFTER = 5 * 60  # seconds an upload refused for the site's places waits (Retry-After)
SESSION_DONE = "transfer_done"  # what the last import did, for the data page: {"added", "skipped", "name"}
MAX_SHOWN_NAME = 100  # characters of an uploaded file's name shown back
PREVIEW_SHOWN = 100  # games the preview lists in each of its sections (the others are counted)
IMPORT_STEP = 250  # games a request of an import stores (in batches of services.IMPORT_BATCH): a second or two

# The spreadsheet's columns (docs/game-file.md, "In the app: Your data"). Their names in English are
# the machine names below; in another language the header row is in that language's words (a
# category's column is the category's label, in French the edition's words), from the catalogue.
CSV_COLUMNS: tuple[str, ...] = (
    "played_on",
    "game_id",
    "finished",
    "seat",
    "player",
    "faction",
    "automa",
    *(category.key for category in CATEGORIES),
    "active_workers",
    "hibernation_tokens",
    "majority",
    "during",
    "end",
    "total",
    "rank",
    "winner",
)
# The spreadsheet's column names in another language than English (English writes the machine
# names of CSV_COLUMNS as they are).
_CSV_HEADINGS = {
    "played_on": pgettext_lazy("CSV column", "played_on"),
    "game_id": pgettext_lazy("CSV column", "game_id"),
    "finished": pgettext_lazy("CSV column", "finished"),
    "seat": pgettext_lazy("CSV column", "seat"),
    "player": pgettext_lazy("CSV column", "player"),
    "faction": pgettext_lazy("CSV column", "faction"),
    "automa": pgettext_lazy("CSV column", "automa"),
    "active_workers": pgettext_lazy("CSV column", "active_workers"),
    "hibernation_tokens": pgettext_lazy("CSV column", "hibernation_tokens"),
    "majority": pgettext_lazy("CSV column", "majority"),
    "during": pgettext_lazy("CSV column", "during"),
    "end": pgettext_lazy("CSV column", "end"),
    "total": pgettext_lazy("CSV column", "total"),
    "rank": pgettext_lazy("CSV column", "rank"),
    "winner": pgettext_lazy("CSV column", "winner"),
}
_CATEGORY_LABELS = {category.key: category.label for category in CATEGORIES}


def csv_header() -> list[str]:
    """The header row in the language being spoken: ``CSV_COLUMNS`` in English; in French the
    column names of the catalogue, a category's column named by its label in the edition's words."""
    if (get_language() or "en").split("-")[0] == "en":
        return list(CSV_COLUMNS)
    return [
        str(_CSV_HEADINGS[name]) if name in _CSV_HEADINGS else gettext(_CATEGORY_LABELS[name]) for name in CSV_COLUMNS
    ]


# A text cell starting with one of these is a formula to a spreadsheet: it gets a ' in front.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


# ---------------------------------------------------------------------------------------------
# The data page


@never_cache
@login_required
@require_safe
def data(request: HttpRequest) -> HttpResponse:
    """Both downloads, the upload form, and what the last import did (said once)."""
    return _data_page(request, done=request.session.pop(SESSION_DONE, None))


def _data_page(
    request: HttpRequest,
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
@login_required
@require_safe
def export_json(request: HttpRequest) -> HttpResponse:
    """Every game the user owns, oldest first, with its change history: the game file."""
    text = to_json(dump_document(selectors.games_for_export(owner=request.user)))
    return _attachment(HttpResponse(text, content_type="application/json; charset=utf-8"), "json")


@never_cache
@login_required
@require_safe
def export_csv(request: HttpRequest) -> HttpResponse:
    """Every game the user owns, oldest first, one row per player: UTF-8 with a BOM (so that
    spreadsheet apps read accents), a header row of ``CSV_COLUMNS``, the columns separated as
    the language's spreadsheets expect (``csv_delimiter``)."""
    response = _attachment(HttpResponse(content_type="text/csv; charset=utf-8"), "csv")
    response.write("\ufeff")
    writer = csv.writer(response, delimiter=csv_delimiter())
    writer.writerow(csv_header())
    games = selectors.games_with_everything().filter(owner=request.user).order_by("played_on", "created_at", "id")
    for game in games:
        writer.writerows(csv_rows(game))
    return response


def csv_delimiter() -> str:
    """What separates the columns: a comma, in French a semicolon, as a French spreadsheet
    (whose decimal separator is the comma) opens a CSV file in columns."""
    return ";" if (get_language() or "en").split("-")[0] == "fr" else ","


def csv_rows(game: Game) -> Iterator[list]:
    """The game's rows, one per player in seat order, for a game loaded with
    ``selectors.games_with_everything``. The figures are the engine's (``selectors.game_result``);
    an entry nobody has entered is an empty cell, a yes/no entry 0 or 1."""
    result = selectors.game_result(game)
    for seat, outcome in zip(game.seats.all(), result.players, strict=True):
        counts = [tokens.count for tokens in seat.tokens.all()]
        yield [
            game.played_on.isoformat(),
            game.public_id,
            _yes_no(game.is_finished),
            seat.number,
            _text(seat.name),
            _text(seat.faction),
            _yes_no(seat.is_automa),
            *(_entry(getattr(seat, category.key)) for category in CATEGORIES),
            _entry(seat.active_workers),
            sum(counts) if counts else "",
            outcome.majority,
            outcome.during,
            outcome.end,
            outcome.total,
            outcome.rank,
            _yes_no(outcome.winner),
        ]


def _yes_no(value: bool) -> str:
    """ "yes" or "no" in the language being spoken (a spreadsheet's cell, not the pad's words)."""
    return pgettext("CSV cell", "yes") if value else pgettext("CSV cell", "no")


def _entry(value: int | bool | None) -> int | str:
    if value is None:
        return ""
    return int(value)  # a yes/no entry as 1 or 0


def _text(value: str) -> str:
    return f"'{value}" if value.startswith(_FORMULA_STARTS) else value


# ---------------------------------------------------------------------------------------------
# Upload, preview, confirmation


@dataclass
class PreviewGame:
    """A game of an uploaded file, as the preview shows it."""

    data: GameData
    result: GameResult

    @property
    def players(self) -> list[tuple[PlayerData, PlayerResult]]:
        return list(zip(self.data.players, self.result.players, strict=True))


@dataclass
class Preview:
    new: list[PreviewGame]  # what "Add" stores (the first PREVIEW_SHOWN)
    known: list[PreviewGame]  # skipped: the account already has them (the first PREVIEW_SHOWN)
    new_count: int = 0
    known_count: int = 0

    @property
    def new_more(self) -> int:
        return self.new_count - len(self.new)

    @property
    def known_more(self) -> int:
        return self.known_count - len(self.known)


def _preview(user, games: Sequence[GameData]) -> Preview:
    """The games of a checked document, split as ``services.games_import`` will split them; the
    first ``PREVIEW_SHOWN`` of each kind are shown (a backup of thousands of games is counted)."""
    preview = Preview(new=[], known=[])
    for game, known in zip(games, selectors.already_stored(user, games), strict=True):
        if known:
            preview.known_count += 1
            shown = preview.known
        else:
            preview.new_count += 1
            shown = preview.new
        if len(shown) < PREVIEW_SHOWN:
            shown.append(PreviewGame(data=game, result=game.score()))
    return preview


def _cache_key(user, token: str) -> str:
    return f"transfer-upload:{user.pk}:{token}"


ACCOUNT_FULL = "account"  # why a checked file cannot wait: the account's places are taken ...
SITE_FULL = "site"  # ... or the site's


def _places(user) -> tuple[list[str], list[str]]:
    """The cache keys of the places a waiting file may hold: the account's, and the site's."""
    account = [f"transfer-place:{user.pk}:{n}" for n in range(settings.IMPORT_WAITING_PER_ACCOUNT)]
    return account, [f"transfer-place:site:{n}" for n in range(settings.IMPORT_WAITING_TOTAL)]


def _take(keys: list[str], token: str) -> str | None:
    """One of the free places ``keys`` (an expired one is free), taken for the file ``token`` for as
    long as it waits; None when each is taken. ``cache.add`` stores only where nothing is: two
    uploads at once never take one place."""
    taken = cache.get_many(keys)
    return next((key for key in keys if key not in taken and cache.add(key, token, WAITING_SECONDS)), None)


def _held(pending: dict) -> list[str]:
    """Those of the places of the waiting file (``pending``) that are still its own (not expired)."""
    places = pending.get("places", [])
    held = cache.get_many(places)
    return [key for key in places if held.get(key) == pending["token"]]


def _release(pending: dict) -> None:
    """The places the waiting file holds, freed."""
    cache.delete_many(_held(pending))


def _keep(request: HttpRequest, name: str, text: str) -> str | None:
    """The checked file waits to be added, in place of the session's waiting file (one at a time,
    in the places that one held); else it takes a place of the account's and one of the site's.
    None, or why it cannot wait (``ACCOUNT_FULL``, ``SITE_FULL``): then what waits stays as it was."""
    token = secrets.token_urlsafe(16)
    pending = request.session.get(SESSION_UPLOAD)
    places = _held(pending) if pending else []
    if len(places) == 2:  # the account's and the site's
        cache.set_many(dict.fromkeys(places, token), WAITING_SECONDS)
    else:
        account, site = _places(request.user)
        mine = _take(account, token)
        if mine is None:
            return ACCOUNT_FULL
        theirs = _take(site, token)
        if theirs is None:
            cache.delete(mine)
            return SITE_FULL
        if pending:
            _release(pending)
        places = [mine, theirs]
    if pending:
        cache.delete(_cache_key(request.user, pending["token"]))
    cache.set(_cache_key(request.user, token), text, WAITING_SECONDS)
    since = timezone.now().isoformat()
    request.session[SESSION_UPLOAD] = {"token": token, "name": name, "since": since, "places": places}
    return None


def _waiting(request: HttpRequest) -> dict | None:
    """The file waiting to be added ({"token", "name", "since", "places", "text"}, and the
    progress of adding it), or None (none, or expired: its places are freed)."""
    pending = request.session.get(SESSION_UPLOAD)
    if pending is None:
        return None
    text = cache.get(_cache_key(request.user, pending["token"]))
    if text is None or "places" not in pending:  # (or sent before files held places: sent again)
        _forget(request)
        return None
    return {**pending, "text": text}


def _forget(request: HttpRequest) -> None:
    """The waiting file forgotten (added, cancelled, expired): its text and its places."""
    pending = request.session.pop(SESSION_UPLOAD, None)
    if pending is not None:
        cache.delete(_cache_key(request.user, pending["token"]))
        _release(pending)


def _read_upload(raw: bytes) -> str:
    """The uploaded file as text, checked; raises GameFileError with every problem by path."""
    try:
        text = raw.decode("utf-8-sig")  # a byte order mark (a Windows editor's) is no problem
    except UnicodeDecodeError:
        raise GameFileError([Problem("(document)", gamefile_words("is not UTF-8 text"))]) from None
    parse_document(text)
    return text


@limits.rate_limit("upload", methods=("POST",))
@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def import_file(request: HttpRequest) -> HttpResponse:
    """POST: check an uploaded game file; GET: the preview of the file waiting to be added."""
    if request.method == "POST":
        form = GameFileUploadForm(request.POST, request.FILES)
        if not form.is_valid():
            return _data_page(request, form=form, status=422)
        upload = form.cleaned_data["file"]
        name = (upload.name or "")[:MAX_SHOWN_NAME]
        try:
            text = _read_upload(upload.read())
        except GameFileError as error:
            return _data_page(request, problems=error.problems, file_name=name, status=422)
        full = _keep(request, name, text)
        if full is not None:
            return _no_place(request, form, full)
        services.fingerprints_fill(request.user)  # the preview looks the account's games up by them
        return redirect("scoring:import")

    pending = _waiting(request)
    if pending is None:
        return redirect("scoring:data")
    if pending.get("done") is not None:  # being added: where it stands, and Continue
        return _progress_page(request, pending)
    try:
        games = parse_document(pending["text"])
    except GameFileError as error:  # checked when it was uploaded; checked again all the same
        _forget(request)
        return _data_page(request, problems=error.problems, file_name=pending["name"], status=422)
    context = {"preview": _preview(request.user, games), "upload": {"token": pending["token"], "name": pending["name"]}}
    return render(request, "scoring/transfer.html", context)


def _no_place(request: HttpRequest, form: GameFileUploadForm, full: str) -> HttpResponse:
    """The upload form again, saying by its file field why the file cannot wait (``_keep``)."""
    if full == ACCOUNT_FULL:
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
def import_confirm(request: HttpRequest) -> HttpResponse:
    """Start adding the games of the waiting file (or, with ``cancel``, forget it): the first step."""
    pending = _pending_named(request)
    if "cancel" in request.POST:
        if pending is not None:
            _forget(request)
        return redirect("scoring:data")
    if pending is None:  # added already, cancelled, replaced by another upload, expired, or signed out since
        return _data_page(request, stale=True, status=409)
    if pending.get("done") is None:  # (else a second Add, from another tab: it goes on from where it stands)
        pending.update(done=0, added=0, skipped=0)
    return _import_step(request, pending)


@login_required
@require_POST
def import_continue(request: HttpRequest) -> HttpResponse:
    """The next step of adding the waiting file's games."""
    pending = _pending_named(request)
    if pending is None or pending.get("done") is None:
        return _data_page(request, stale=True, status=409)
    return _import_step(request, pending)


def _pending_named(request: HttpRequest) -> dict | None:
    """The waiting file, when the form names its token (an older page's form names another)."""
    pending = _waiting(request)
    token = request.POST.get("token", "")
    if pending is not None and secrets.compare_digest(token.encode(), pending["token"].encode()):
        return pending
    return None


def _import_step(request: HttpRequest, pending: dict) -> HttpResponse:
    """Store the next ``IMPORT_STEP`` games of the waiting file; answer with the progress, or,
    once every game is done, forget the file and go back to the data page (which says what the
    import as a whole added: the file's games the account has stored since it was sent, by this
    step or another, another tab's included). The file is checked whole again by the first step;
    a later one checks its own games as it reads them."""
    start = pending["done"]
    try:
        if start == 0:  # the whole file checked again before anything is stored
            parse_document(pending["text"])
        document = json.loads(pending["text"])
        games = document["games"]
        step = read_document({**document, "games": games[start : start + IMPORT_STEP]})
    except GameFileError as error:
        _forget(request)
        return _data_page(request, problems=error.problems, file_name=pending["name"], status=422)
    result = services.games_import(step, owner=request.user)
    pending.update(
        done=start + len(step),
        total=len(games),
        added=pending["added"] + result.added,
        skipped=pending["skipped"] + result.skipped,
    )
    if pending["done"] < len(games):
        request.session[SESSION_UPLOAD] = {key: value for key, value in pending.items() if key != "text"}
        if request.htmx:
            return _progress_page(request, pending)
        return redirect("scoring:import")  # the progress, as a page a reload or Back shows again
    _forget(request)
    since = datetime.fromisoformat(pending["since"])
    added = selectors.games_added_since(request.user, read_document(document), since)
    request.session[SESSION_DONE] = {"added": added, "skipped": len(games) - added, "name": pending["name"]}
    if request.htmx:
        return HttpResponseClientRedirect(reverse("scoring:data"))
    return redirect("scoring:data")


def _progress_page(request: HttpRequest, pending: dict) -> HttpResponse:
    """How far adding the waiting file has come: the whole page, or its progress for htmx."""
    importing = {key: value for key, value in pending.items() if key != "text"}
    template = "scoring/transfer.html#import-progress" if request.htmx else "scoring/transfer.html"
    return render(request, template, {"importing": importing})
