"""Choosing the language: it comes from the browser's Accept-Language, a switch on every page
changes it in one tap (a plain POST form, no JavaScript needed), and the choice is remembered per
device (Django's language cookie) and per account (signing in brings it, signing up keeps it).
The addresses are the same in both languages.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.models import LanguagePreference
from tests.i18n.helpers import FR, url
from tests.support.factories import PASSWORD, game_started
from tests.support.pages import markup, page


@pytest.mark.django_db
def test_the_browsers_language_comes_first_then_the_cookie(client):
    assert '<html lang="en">' in markup(client.get(reverse("login")))
    assert '<html lang="fr">' in markup(client.get(reverse("login"), **FR))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert '<html lang="en">' in markup(client.get(reverse("login"), **FR))


@pytest.mark.django_db
def test_every_page_has_a_one_tap_switch_that_works_without_javascript(owner):
    phone = Client(**FR)
    phone.force_login(owner)
    game = game_started("Alice", "Bruno")
    switch = page(phone.get(url("pad", game))).one("form", class_="language-switch")

    assert (switch["method"], switch["action"]) == ("post", "/i18n/setlang/")
    buttons = switch.find_all("button", type="submit", name="language")
    assert [(button["value"], button["lang"]) for button in buttons] == [("en", "en")]
    assert switch.one("input", name="next")["value"] == url("pad", game)

    answer = phone.post("/i18n/setlang/", {"language": "en", "next": url("pad", game)})

    assert answer.status_code == 302 and answer["Location"] == url("pad", game), "same address in both languages"
    assert phone.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert '<html lang="en">' in markup(phone.get(url("pad", game)))
    assert LanguagePreference.objects.get(user=owner).language == "en", "remembered for the account too"
    for address in (url("history"), url("results", game), reverse("login")):
        assert 'class="nav-form language-switch"' in markup(phone.get(address))


@pytest.mark.django_db
def test_the_switch_works_for_a_visitor_and_refuses_a_language_the_site_does_not_speak():
    visitor = Client()
    answer = visitor.post("/i18n/setlang/", {"language": "fr", "next": "/accounts/login/"})
    assert answer.status_code == 302 and visitor.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    assert '<html lang="fr">' in markup(visitor.get(reverse("login")))
    visitor.post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert visitor.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    assert visitor.get("/i18n/setlang/").status_code == 405


@pytest.mark.django_db
def test_signing_in_brings_the_accounts_language_to_the_device(owner):
    LanguagePreference.objects.create(user=owner, language="fr")
    phone = Client()  # a browser that asks for nothing in particular: English

    answer = phone.post(reverse("login"), {"username": owner.username, "password": PASSWORD})

    assert answer.status_code == 302
    assert phone.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    assert '<html lang="fr">' in markup(phone.get(url("history")))


@pytest.mark.django_db
def test_an_account_keeps_the_language_it_signed_up_in():
    Client(**FR).post(
        reverse("signup"), {"username": "zoe", "password1": "un-long-mot-de-passe", "password2": "un-long-mot-de-passe"}
    )
    assert LanguagePreference.objects.get(user=User.objects.get(username="zoe")).language == "fr"


def test_urls_are_the_same_in_both_languages():
    with translation.override("fr"):
        french = [reverse("scoring:history"), reverse("login"), reverse("scoring:start")]
    assert (
        french
        == [reverse("scoring:history"), reverse("login"), reverse("scoring:start")]
        == ["/", "/accounts/login/", "/games/new/"]
    )
