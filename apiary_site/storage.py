"""The static files as production serves them: WhiteNoise's, compressed ahead and named by their
content's hash, so that a browser may keep each for a year; the site's own scripts and
stylesheets minified first (issue 51: a fifth of the modules' lines were comments, sent to every
phone), by kept Python minifiers (rjsmin, rcssmin: no Node at deploy time)."""

from __future__ import annotations

from pathlib import PurePosixPath

from django.core.files.base import ContentFile
from rcssmin import cssmin
from rjsmin import jsmin
from whitenoise.storage import CompressedManifestStaticFilesStorage

from scoring.web.bundles import bundle_text, bundles

# What is minified, by suffix: the site's own files only (static/scoring/), never a library's
# (htmx comes minified from django-htmx).
MINIFIERS = {".js": jsmin, ".css": cssmin}
OWN = "scoring/"


def minified(path: str, content: bytes) -> bytes:
    """The file's content as sent: minified when it is one of the site's scripts or stylesheets."""
    minify = MINIFIERS.get(PurePosixPath(path).suffix)
    if minify is None or not path.startswith(OWN):
        return content
    return minify(content.decode("utf-8")).encode("utf-8")


class MinifiedSource:
    """A source of collectstatic (a finder's storage) whose scripts and stylesheets read minified:
    the manifest then hashes, rewrites and stores what is sent."""

    def __init__(self, storage):
        self.storage = storage

    def open(self, path: str, mode: str = "rb"):
        with self.storage.open(path, mode) as original:
            return ContentFile(minified(path, original.read()), name=path)

    def __getattr__(self, name: str):
        return getattr(self.storage, name)


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's storage, with the imports of the phone side's ES modules (static/scoring/)
    rewritten to the hashed names too (Django's own rewriting, off unless asked for): a module
    imports exactly the version collected with it, and the service worker, which keeps the hashed
    names (scoring/views/offline.py), has every module a kept page imports when offline. Each
    script and stylesheet of the site is read minified (``MinifiedSource``) before it is hashed. The
    modules' bundles (scoring/web/bundles.py), which the pages load in production, are written
    beside them first, and hashed and minified as they are."""

    support_js_module_import_aggregation = True
    bundles_modules = True  # (scoring.web.bundles.bundled: pages load the bundles)

    def post_process(self, paths, dry_run=False, **options):
        sources = {name: (MinifiedSource(storage), path) for name, (storage, path) in paths.items()}
        if not dry_run:
            for bundle in bundles():  # (written as collected, then hashed and minified as the modules are)
                if self.exists(bundle):
                    self.delete(bundle)
                self.save(bundle, ContentFile(bundle_text(bundle).encode("utf-8")))
                sources[bundle] = (MinifiedSource(self), bundle)
        yield from super().post_process(sources, dry_run, **options)
