"""An account's own settings: the language it chose (applied at every sign-in:
scoring/views/preferences.py), and the name it is shown by (``models.display_name``)."""

from __future__ import annotations

from scoring.models import LanguagePreference
from scoring.selectors.accounts import spoken_language


def account_language_set(user, language: str) -> None:
    """Remember ``language`` for the account (a language the site does not speak is ignored)."""
    if getattr(user, "is_authenticated", False) and spoken_language(language):
        LanguagePreference.objects.update_or_create(user=user, defaults={"language": language})


def account_name_set(user, name: str) -> None:
    """The name the account is shown by to the people it shares games with (Django's first_name:
    ``models.display_name``), as the owner gives it on a shared game's pad."""
    user.first_name = name
    user.save(update_fields=["first_name"])
