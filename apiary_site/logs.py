"""What the request log says of a refusal: one line, and never a secret.

Django's ``django.request`` logger writes a line for every 4xx answer, and for a 403 the whole
traceback of the refusal: a view-link holder tapping a field would flood the log. A share link's
address is its secret, and a 404 of one ("Not Found: /join/<token>/") would write it down.
``RequestLogFilter`` (settings.LOGGING) keeps each of those records to its one line and writes a
share link's token as "…".
"""

from __future__ import annotations

import logging
import re

_TOKEN = re.compile(r"(/join/)[^/\s]+")


def without_tokens(text: str) -> str:
    """``text`` with every share link's token left out (``/join/…/``)."""
    return _TOKEN.sub(r"\1…", text)


class RequestLogFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is not None and 400 <= status < 500:
            record.exc_info = None  # a refusal is not an error of the site: no traceback
            record.exc_text = None
        record.msg = without_tokens(str(record.msg))
        if isinstance(record.args, tuple):
            record.args = tuple(without_tokens(arg) if isinstance(arg, str) else arg for arg in record.args)
        return True
