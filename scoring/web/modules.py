"""The phone side's script modules (``.js`` under static/scoring/), as the staticfiles finders find
them, and what each imports: the service worker keeps every one (``views.offline.KEPT_STATIC``),
and a page announces at once every module its scripts import (``{% module_script %}``), so that
the browser fetches them side by side instead of finding them one import at a time. And the
classic scripts a page writes into itself (``{% inline_script %}``, ``INLINE_SCRIPTS``), as
collected."""

from __future__ import annotations

import re
from functools import cache
from pathlib import PurePath

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.apps import StaticFilesConfig
from django.contrib.staticfiles.storage import staticfiles_storage

# A static import of a sibling module: `import { a } from "./a.js";`, `import "./a.js";`,
# `export { a } from "./a.js";` (the phone side imports only its siblings, by relative path).
_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"';]*?["']\./([\w.-]+\.js)["']""", re.MULTILINE)

# The classic scripts a page runs where they stand, written into it rather than fetched (issue 51:
# a parser-blocking request held a slow phone's first paint of the pad by a round trip): the pad's
# first-paint.js. Not kept by the service worker: the page it is part of is.
INLINE_SCRIPTS = frozenset({"scoring/first-paint.js"})


def modules() -> tuple[str, ...]:
    """Every module of the phone side (but ``INLINE_SCRIPTS``): a new one is kept without anyone
    listing it."""
    ignored = StaticFilesConfig.ignore_patterns  # (what collectstatic leaves out)
    found = {PurePath(path).as_posix() for finder in finders.get_finders() for path, _storage in finder.list(ignored)}
    return tuple(
        sorted(
            path
            for path in found
            if path.startswith("scoring/") and path.endswith(".js") and path not in INLINE_SCRIPTS
        )
    )


@cache
def inline_text(path: str) -> str:
    """The text of one of ``INLINE_SCRIPTS`` as the static files serve it: as collected (minified)
    where collectstatic has run, else its source (development)."""
    if path not in INLINE_SCRIPTS:
        raise ValueError(f"{path} is not one of the scripts a page writes into itself (INLINE_SCRIPTS)")
    if hasattr(staticfiles_storage, "stored_name"):  # (production's storage: the collected file)
        with staticfiles_storage.open(staticfiles_storage.stored_name(path)) as collected:
            text = collected.read().decode("utf-8")
    else:
        found = finders.find(path)
        if not isinstance(found, str):
            raise FileNotFoundError(f"{path} is not among the static files")
        with open(found, encoding="utf-8") as source:
            text = source.read()
    if "</script" in text.lower():  # (it would end the element it is written into)
        raise ValueError(f"{path} says </script, which would end the page's <script> element early")
    return text


@cache
def imports_of(path: str) -> tuple[str, ...]:
    """Every module ``path`` (e.g. "scoring/pad.js") imports, directly or through another, in the
    order they are first met; each is one of ``modules()``."""
    seen: list[str] = []
    waiting = [path]
    while waiting:
        module = waiting.pop(0)
        found = finders.find(module)
        if not isinstance(found, str):
            raise FileNotFoundError(f"{module}, imported by a module of {path}'s, is not among the static files")
        with open(found, encoding="utf-8") as source:
            text = source.read()
        for name in _IMPORT.findall(text):
            imported = f"{PurePath(module).parent.as_posix()}/{name}"
            if imported != path and imported not in seen:
                seen.append(imported)
                waiting.append(imported)
    return tuple(seen)
