"""The language a person reads the pad in: chosen from the browser's Accept-Language first,
changed in one tap by the switch at the top of every page (a POST to Django's ``set_language``,
which works without JavaScript), and remembered per device (Django's language cookie) and, for a
signed-in account, per account (``models.LanguagePreference``: ``selectors.accounts.account_language``,
``services.accounts.account_language_set``), which is applied at every sign-in.

URLs stay the same in every language (no language prefix in them).
"""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_POST

from scoring.selectors.accounts import account_language, spoken_language
from scoring.services.accounts import account_language_set

ACCOUNT_LANGUAGE = "_apiary_account_language"  # the request attribute a sign-in leaves for the cookie


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (the cookie, and back to ``next``), and, for a signed-in
    account, the choice remembered for the account too."""
    from django.views.i18n import set_language  # a view: not imported with the models

    language = spoken_language(request.POST.get("language"))
    if language is None:  # a language Django knows but the site does not speak: no cookie for it
        posted = request.POST.copy()
        posted.pop("language", None)
        request.POST = posted  # type: ignore[assignment]  # (django-stubs holds request.POST immutable)
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
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
