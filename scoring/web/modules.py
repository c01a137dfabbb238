"""The phone side's scripts (``.js`` under static/scoring/), as the staticfiles finders find them:
its modules, which the service worker keeps (``views.offline.KEPT_STATIC``; what each imports is
scoring/web/bundles.py's ``graph``), each one's source (``source``), and the classic scripts a
page writes into itself (``{% inline_script %}``, ``INLINE_SCRIPTS``), as collected."""

from __future__ import annotations

from functools import cache
from pathlib import PurePath

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.apps import StaticFilesConfig
from django.contrib.staticfiles.storage import staticfiles_storage

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


def source(path: str) -> str:
    """The text of the static file ``path`` (e.g. "scoring/pad.js") as the finders find it."""
    found = finders.find(path)
    if not isinstance(found, str):
        raise FileNotFoundError(f"{path} is not among the static files")
    with open(found, encoding="utf-8") as text:
        return text.read()


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
        text = source(path)
    if "</script" in text.lower():  # (it would end the element it is written into)
        raise ValueError(f"{path} says </script, which would end the page's <script> element early")
    return text
