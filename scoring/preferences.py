"""The language a person reads the pad in: chosen from the browser's Accept-Language first,
changed in one tap by the switch at the top of every page (a POST to Django's ``set_language``,
which works without JavaScript), and remembered per device (Django's language cookie) and, for a
signed-in account, per account (``LanguagePreference``), which is applied at every sign-in.

URLs stay the same in every language (no language prefix in them).
"""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.db import models
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

ACCOUNT_LANGUAGE = "_apiary_account_language"  # the request attribute a sign-in leaves for the cookie


class LanguagePreference(models.Model):
    """The language an account chose last (or signed up in)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="language_preference")
    language = models.CharField(_("language"), max_length=7)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "scoring"

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"


def _spoken(code: str | None) -> str | None:
    """``code`` when it is one of the site's languages (settings.LANGUAGES), else None."""
    codes = {language for language, _name in settings.LANGUAGES}
    return code if code in codes else None


def account_language(user) -> str | None:
    """The language the account chose, or None when it never chose one."""
    if not getattr(user, "is_authenticated", False):
        return None
    preference = LanguagePreference.objects.filter(user=user).values_list("language", flat=True).first()
    return _spoken(preference)


def account_language_set(user, language: str) -> None:
    """Remember ``language`` for the account (a language the site does not speak is ignored)."""
    if getattr(user, "is_authenticated", False) and _spoken(language):
        LanguagePreference.objects.update_or_create(user=user, defaults={"language": language})


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (the cookie, and back to ``next``), and, for a signed-in
    account, the choice remembered for the account too."""
    from django.views.i18n import set_language  # a view: not imported with the models

    language = _spoken(request.POST.get("language"))
    if language is None:  # a language Django knows but the site does not speak: no cookie for it
        request.POST = request.POST.copy()
        request.POST.pop("language", None)
    response = set_language(request)
    if language and response.status_code in (302, 204):
        account_language_set(request.user, language)
    return response


def on_sign_in(sender, request: HttpRequest | None, user, **kwargs) -> None:
    """``user_logged_in``: the account's language, when it chose one, becomes this request's and
    (``with_account_language``) this device's."""
    language = account_language(user)
    if request is None or language is None:
        return
    translation.activate(language)
    request.LANGUAGE_CODE = language
    setattr(request, ACCOUNT_LANGUAGE, language)


def with_account_language(view):
    """For the views that sign a person in: when the sign-in brought the account's language
    (``on_sign_in``), the answer sets this device's language cookie to it, as ``set_language``
    does."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = view(request, *args, **kwargs)
        language = getattr(request, ACCOUNT_LANGUAGE, None)
        if language:
            language_cookie_set(response, language)
        return response

    return wrapper


def language_cookie_set(response: HttpResponse, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, language,
        max_age=settings.LANGUAGE_COOKIE_AGE, path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN, secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY, samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
