"""The address a phone at the table reaches: what a share link and its QR code carry.

A link is read on another device, so it must not name an address that only this machine
reaches. The owner of a laptop's table opens the pad at http://127.0.0.1:8000/ on the laptop
itself; 127.0.0.1 on a phone is the phone. So a link made from a loopback address carries the
laptop's address on the local network instead (settings.TABLE_URL, found by `make run`), and
a deployment's public address (settings.SITE_URL) overrides both, as a site behind a proxy
needs.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest
from django.http.request import split_domain_port


def only_here(host: str) -> bool:
    """Whether ``host`` (a request's host, without its port) names this machine to itself only:
    localhost, an address of 127.0.0.0/8 or ::1."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def address_for_phones(request: HttpRequest, path: str) -> str:
    """The absolute address of ``path`` (a path of this site, "/join/…/") as a phone at the
    table reaches it."""
    if settings.SITE_URL:
        return settings.SITE_URL + path
    host, _port = split_domain_port(request.get_host())
    if settings.TABLE_URL and only_here(host):
        return settings.TABLE_URL + path
    return request.build_absolute_uri(path)
