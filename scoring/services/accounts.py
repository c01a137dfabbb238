"""An account's own settings: the language it chose (applied at every sign-in:
scoring/views/preferences.py)."""

from __future__ import annotations

from scoring.models import LanguagePreference
from scoring.selectors.accounts import spoken_language


def account_language_set(user, language: str) -> None:
    """Remember ``language`` for the account (a language the site does not speak is ignored)."""
    if getattr(user, "is_authenticated", False) and spoken_language(language):
        LanguagePreference.objects.update_or_create(user=user, defaults={"language": language})
