"""The app installed on a phone's home screen: its web app manifest (its name, its icons, its
colours and the page it opens on), in the language of the request, as every page is.

Every page links it (templates/base.html). The icons are drawn from the SVGs of
static/scoring/icons/ by scripts/icons.py. No service worker here: the manifest alone is what a
phone reads to offer "Install" or "Add to Home screen".
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

# The light theme's background (static/scoring/app.css --bg, the theme-color of templates/base.html):
# the splash screen while the app opens, and its title bar. A manifest has one colour; the pages'
# own theme-color metas still give the dark theme's when the phone is dark.
BACKGROUND = "#f6f1e4"
# (file, size in pixels, purpose): the sizes phones ask for, whole ("any") and for a mask.
ICONS = [
    ("scoring/icons/icon-192.png", 192, "any"),
    ("scoring/icons/icon-512.png", 512, "any"),
    ("scoring/icons/icon-maskable-192.png", 192, "maskable"),
    ("scoring/icons/icon-maskable-512.png", 512, "maskable"),
]


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    """The manifest in the language its address names (``?lang=fr``: every page links the one of
    its own language, templates/base.html), else in the request's (the language cookie or
    Accept-Language, so the answer varies with both). Kept an hour."""
    named = request.GET.get("lang", "")
    if named in dict(settings.LANGUAGES):
        with translation.override(named):
            return _manifest()
    response = _manifest()
    patch_vary_headers(response, ["Cookie", "Accept-Language"])
    return response


def _manifest() -> HttpResponse:
    """The manifest in the active language, kept an hour."""
    home = reverse("scoring:history")
    document = {
        "id": home,
        "name": gettext("Apiary Scorepad"),
        "short_name": gettext("Apiary"),
        "description": gettext(
            "Score your Apiary games on your phone: the subtotals, the comb majorities and "
            "the ranking update as you type."
        ),
        "lang": translation.get_language(),
        "dir": "rtl" if translation.get_language_bidi() else "ltr",
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": BACKGROUND,
        "icons": [
            {"src": static(path), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
            for path, size, purpose in ICONS
        ],
    }
    response = JsonResponse(
        document, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )
    patch_cache_control(response, max_age=60 * 60)
    return response
