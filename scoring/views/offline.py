"""The app at a table with poor signal: the service worker, and the pages a phone may keep.

The service worker (``templates/sw.js``) is served from the site's root, so that its scope is
every page. It keeps the app's static files, and a copy of each page marked ``keep_offline``
(the pads and the history) as the network last gave it, for as long as the session it was kept
in lasts; it shows that copy only when the network fails or is slow to answer
(``settings.PAD_NETWORK_WAIT_MS``), and the copy gives way to the live page as soon as the
server answers. Its version is a digest of itself and of the files it keeps: a deployment that
changes any of them is a new service worker, which the browser (never serving it from its HTTP
cache) installs on the next visit.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from datetime import datetime, timedelta
from functools import cache, wraps

from django.conf import settings
from django.contrib.staticfiles import finders
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.template import Engine
from django.template.loader import get_template
from django.templatetags.static import static
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from scoring.access import session_tag
from scoring.views.protocol import KEEP_HEADER, KEEP_UNTIL_HEADER, TAG_HEADER, say_session
from scoring.web.bundles import bundled, bundles
from scoring.web.modules import modules

# The static files a page needs, kept by the service worker so that a kept page opens offline:
# the stylesheets, htmx, the tab's icons and every module of the phone side.
KEPT_STATIC = (
    "scoring/app.css",
    "django_htmx/htmx-2.min.js",  # (templates/htmx.html: the htmx that django-htmx bundles)
    "django_htmx/django-htmx.js",
    "scoring/icons/icon.svg",  # (the tab's icon, and its PNG for browsers without SVG icons)
    "scoring/icons/icon-32.png",
    *modules(),
)


def kept_static() -> tuple[str, ...]:
    """``KEPT_STATIC`` as the pages load it: in production the modules' bundles in their stead
    (scoring/web/bundles.py). (The version is the digest of the sources: a bundle changes only
    with its modules.)"""
    if not bundled():
        return KEPT_STATIC
    sources = set(modules())
    return (*(path for path in KEPT_STATIC if path not in sources), *bundles())


def keep_offline(view):
    """Lets the service worker keep a copy of the page this view answers a GET with (a pad, the
    history), to open it offline while this session lasts; the page says, then, that it is a copy
    and of when. The session is given its tag first, so that the page carries it."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        # (a request without a session is given none: a page of nobody's is not kept)
        shown = request.method in ("GET", "HEAD")  # (HEAD: GET's answer without its body, tag included)
        tag = session_tag(request, create=shown and request.session.session_key is not None)
        response = view(request, *args, **kwargs)
        # (a session that ended during the view, its password changed elsewhere, keeps nothing)
        kept = getattr(response, "kept_offline", True)
        if shown and kept and response.status_code == 200 and tag and session_tag(request) == tag:
            response[KEEP_HEADER] = tag
            response[KEEP_UNTIL_HEADER] = str(int(_kept_until(request).timestamp()))
        return response

    return wrapper


def _kept_until(request: HttpRequest) -> datetime:
    """Until when a copy may open offline: the session's expiry, and at most
    ``OFFLINE_COPY_SECONDS`` from now (a session may end on another device, its password changed:
    the phone does not hear of it while offline)."""
    capped = timezone.now() + timedelta(seconds=settings.OFFLINE_COPY_SECONDS)
    return min(request.session.get_expiry_date(), capped)


def not_kept(response: HttpResponse) -> HttpResponse:
    """The page holds what no copy on the phone may (a share link's address): it is never kept
    offline, whatever ``keep_offline`` would do."""
    response.kept_offline = False  # type: ignore[attr-defined]  # (read by keep_offline)
    return response


def session_tag_header(get_response):
    """Every page says its session's tag (``protocol.TAG_HEADER``), so that the service worker forgets the
    copies of any other session before it shows or keeps anything (scoring/access.session_tag)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if response.get("Content-Type", "").startswith("text/html"):
            # (a page about the database being out of reach: it keeps no copy either)
            with contextlib.suppress(DatabaseError):
                say_session(response, request)
        return response

    return middleware


@cache
def _version() -> str:
    """A digest of the service worker's template and of the files it keeps, worked out once a
    process: a deployment that changes any of them is a new version."""
    digest = hashlib.sha256(Engine.get_default().get_template("sw.js").source.encode())
    for path in KEPT_STATIC:
        found = finders.find(path)
        if found:
            with open(found, "rb") as kept:
                digest.update(kept.read())
    return digest.hexdigest()[:16]


@never_cache  # the browser asks for it again on every visit (and registers it with updateViaCache "none")
@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    body = get_template("sw.js").render(
        {
            "static_urls_json": json.dumps([static(path) for path in kept_static()]),
            "keep_header": KEEP_HEADER,
            "until_header": KEEP_UNTIL_HEADER,
            "tag_header": TAG_HEADER,
            "network_wait_ms": int(settings.PAD_NETWORK_WAIT_MS),
            "version": _version(),
        }
    )
    return HttpResponse(body, content_type="text/javascript; charset=utf-8")
