"""QR codes of share links, drawn on the server as inline SVG (segno), so a table-mate joins a
game by scanning the owner's phone. Dark modules on a white square, in light and dark mode alike,
so that every camera reads them."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(address: str, *, scale: int = 4) -> SafeString:
    """The QR code of ``address`` as an ``<svg>`` element (no style attribute: the CSP allows it)."""
    code = segno.make(address, error="m")
    # segno writes only its own markup and the address's modules: safe to put in the page as is.
    return mark_safe(
        code.svg_inline(scale=scale, dark="#000", light="#fff", svgclass="qr", lineclass=None, omitsize=True)
    )  # noqa: S308
