"""The abuse limits' setting (``settings.RATE_LIMITS``, counted by ``scoring/web/limits.py``) as
the environment changes it, read in this one place when the settings load.

Every limit is one variable, ``RATE_LIMIT_<RULE>_<KIND>``, its rule and its kind in capitals
(``password_reset`` is ``PASSWORD_RESET``), whose value is how many requests in how many seconds,
or ``off``::

    RATE_LIMIT_SAVE_ADDRESS=20000/60        # 20,000 saves a minute from one address
    RATE_LIMIT_LOGIN_ACCOUNT=5/900          # 5 sign-in attempts per name in 15 minutes
    RATE_LIMIT_UPLOAD_USER=off              # no limit per account on sending game files

A variable may set a kind the default leaves out (``RATE_LIMIT_SIGNUP_SESSION=10/3600``); an
empty one leaves the default. A value not so written, or a name that is no rule's and kind's (a
typo would otherwise leave the limit as it was, unsaid), stops the site at start-up with
ImproperlyConfigured saying which and how to write it. ``RATE_LIMIT_PROXIES`` is not a limit
(how many proxies forward the client's address: settings.py reads it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from django.core.exceptions import ImproperlyConfigured

PREFIX = "RATE_LIMIT_"
NOT_LIMITS = frozenset({"RATE_LIMIT_PROXIES"})
# Whose requests a limit counts together (scoring/web/limits.py says how each is told).
KINDS = ("session", "user", "address", "account", "visitor")
OFF = "off"
_WRITTEN = re.compile(r"(?P<allowed>\d+)\s*/\s*(?P<seconds>\d+)")

Limits = dict[str, dict[str, tuple[int, int]]]


def variable(rule: str, kind: str) -> str:
    """The name of the variable that sets a rule's limit of a kind: RATE_LIMIT_SAVE_ADDRESS."""
    return f"{PREFIX}{rule}_{kind}".upper()


def limit_read(name: str, value: str) -> tuple[int, int] | None:
    """A variable's value as a limit: (requests, seconds), or None for ``off``."""
    written = value.strip()
    if written.lower() == OFF:
        return None
    match = _WRITTEN.fullmatch(written)
    if match is None or int(match["allowed"]) < 1 or int(match["seconds"]) < 1:
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a rate limit: write how many requests in how many seconds, "
            f"both whole numbers from 1, as {name}=12000/60 (12,000 a minute), or {name}=off for none."
        )
    return int(match["allowed"]), int(match["seconds"])


def rate_limits(defaults: Limits, environ: Mapping[str, str]) -> Limits:
    """``defaults`` with every limit the environment sets (``RATE_LIMIT_<RULE>_<KIND>``) in its
    place, and those it turns ``off`` left out. A variable that names no rule and kind, or
    whose value is not a limit, is an ImproperlyConfigured error."""
    names = {variable(rule, kind): (rule, kind) for rule in defaults for kind in KINDS}
    limits = {rule: dict(kinds) for rule, kinds in defaults.items()}
    for name in sorted(environ):
        if not name.startswith(PREFIX) or name in NOT_LIMITS:
            continue
        if name not in names:
            raise ImproperlyConfigured(
                f"{name} is not a rate limit's variable: the names are {PREFIX}<RULE>_<KIND>, RULE one of "
                f"{', '.join(rule.upper() for rule in defaults)} and KIND one of "
                f"{', '.join(kind.upper() for kind in KINDS)} (docs/operations.md, Rate limits)."
            )
        if not environ[name].strip():  # (set empty: the default, as the site's other variables)
            continue
        rule, kind = names[name]
        limit = limit_read(name, environ[name])
        if limit is None:
            limits[rule].pop(kind, None)
        else:
            limits[rule][kind] = limit
    return limits
