"""A page's script modules: ``{% module_script "scoring/pad.js" %}`` loads one of the entries
(``scoring.web.bundles.ENTRIES``) and announces before it every module it imports (``<link
rel="modulepreload">``, from ``scoring.web.bundles``' import graph), so that a phone fetches them
side by side rather than one import after another; in production, the bundle that holds it and
the bundles that one imports (scoring/web/bundles.py). What is announced or loaded once on a
page is not again. ``{% inline_script "scoring/first-paint.js" %}`` writes a classic script into
the page, run where it stands without a request, allowed by the page's Content Security Policy
nonce."""

from __future__ import annotations

import json

from django import template
from django.templatetags.static import static
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from scoring.web.bundles import ENTRIES, bundle_of, bundled, bundles_imported_by, imports_of
from scoring.web.modules import inline_text

register = template.Library()


@register.simple_tag(takes_context=True)
def module_script(context, path: str) -> str:
    if path not in ENTRIES:  # (the bundles are made from the entries: scoring/web/bundles.py)
        raise ValueError(f"{path} is loaded by a page: add it to scoring.web.bundles.ENTRIES")
    if bundled():  # (production: the bundle that holds it, and the bundles that one imports)
        path = bundle_of(path)
        imported = bundles_imported_by(path)
    else:
        imported = imports_of(path)
    announced = context.render_context.setdefault("announced_modules", set())
    if path in announced:
        return ""
    preloads = [module for module in imported if module not in announced]
    announced.update(preloads)
    announced.add(path)
    links = format_html_join("", '<link rel="modulepreload" href="{}">', ((static(module),) for module in preloads))
    return format_html('{}<script type="module" src="{}"></script>', links, static(path))


@register.simple_tag(takes_context=True)
def inline_script(context, path: str) -> str:
    text = mark_safe(inline_text(path))  # (the site's own script, as collected: not text to escape)
    # (data-script: which file it is, as a reader of the page, or a test, would ask)
    return format_html('<script nonce="{}" data-script="{}">{}</script>', context.get("csp_nonce", ""), path, text)


# htmx's settings for every page that uses it (templates/htmx.html): no inline styles or eval (the
# site's CSP forbids them), no scripts in what it swaps; a poll that finds nothing (304) swaps
# nothing; an undo refused because the value moved (409) and bad input (422) are swapped, as they
# say why; the other errors are not; a hung request times out.
HTMX_CONFIG = {
    "includeIndicatorStyles": False,
    "allowEval": False,
    "allowScriptTags": False,
    "timeout": 10000,
    "responseHandling": [
        {"code": "204", "swap": False},
        {"code": "304", "swap": False},
        {"code": "[23]..", "swap": True},
        {"code": "409", "swap": True, "error": False},
        {"code": "422", "swap": True, "error": False},
        {"code": "[45]..", "swap": False, "error": True},
    ],
}


@register.simple_tag
def htmx_config() -> str:
    """htmx's settings, as its <meta name="htmx-config"> says them (``HTMX_CONFIG``)."""
    return format_html('<meta name="htmx-config" content="{}">', json.dumps(HTMX_CONFIG, separators=(",", ":")))
