"""A database that refuses to write (a full disk, a read-only file, a server that went away) is met
with words: 503 and "cannot save right now", never a bare 500, and never Django's 400 when what
it refused was the session."""

from __future__ import annotations

import logging

from django.contrib.sessions import middleware as sessions
from django.contrib.sessions.exceptions import SessionInterrupted
from django.core.exceptions import ObjectNotUpdated
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.utils.log import log_response
from django.utils.translation import gettext as _

from scoring.web.refusals import refusal

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5


def database_refused(request: HttpRequest, fault: DatabaseError) -> HttpResponse:
    """The answer to a request whose write (or read) the database refused: for the pad's script
    (htmx) one sentence of plain text, which it shows while it keeps the typed value and tries
    again; for a page, ``503.html`` (which needs no database). One line in the log, saying why."""
    writing = request.method not in ("GET", "HEAD", "OPTIONS")
    message = (
        _(
            "The server cannot save right now: its database refuses to write. What you typed is kept; "
            "it is sent again in a moment."
        )
        if writing
        else _("The server cannot read its database right now. Try again in a moment.")
    )
    response = refusal(request, message, status=503, template="503.html", retry_after=RETRY_AFTER_SECONDS)
    # (log_response: the request log then writes no second line of its own for this answer)
    log_response(
        "The database refused %s %s: %s",
        request.method,
        request.path,
        str(fault),
        response=response,
        request=request,
        logger=logger,
    )
    return response


class DatabaseFaultMiddleware:
    """Turns a database error that escapes a view into ``database_refused``'s answer. Reads that
    the database can still answer are unaffected: only the request that met the error is answered so."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DatabaseError):
            return None
        return database_refused(request, exception)


def _refusal_behind(interrupted: SessionInterrupted) -> DatabaseError | None:
    """The database's refusal that made Django give up saving a session, if that is what it was.
    Django's database sessions turn any error of an update into ``SessionInterrupted`` ("the
    session was deleted before the request completed"); only a row found gone (the session ended
    meanwhile, signing out in another tab) really is one (the model's ``NotUpdated``)."""
    error = interrupted.__context__  # (the session store's UpdateError, raised while handling the fault)
    fault = error.__context__ if error is not None else None
    if isinstance(fault, DatabaseError) and not isinstance(fault, ObjectNotUpdated):
        return fault
    return None


class SessionMiddleware(sessions.SessionMiddleware):
    """Django's, except for a session the database refuses to save. The session is saved as the
    answer leaves, after ``DatabaseFaultMiddleware`` has let it go (Django's session middleware
    is outside it, as the accounts' middleware needs): without this, the choice a link's holder
    made would be lost with a 400 "too big or not understood" (an update) or a bare 500 (a new
    session). It is answered as any other write the database refuses, ``database_refused``."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        try:
            return super().process_response(request, response)
        except SessionInterrupted as interrupted:
            fault = _refusal_behind(interrupted)
            if fault is None:
                raise
            return database_refused(request, fault)
        except DatabaseError as fault:  # a new session, stored with an INSERT of its own
            return database_refused(request, fault)
