"""A database that refuses to write (a full disk, a read-only file, a server that went away) is met
with words: 503 and "cannot save right now", never a bare 500."""

from __future__ import annotations

import logging

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from scoring.refusals import refusal

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5


class DatabaseFaultMiddleware:
    """Turns a database error that escapes a view into a 503 in the site's words: for the pad's
    script (htmx) one sentence of plain text, which it shows while it keeps the typed value and
    tries again; for a page, ``503.html`` (which needs no database). Reads that the database can
    still answer are unaffected: only the request that met the error is answered so."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DatabaseError):
            return None
        logger.error("The database refused %s %s: %s", request.method, request.path, exception)
        writing = request.method not in ("GET", "HEAD", "OPTIONS")
        message = (_("The server cannot save right now: its database refuses to write. What you typed is kept; "
                     "it is sent again in a moment.") if writing else
                   _("The server cannot read its database right now. Try again in a moment."))
        return refusal(request, message, status=503, template="503.html", retry_after=RETRY_AFTER_SECONDS)
