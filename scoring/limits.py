"""Abuse limits: how often one client address, and one account name, may sign in, sign up, ask
for a password reset, open a share link or save a field.

Each rule of ``settings.RATE_LIMITS`` allows at most N requests per period of S seconds (fixed
windows), per client address and, where the request names one, per account (the user name typed
into the sign-in form, counted per address it is typed from; the email address typed into the
password reset form)::

    RATE_LIMITS = {"login": {"address": (30, 900), "account": (10, 900)}, ...}

A rule or a kind missing from the setting is not limited (``RATE_LIMITS = {}`` turns every limit
off). The counters live in a table of the database (``RateCounter``), so every worker and every
server of the site shares them, and counting one request is one statement. A request over a limit answers 429 with a
``Retry-After`` header: the page ``429.html`` with the reason, or for htmx (``HX-Request``) the
reason as one sentence of plain text.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import random
import time
from functools import wraps

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring.models import RateCounter
from scoring.refusals import refusal

logger = logging.getLogger(__name__)

ADDRESS = "address"
ACCOUNT = "account"

# Why a request was refused, for each rule; %(wait)s is "3 minutes", "40 seconds".
MESSAGES = {
    "login": _("Too many sign-in attempts from your connection or for this account. "
               "Wait %(wait)s, then try again."),
    "signup": _("Too many new accounts from your connection. Wait %(wait)s, then try again."),
    "password_reset": _("Too many password reset requests from your connection or for this email address. "
                        "Wait %(wait)s, then try again."),
    "join": _("Too many game links opened from your connection. Wait %(wait)s, then try again."),
    "save": _("Too many saves from your connection. Wait %(wait)s, then save again."),
    "upload": _("Too many game files sent from your connection. Wait %(wait)s, then send the file again."),
    "import": _("Too many imports started from your connection. Wait %(wait)s, then add the games again: "
                "those added already are kept."),
}
DEFAULT_MESSAGE = _("Too many requests from your connection. Wait %(wait)s, then try again.")


def client_address(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or behind ``RATE_LIMIT_PROXIES`` trusted reverse
    proxies (each appending the address it was reached from to X-Forwarded-For) the address the
    outermost of them saw. An IPv6 address counts as its /64 network (what one client holds)."""
    address = request.META.get("REMOTE_ADDR", "")
    proxies = getattr(settings, "RATE_LIMIT_PROXIES", 0)
    if proxies:
        forwarded = [item.strip() for item in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if item.strip()]
        if len(forwarded) >= proxies:
            address = forwarded[-proxies]
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6:
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _limit(rule: str, kind: str) -> tuple[int, int] | None:
    limit = getattr(settings, "RATE_LIMITS", {}).get(rule, {}).get(kind)
    return (int(limit[0]), int(limit[1])) if limit else None


# One statement counts a request: the window's row is made, counted on, or started again when
# its window is over (SQLite 3.35+ and PostgreSQL both take INSERT ... ON CONFLICT ... RETURNING).
_COUNT = """
    INSERT INTO {table} (name, "window", hits, expires) VALUES (%s, %s, 1, %s)
    ON CONFLICT (name) DO UPDATE SET
        hits = CASE WHEN {table}."window" = excluded."window" THEN {table}.hits + 1 ELSE 1 END,
        "window" = excluded."window",
        expires = excluded.expires
    RETURNING hits
"""
SWEEP_EVERY = 1000  # about once in so many counts, the rows of windows over are deleted


def hit(rule: str, kind: str, who: str) -> int:
    """Count one request of ``who`` (an address, an account name) under the rule: 0 while it is
    within the limit, else the seconds until its window ends. One statement."""
    limit = _limit(rule, kind)
    if limit is None or not who:
        return 0
    allowed, period = limit
    now = time.time()
    window = int(now // period)
    ends = (window + 1) * period
    remaining = max(1, math.ceil(ends - now))
    digest = hashlib.sha256(who.encode()).hexdigest()[:32]  # any text makes a valid, short name
    with connection.cursor() as cursor:
        cursor.execute(_COUNT.format(table=connection.ops.quote_name(RateCounter._meta.db_table)),
                       [f"{rule}:{kind}:{period}:{digest}", window, ends])
        count = cursor.fetchone()[0]
    if random.randrange(SWEEP_EVERY) == 0:
        RateCounter.objects.filter(expires__lt=now).delete()
    if count == allowed + 1:  # said once a window; Django logs each 429 answer besides
        logger.warning("Rate limit %r (%s) reached by %s: refused for %d s", rule, kind,
                       who if kind == ADDRESS else "an account", remaining)
    return remaining if count > allowed else 0


def counters_clear() -> None:
    """Every counter back to nothing (tests, or after changing the limits)."""
    RateCounter.objects.all().delete()


def wait_text(seconds: int) -> str:
    if seconds <= 90:
        return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}
    minutes = math.ceil(seconds / 60)
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


def refused(request: HttpRequest, rule: str, retry_after: int) -> HttpResponse:
    """The 429 answer: a page in the site's style, or one sentence of plain text for htmx."""
    message = str(MESSAGES.get(rule, DEFAULT_MESSAGE)) % {"wait": wait_text(retry_after)}
    return refusal(request, message, status=429, template="429.html", retry_after=retry_after)


def check(request: HttpRequest, rule: str, account: str | None = None) -> HttpResponse | None:
    """Count the request under the rule, per client address and per account (when given, case
    and surrounding spaces ignored); the 429 answer when either is over its limit, else None."""
    waits = [hit(rule, ADDRESS, client_address(request))]
    if account is not None:
        waits.append(hit(rule, ACCOUNT, account.strip().casefold()))
    wait = max(waits)
    return refused(request, rule, wait) if wait else None


def rate_limit(rule: str, *, methods: tuple[str, ...] | None = None):
    """Limit a view per client address under ``rule`` (only the requests of ``methods``, when
    given). Put it above the view's other decorators, so that a refused request costs nothing."""

    def decorate(view):
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs):
            if methods is None or request.method in methods:
                refusal = check(request, rule)
                if refusal is not None:
                    return refusal
            return view(request, *args, **kwargs)

        return wrapper

    return decorate

