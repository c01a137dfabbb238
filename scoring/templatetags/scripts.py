"""A page's script modules: ``{% module_script "scoring/pad.js" %}`` loads the module, and
announces before it every module it imports (``<link rel="modulepreload">``, from
``scoring.web.modules``, the list the service worker keeps), so that a phone fetches them all at once
rather than one import after another. A module announced or loaded once on a page is not again."""

from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import format_html, format_html_join

from scoring.web.modules import imports_of

register = template.Library()


@register.simple_tag(takes_context=True)
def module_script(context, path: str) -> str:
    announced = context.render_context.setdefault("announced_modules", set())
    preloads = [module for module in imports_of(path) if module not in announced]
    announced.update(preloads)
    announced.add(path)
    links = format_html_join("", '<link rel="modulepreload" href="{}">', ((static(module),) for module in preloads))
    return format_html('{}<script type="module" src="{}"></script>', links, static(path))
