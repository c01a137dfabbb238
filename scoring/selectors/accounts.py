"""An account's language."""

from __future__ import annotations

from django.conf import settings

from scoring.models import (
    LanguagePreference,
)


def spoken_language(code: str | None) -> str | None:
    """``code`` when it is one of the site's languages (settings.LANGUAGES), else None."""
    codes = {language for language, _name in settings.LANGUAGES}
    return code if code in codes else None


def account_language(user) -> str | None:
    """The language the account chose, or None when it never chose one."""
    if not getattr(user, "is_authenticated", False):
        return None
    preference = LanguagePreference.objects.filter(user=user).values_list("language", flat=True).first()
    return spoken_language(preference)
