"""WSGI entry point: the site's server runs it behind its front (``apiary_site/server.py``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "apiary_site.settings")

application = get_wsgi_application()
