"""Times in the phone's own time zone: every time a person reads (who finished the game and when,
today's date on the start form, a backup's name aside) is written in the zone the phone's browser
says it is in (``Intl``'s zone, kept in the ``TIME_ZONE_COOKIE`` by the head script of
templates/base.html), else in the site's (``settings.TIME_ZONE``, from the environment). A zone
the cookie names that the time-zone database does not know is ignored."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from urllib.parse import unquote
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.http import HttpRequest, HttpResponseBase
from django.utils import timezone

TIME_ZONE_COOKIE = "tz"
MAX_ZONE_LENGTH = 64  # the longest zone name is about 30 characters


@lru_cache(maxsize=256)
def known_zone(name: str) -> ZoneInfo | None:
    """The time zone of that name (an IANA name, "Europe/Paris"), or None when there is none."""
    if not name or len(name) > MAX_ZONE_LENGTH:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):  # (ValueError: a name that is no key, "../x")
        return None


def phone_time_zone(get_response: Callable[[HttpRequest], HttpResponseBase]):
    """Activate the phone's time zone for the request (``timezone.activate``), or the site's."""

    def middleware(request: HttpRequest) -> HttpResponseBase:
        zone = known_zone(unquote(request.COOKIES.get(TIME_ZONE_COOKIE, "")))  # (the script encodes its "/")
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return get_response(request)
        finally:
            timezone.deactivate()

    return middleware
