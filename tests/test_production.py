"""The production settings: ``check --deploy`` silent under the README's production start, HTTPS
switchable off for a LAN, the proxy's header trusted only when said, and faults met with words."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import DatabaseError
from django.test import Client
from django.urls import reverse

from scoring.categories import MAX_NOTES_LENGTH
from scoring.gamefile import GameFileError, parse_document

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = {"DEBUG": "false", "SECRET_KEY": "x" * 20 + "-a-long-random-production-secret-key-9f8e7d6c5b4a",
              "ALLOWED_HOSTS": "scores.example.org"}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {key: value for key, value in os.environ.items()
             if key not in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "HTTPS", "PROXY_SSL_HEADER", "HSTS_PRELOAD")}
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], capture_output=True, text=True,
                          env={**clean, "DJANGO_SETTINGS_MODULE": "apiary_site.settings", **env}, timeout=120, check=False)


def setting(name: str, **env: str) -> str:
    return manage("shell", "-c", f"from django.conf import settings; print(repr(getattr(settings, {name!r}, None)))",
                  **env).stdout.strip().splitlines()[-1]


def test_check_deploy_is_silent_under_the_production_settings():
    checked = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "no issues" in checked.stdout


def test_production_is_https_with_hsts_and_secure_cookies():
    assert setting("SECURE_SSL_REDIRECT", **PRODUCTION) == "True"
    assert setting("SECURE_HSTS_SECONDS", **PRODUCTION) == "31536000"
    assert setting("SESSION_COOKIE_SECURE", **PRODUCTION) == "True"
    assert setting("CSRF_COOKIE_SECURE", **PRODUCTION) == "True"


def test_a_plain_http_lan_switches_https_off():
    assert setting("SECURE_SSL_REDIRECT", **PRODUCTION, HTTPS="false") in ("False", "None")
    assert setting("SESSION_COOKIE_SECURE", **PRODUCTION, HTTPS="false") == "False"


def test_the_proxy_header_is_trusted_only_when_a_variable_says_so():
    assert setting("SECURE_PROXY_SSL_HEADER", **PRODUCTION) == "None"
    assert setting("SECURE_PROXY_SSL_HEADER", **PRODUCTION, PROXY_SSL_HEADER="X-Forwarded-Proto") == \
        "('HTTP_X_FORWARDED_PROTO', 'https')"


def test_production_refuses_to_start_without_a_secret_key():
    refused = manage("check", DEBUG="false", ALLOWED_HOSTS="scores.example.org")
    assert refused.returncode != 0 and "Set SECRET_KEY" in refused.stderr


# ---------------------------------------------------------------------------------------------
# Faults met with words


@pytest.mark.django_db
def test_a_server_error_gives_the_friendly_page_without_the_database(settings, monkeypatch):
    settings.DEBUG = False
    from django.db.backends.utils import CursorWrapper

    def broken(self, sql, params=None):
        raise DatabaseError("database or disk is full")

    monkeypatch.setattr(CursorWrapper, "execute", broken)
    client = Client(raise_request_exception=False)
    response = client.get(reverse("scoring:players"), HTTP_COOKIE="sessionid=whatever")
    assert response.status_code == 500
    html = response.content.decode()
    assert "Something went wrong on our side" in html and "Nothing you saved before is lost" in html


@pytest.mark.django_db
def test_a_request_too_big_is_refused_in_words(client, settings):
    settings.DEBUG = False
    response = client.post(reverse("login"), {"username": "x" * (300 * 1024), "password": "y"})
    assert response.status_code == 400
    assert "too big" in response.content.decode()


def test_notes_have_a_limit_in_the_game_file():
    document = ('{"games": [{"notes": "%s", "comb": [[9, 0]], "players": [{"name": "Ann", "seat": 1}]}]}'
                % ("n" * (MAX_NOTES_LENGTH + 1)))
    with pytest.raises(GameFileError) as refused:
        parse_document(document)
    assert any("games[0].notes" in str(problem) and "at most 2000" in str(problem)
               for problem in refused.value.problems)
