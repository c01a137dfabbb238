"""What every page tells the phone's scripts (templates/base.html)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from scoring.access import session_tag


def phone(request: HttpRequest) -> dict:
    """The session's tag (read only if a page shows it: ``access.session_tag``), under which the
    phone keeps this session's pages and unsaved values and forgets any other's; and the phone
    side's timing (settings: ``PAD_POLL_MS``, ``PAD_SAVE_PAUSE_MS``)."""
    return {
        "session_tag": SimpleLazyObject(lambda: session_tag(request)),
        "poll_ms": settings.PAD_POLL_MS,
        "save_pause_ms": settings.PAD_SAVE_PAUSE_MS,
    }
