"""What the log says: a refusal in one line, and never a secret, whoever writes it.

Django writes a line for every 4xx answer (``django.request``) and, for a refusal it meets as an
exception (a 403, a host not allowed, a body too big, too many fields: ``django.security.*``),
the whole traceback with it: a view-link holder tapping a field, or a scanner knocking with
another host name, would flood the log. A share link's address is its secret, and any line that
names the request's path ("Not Found: /join/<token>/", a database fault on that address) would
write it down; so would a password-reset link's, which sets a new password. ``RequestLogFilter``
sits on the settings' log handlers (``LOGGING``), so every logger's records pass it: it writes a
link's token as "…" (in the message and in a traceback), and keeps each refusal to its one line.
The server's own logs pass it too (``apiary_site/server.py``'s ``log_config``).
"""

from __future__ import annotations

import logging
import re

# A share link's token (/join/<token>/), and a password-reset link's (/accounts/reset/<uidb64>/<token>/,
# Django's: once opened, it sends the browser on to .../set-password/, which holds no secret).
_TOKEN = re.compile(r"(/join/|/accounts/reset/[^/\s'\"]+/)(?!set-password/)[^/\s'\"]+")
_TRACEBACK = logging.Formatter()  # (how a handler without a formatter of its own writes a traceback)


def without_tokens(text: str) -> str:
    """``text`` with every share link's token and password-reset link's token left out
    (``/join/…/``, ``/accounts/reset/MQ/…/``)."""
    return _TOKEN.sub(r"\1…", text)


def is_refusal(record: logging.LogRecord) -> bool:
    """Whether the record tells of a request refused (a 4xx answer), not of a fault of the site."""
    status = getattr(record, "status_code", None)
    return (status is not None and 400 <= status < 500) or record.name.startswith("django.security.")


# The filter as a logging configuration names it (the settings' LOGGING, the server's log_config).
FILTERS = {"request_log": {"()": "apiary_site.logs.RequestLogFilter"}}


class RequestLogFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # (arguments that do not fit: the handler says so, as logging does)
            return True
        if is_refusal(record):
            record.exc_info = record.exc_text = record.stack_info = None  # no traceback
            message = " ".join(message.splitlines())
        elif record.exc_info and not record.exc_text:
            record.exc_text = without_tokens(_TRACEBACK.formatException(record.exc_info))
        record.msg, record.args = without_tokens(message), ()
        return True
