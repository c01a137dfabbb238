"""The test suite's settings: the site's own in development mode, which the suite asks for as
``make dev`` does (DEBUG=true unless the environment says otherwise; pytest-django still runs
each test with DEBUG off). The site's settings default to production and refuse to load without
a key (apiary_site/settings.py); a test of production sets its own environment."""

import os

os.environ.setdefault("DEBUG", "true")

from apiary_site.settings import *  # noqa: E402, F403
