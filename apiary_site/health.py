"""``/healthz``: whether this server can answer, for a load balancer or a process supervisor."""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.log import log_response
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """200 when the database answers (one row read), 503 when it does not. A small template:
    the benchmark's baseline too, "a page that reads one row and renders a small template"."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as fault:
        # One line a check, saying why (no traceback: a load balancer asks every few seconds while it lasts).
        response = render(request, "healthz.txt", {"ok": False}, content_type="text/plain; charset=utf-8", status=503)
        log_response(
            "healthz: the database does not answer: %s", str(fault), response=response, request=request, logger=logger
        )
        return response
    return render(request, "healthz.txt", {"ok": True}, content_type="text/plain; charset=utf-8")
