"""Abuse limits: how often a client may sign in, sign up, ask for a password reset, open a share
link, start a game, save a field or send a game file.

Each rule of ``settings.RATE_LIMITS`` allows at most N requests per period of S seconds (fixed
windows) for each kind of counter it names::

    RATE_LIMITS = {"save": {"session": (300, 60), "user": (1500, 60), "address": (15000, 60)}, ...}

- ``session``: per session, what one phone may do: its browser's own Django session, whether it
  is signed in (each phone an account is signed in on is its own), holds a share link (the
  session its holder was given on opening it) or scores as a visitor (the session that holds its
  visitor id); a request without a session is counted by its address alone;
- ``user``: per signed-in account, every session (phone) it is signed in on together: a ceiling
  above one phone's limit, for an account's phones at a table;
- ``address``: per client address (``client``), every phone behind it together: behind one
  address (a club's router) there may be a room of phones, so where a rule limits the session
  too, the address's limit is only a ceiling against a flood;
- ``account``: per account name typed (the user name typed into the sign-in form, counted per
  client it is typed from; the email typed into the password reset form);
- ``visitor``: per client address too, counting only the requests made without an account
  (visitors and share links' holders): what nobody answers for may be limited lower.

A rule or a kind missing from the setting is not limited (``RATE_LIMITS = {}`` turns every limit
off); each is set from the environment (``apiary_site/rate_limits.py``). The counters live in a
table of the database (``RateCounter``), so every worker and every server of the site shares
them, and counting one request, for every kind at once, is one statement. A request over a
limit answers 429 with a ``Retry-After`` header: the page ``429.html`` with the reason, or for
the pad's script the reason as one sentence of plain text.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import random
import time
from dataclasses import dataclass
from functools import cache, wraps

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring.models import RateCounter
from scoring.web.refusals import refusal

logger = logging.getLogger(__name__)

SESSION = "session"
USER = "user"
ADDRESS = "address"
ACCOUNT = "account"
VISITOR = "visitor"
NO_ADDRESS = "no address"  # the one counter of the requests with neither an address nor a session

# Why a request was refused, for each rule (by its address, or the account named); %(wait)s is
# "3 minutes", "40 seconds".
MESSAGES = {
    "login": _("Too many sign-in attempts from your connection or for this account. Wait %(wait)s, then try again."),
    "signup": _("Too many new accounts from your connection. Wait %(wait)s, then try again."),
    "password_reset": _(
        "Too many password reset requests from your connection or for this email address. "
        "Wait %(wait)s, then try again."
    ),
    "join": _(
        "Too many game links opened from your network, counting every phone on it. Wait %(wait)s, then try again."
    ),
    "save": _("Too many saves from your network, counting every phone on it. Wait %(wait)s, then save again."),
    "start": _("Too many games started from your network, counting every phone on it. Wait %(wait)s, then try again."),
    "upload": _("Too many game files sent from your connection. Wait %(wait)s, then send the file again."),
    "import": _(
        "Too many imports started from your connection. Wait %(wait)s, then add the games again: "
        "those added already are kept."
    ),
}
DEFAULT_MESSAGE = _("Too many requests from your connection. Wait %(wait)s, then try again.")
# ... and by the session's own counter.
SESSION_MESSAGES = {
    "join": _("Too many game links opened from this phone. Wait %(wait)s, then try again."),
    "save": _("Too many saves from this phone. Wait %(wait)s, then save again."),
    "start": _("Too many games started from this phone. Wait %(wait)s, then try again."),
}
DEFAULT_SESSION_MESSAGE = _("Too many requests from this phone. Wait %(wait)s, then try again.")
# ... and by the signed-in account's counter, over every phone it is signed in on.
USER_MESSAGES = {
    "save": _("Too many saves from this account’s phones together. Wait %(wait)s, then save again."),
    "upload": _("Too many game files sent from this account. Wait %(wait)s, then send the file again."),
    "import": _(
        "Too many imports started from this account. Wait %(wait)s, then add the games again: "
        "those added already are kept."
    ),
}
DEFAULT_USER_MESSAGE = _("Too many requests from this account’s phones together. Wait %(wait)s, then try again.")
# ... and by the counter of the requests without an account from the address.
VISITOR_MESSAGES = {
    "start": _(
        "Too many games started without an account from your network, counting every phone on it. "
        "Wait %(wait)s, then try again, or sign in: an account’s games are counted apart."
    ),
}


# The IPv6 block a home is given by its provider (RIPE-690 recommends a /56; a /64 is one
# network of it, and a household may use several): what one client's addresses are counted by.
IPV6_HOME_PREFIX = 56


def client_address(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or behind ``RATE_LIMIT_PROXIES`` trusted reverse
    proxies (each appending the address it was reached from to X-Forwarded-For) the address the
    outermost of them saw. An IPv6 address counts as the block a home is given
    (``IPV6_HOME_PREFIX``), as an IPv4 home's devices share its one address behind its router:
    one household's devices, each on a /64 of its block, are one client, never eleven."""
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
        return str(ipaddress.ip_network(f"{parsed}/{IPV6_HOME_PREFIX}", strict=False))
    return str(parsed)


def session_of(request: HttpRequest) -> str:
    """The session a request comes from, for the per-session counters: its key, the phone's own
    whoever uses it (a signed-in account's phones are each their own session; ``user_of`` counts
    them together); "" for a request without one (no session cookie, or one the server does not
    hold)."""
    session = getattr(request, "session", None)
    # Read first: a key the server does not hold (a cookie made up, or expired) is dropped then.
    if session is None or not session.items() or not session.session_key:
        return ""
    return f"session {session.session_key}"


def user_of(request: HttpRequest) -> str:
    """The signed-in account a request comes from, for the per-account counters (every phone it is
    signed in on together); "" for a request signed in to none."""
    user = getattr(request, "user", None)
    return f"account {user.pk}" if user is not None and user.is_authenticated else ""


def client(request: HttpRequest) -> str:
    """Whom the per-address counters count the request for: its address (``client_address``).
    Without one (a server on a unix socket behind a proxy that ``RATE_LIMIT_PROXIES`` does not
    declare, or that did not say), its session stands in (``session_of``), and the requests with
    neither share one counter: a limit is never off for want of an address (such a site's
    strangers then wait on one another; the log says how to give it the addresses)."""
    address = client_address(request)
    if address:
        return address
    _say_address_unknown()
    return session_of(request) or NO_ADDRESS


@cache
def _say_address_unknown() -> None:
    logger.warning(
        "A request came without its client's address (REMOTE_ADDR is empty: a server on a unix socket?): "
        "the rate limits count it per session. Behind a proxy that sends X-Forwarded-For, set "
        "RATE_LIMIT_PROXIES (said once per process)"
    )


def _limit(rule: str, kind: str) -> tuple[int, int] | None:
    limit = getattr(settings, "RATE_LIMITS", {}).get(rule, {}).get(kind)
    return (int(limit[0]), int(limit[1])) if limit else None


# One statement counts a request, for every kind at once: each window's row is made, counted on,
# or started again when its window is over (SQLite 3.35+ and PostgreSQL both take
# INSERT ... ON CONFLICT ... RETURNING, and several rows in one).
_COUNT = """
    INSERT INTO {table} (name, "window", hits, expires) VALUES {rows}
    ON CONFLICT (name) DO UPDATE SET
        hits = CASE WHEN {table}."window" = excluded."window" THEN {table}.hits + excluded.hits ELSE excluded.hits END,
        "window" = excluded."window",
        expires = excluded.expires
    RETURNING name, hits
"""
SWEEP_EVERY = 1000  # about once in so many counts, the rows of windows over are deleted


def count(rule: str, counted: dict[str, str], hits: int = 1) -> dict[str, int]:
    """Count one request (or ``hits``: the values one form post saves) under the rule for each kind
    of counter it limits (``counted``: kind -> who, an address, a session, an account name; an
    empty one is not counted), all in one statement. The seconds until its window ends, for each
    kind over its limit (none: {})."""
    now = time.time()
    rows = []
    for kind, who in counted.items():
        limit = _limit(rule, kind)
        if limit is None or not who:
            continue
        allowed, period = limit
        window = int(now // period)
        digest = hashlib.sha256(who.encode()).hexdigest()[:32]  # any text makes a valid, short name
        rows.append((f"{rule}:{kind}:{period}:{digest}", window, (window + 1) * period, kind, who, allowed))
    if not rows:
        return {}
    rows.sort()  # by name: requests counted at once take the rows' locks in one order (PostgreSQL)
    with connection.cursor() as cursor:
        cursor.execute(
            _COUNT.format(
                table=connection.ops.quote_name(RateCounter._meta.db_table),
                rows=", ".join(["(%s, %s, %s, %s)"] * len(rows)),
            ),
            [value for name, window, ends, *_ in rows for value in (name, window, hits, ends)],
        )
        counts = dict(cursor.fetchall())
    if random.randrange(SWEEP_EVERY) == 0:
        RateCounter.objects.filter(expires__lt=now).delete()
    waits = {}
    for name, _window, ends, kind, who, allowed in rows:
        if counts[name] > allowed:
            waits[kind] = max(1, math.ceil(ends - now))
            if counts[name] - hits <= allowed:  # said once a window; Django logs each 429 answer besides
                logger.warning(
                    "Rate limit %r (%s) reached by %s: refused for %d s", rule, kind, _shown(kind, who), waits[kind]
                )
    return waits


def _shown(kind: str, who: str) -> str:
    """Who reached a limit, for the log: an address, never a session's key or an account's name."""
    if kind in (ADDRESS, VISITOR):
        try:
            return str(ipaddress.ip_network(who, strict=False))
        except ValueError:
            return "a client without an address"
    return {ACCOUNT: "an account name", USER: "a signed-in account"}.get(kind, f"a {kind}")


def counters_clear() -> None:
    """Every counter back to nothing (tests, or after changing the limits)."""
    RateCounter.objects.all().delete()


def wait_text(seconds: int) -> str:
    if seconds <= 90:
        return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}
    minutes = math.ceil(seconds / 60)
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


@dataclass(frozen=True)
class Refused:
    """A request over a limit: under which rule, whose counter (``kind``), and for how long."""

    rule: str
    kind: str
    retry_after: int

    @property
    def message(self) -> str:
        """Why, in words: whose counter is over (this phone's, this account's phones together, or
        the connection's), and how long to wait."""
        if self.kind == SESSION:
            message = SESSION_MESSAGES.get(self.rule, DEFAULT_SESSION_MESSAGE)
        elif self.kind == USER:
            message = USER_MESSAGES.get(self.rule, DEFAULT_USER_MESSAGE)
        elif self.kind == VISITOR:
            message = VISITOR_MESSAGES.get(self.rule, MESSAGES.get(self.rule, DEFAULT_MESSAGE))
        else:
            message = MESSAGES.get(self.rule, DEFAULT_MESSAGE)
        return str(message) % {"wait": wait_text(self.retry_after)}


def refused(request: HttpRequest, over: Refused) -> HttpResponse:
    """The 429 answer: a page in the site's style, or one sentence of plain text for htmx."""
    return refusal(request, over.message, status=429, template="429.html", retry_after=over.retry_after)


def over_limit(request: HttpRequest, rule: str, account: str | None = None, hits: int = 1) -> Refused | None:
    """Count the request (``hits`` times: one a value a form post saves) under the rule: per
    session, per signed-in account, per client, per client without an account, and per account
    name (when given, case and surrounding spaces ignored), for the kinds the rule limits; what
    is over its limit (the longest wait), else None."""
    counted = {ADDRESS: client(request)}
    if _limit(rule, SESSION):
        counted[SESSION] = session_of(request)
    if _limit(rule, USER):
        counted[USER] = user_of(request)
    if _limit(rule, VISITOR) and not user_of(request):
        counted[VISITOR] = counted[ADDRESS]
    if account is not None:
        counted[ACCOUNT] = account.strip().casefold()
    waits = count(rule, counted, hits)
    if not waits:
        return None
    kind = max(waits, key=waits.__getitem__)
    return Refused(rule, kind, waits[kind])


def check(request: HttpRequest, rule: str, account: str | None = None) -> HttpResponse | None:
    """Count the request under the rule (``over_limit``): the 429 answer when it is over a limit, else None."""
    over = over_limit(request, rule, account)
    return None if over is None else refused(request, over)


def rate_limit(rule: str, *, methods: tuple[str, ...] | None = None):
    """Limit a view under ``rule`` (only the requests of ``methods``, when given). Put it above the
    view's other decorators, so that a refused request costs nothing."""

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
