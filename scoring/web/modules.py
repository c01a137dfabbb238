"""The phone side's script modules (``.js`` under static/scoring/), as the staticfiles finders find
them, and what each imports: the service worker keeps every one (``views.offline.KEPT_STATIC``),
and a page announces at once every module its scripts import (``{% module_script %}``), so that
the browser fetches them side by side instead of finding them one import at a time."""

from __future__ import annotations

import re
from functools import cache
from pathlib import PurePath

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.apps import StaticFilesConfig

# A static import of a sibling module: `import { a } from "./a.js";`, `import "./a.js";`,
# `export { a } from "./a.js";` (the phone side imports only its siblings, by relative path).
_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"';]*?["']\./([\w.-]+\.js)["']""", re.MULTILINE)


def modules() -> tuple[str, ...]:
    """Every script of the phone side (its modules, and the pad's one classic script,
    first-paint.js): a new one is kept without anyone listing it."""
    ignored = StaticFilesConfig.ignore_patterns  # (what collectstatic leaves out)
    found = {PurePath(path).as_posix() for finder in finders.get_finders() for path, _storage in finder.list(ignored)}
    return tuple(sorted(path for path in found if path.startswith("scoring/") and path.endswith(".js")))


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
