"""The static files as production serves them: WhiteNoise's, compressed ahead and named by their
content's hash, so that a browser may keep each for a year."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's storage, with the imports of the phone side's ES modules (static/scoring/)
    rewritten to the hashed names too (Django's own rewriting, off unless asked for): a module
    imports exactly the version collected with it, and the service worker, which keeps the hashed
    names (scoring/views/offline.py), has every module a kept page imports when offline."""

    support_js_module_import_aggregation = True
