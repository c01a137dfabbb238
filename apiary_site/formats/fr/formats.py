"""French as the pages write it: Django's French formats, thousands grouped by a narrow no-break
space (« 1 500 », as French typography writes it and the pages' other spaces are), where
Django's is a no-break space."""

from django.conf.locale.fr.formats import *  # type: ignore[import-untyped]  # noqa: F403 (Django's, then ours)

THOUSAND_SEPARATOR = "\u202f"
