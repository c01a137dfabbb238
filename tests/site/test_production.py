"""The production settings: ``check --deploy`` silent under the README's production start, HTTPS
switchable off for a LAN, the proxy's header trusted only when said, and faults met with words."""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.urls import reverse

from scoring.gamefile import GameFileError, parse_document
from scoring.models import Game
from scoring.rules.categories import MAX_NOTES_LENGTH
from tests.support.factories import game_started, save_value, seat_of

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "x" * 20 + "-a-long-random-production-secret-key-9f8e7d6c5b4a",
    "ALLOWED_HOSTS": "scores.example.org",
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {
        key: value
        for key, value in os.environ.items()
        if key
        not in (
            "DEBUG",
            "SECRET_KEY",
            "ALLOWED_HOSTS",
            "HTTPS",
            "PROXY_SSL_HEADER",
            "HSTS_PRELOAD",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        )
    }  # (the browser tests' switch, never a deployment's)
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        capture_output=True,
        text=True,
        env={**clean, "DJANGO_SETTINGS_MODULE": "apiary_site.settings", **env},
        timeout=120,
        check=False,
    )


def setting(name: str, **env: str) -> str:
    return (
        manage(
            "shell", "-c", f"from django.conf import settings; print(repr(getattr(settings, {name!r}, None)))", **env
        )
        .stdout.strip()
        .splitlines()[-1]
    )


def test_check_deploy_is_silent_under_the_production_settings():
    checked = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "no issues" in checked.stdout


def test_production_is_https_with_hsts_and_secure_cookies():
    assert setting("SECURE_SSL_REDIRECT", **PRODUCTION) == "True"
    assert setting("SECURE_HSTS_SECONDS", **PRODUCTION) == "31536000"
    assert setting("SESSION_COOKIE_SECURE", **PRODUCTION) == "True"
    assert setting("CSRF_COOKIE_SECURE", **PRODUCTION) == "True"
    # The language switch's cookie as well (issue 18: it had neither Secure nor SameSite).
    assert setting("LANGUAGE_COOKIE_SECURE", **PRODUCTION) == "True"
    assert setting("LANGUAGE_COOKIE_SAMESITE", **PRODUCTION) == "'Lax'"


def test_a_plain_http_lan_switches_https_off():
    assert setting("SECURE_SSL_REDIRECT", **PRODUCTION, HTTPS="false") in ("False", "None")
    assert setting("SESSION_COOKIE_SECURE", **PRODUCTION, HTTPS="false") == "False"


def test_the_proxy_header_is_trusted_only_when_a_variable_says_so():
    assert setting("SECURE_PROXY_SSL_HEADER", **PRODUCTION) == "None"
    assert (
        setting("SECURE_PROXY_SSL_HEADER", **PRODUCTION, PROXY_SSL_HEADER="X-Forwarded-Proto")
        == "('HTTP_X_FORWARDED_PROTO', 'https')"
    )


def test_production_refuses_to_start_without_a_secret_key():
    refused = manage("check", DEBUG="false", ALLOWED_HOSTS="scores.example.org")
    assert refused.returncode != 0 and "Set SECRET_KEY" in refused.stderr


def test_the_key_comes_from_the_file_secret_key_file_names(tmp_path):
    """As ``make run`` keeps it, and as a command run beside it names it."""
    (tmp_path / "key").write_text("a-kept-key-long-enough-for-django-checks-0123456789-abcdefghijk\n")
    production = {**PRODUCTION, "SECRET_KEY": "", "SECRET_KEY_FILE": str(tmp_path / "key")}
    assert setting("SECRET_KEY", **production) == repr(
        "a-kept-key-long-enough-for-django-checks-0123456789-abcdefghijk"
    )


def test_a_command_run_with_only_the_database_named_is_refused_before_it_touches_it(tmp_path):
    """As a crontab line runs the nightly cleanup (issue 47): no development key unless asked for,
    so no session is read with another key than the site's, and nothing is deleted."""
    database = tmp_path / "site.sqlite3"
    assert manage("migrate", "-v", "0", DEBUG="true", DATABASE_URL=f"sqlite:///{database}").returncode == 0
    before = database.read_bytes()

    refused = manage("clear_abandoned_games", DATABASE_URL=f"sqlite:///{database}")

    assert refused.returncode != 0
    assert "Set SECRET_KEY (or SECRET_KEY_FILE)" in refused.stderr and "DEBUG=true" in refused.stderr
    assert database.read_bytes() == before


def test_development_mode_is_asked_for_not_supplied():
    assert setting("DEBUG", DEBUG="true") == "True"
    assert setting("SECRET_KEY", DEBUG="true").startswith("'django-insecure-")


def test_a_key_file_that_is_not_there_is_refused_not_replaced_by_the_development_key(tmp_path):
    refused = manage("check", DEBUG="true", SECRET_KEY_FILE=str(tmp_path / "missing"))
    assert refused.returncode != 0 and "SECRET_KEY_FILE names" in refused.stderr


# ---------------------------------------------------------------------------------------------
# Faults met with words


@pytest.mark.django_db
def test_a_server_error_gives_the_friendly_page_without_the_database(settings, monkeypatch):
    settings.DEBUG = False
    from scoring.views import people as people_views

    def broken(user):
        raise RuntimeError("a bug")

    monkeypatch.setattr(people_views, "players_table", broken)
    user = User.objects.create_user("ann", password="a-long-pass-phrase-1")
    client = Client(raise_request_exception=False)
    client.force_login(user)
    response = client.get(reverse("scoring:players"))
    assert response.status_code == 500
    html = response.content.decode()
    assert "Something went wrong on our side" in html and "Nothing you saved before is lost" in html


FULL_TABLES = ("scoring_game", "scoring_seat", "scoring_change", "scoring_gamelink")


@contextmanager
def database_full():
    """Within the block the database refuses writes as a full disk does: on SQLite the file may not
    grow by a single page; on PostgreSQL every write to the pad's tables fails with SQLSTATE
    53100 (disk full), as a server whose disk is full answers."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("VACUUM")  # no free page left from earlier tests: every new row needs the file to grow
            cursor.execute("PRAGMA page_count")
            cursor.execute(f"PRAGMA max_page_count = {cursor.fetchone()[0]}")
        else:
            cursor.execute(
                "CREATE FUNCTION apiary_disk_full() RETURNS trigger AS $$ BEGIN "
                "RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = '53100'; "
                "END $$ LANGUAGE plpgsql"
            )
            for table in FULL_TABLES:
                cursor.execute(
                    f"CREATE TRIGGER apiary_disk_full BEFORE INSERT OR UPDATE OR DELETE ON {table} "
                    "FOR EACH ROW EXECUTE FUNCTION apiary_disk_full()"
                )
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            if connection.vendor == "sqlite":
                cursor.execute("PRAGMA max_page_count = 1073741823")
            else:
                for table in FULL_TABLES:
                    cursor.execute(f"DROP TRIGGER apiary_disk_full ON {table}")
                cursor.execute("DROP FUNCTION apiary_disk_full()")


@pytest.mark.django_db(transaction=True)
def test_a_full_database_still_shows_the_pad_and_says_it_cannot_save(owner):
    client = Client()
    client.force_login(owner)
    game = game_started("Ann", "Bob", owner=owner)
    # fill what a write would need first: the pages of a change row and of the seats
    for n in range(3):
        save_value(seat=seat_of(game, 1), key="farm_income", value=n + 1)
    revision_before = Game.objects.get(pk=game.pk).revision
    with database_full():
        pad = client.get(reverse("scoring:pad", args=[game.public_id]))
        assert pad.status_code == 200  # reads as usual
        for saves in range(200):  # enough changes that the file must grow (one page: its own saves, no conflict)
            saved = client.post(
                reverse("scoring:save", args=[game.public_id]),
                {"field": "s2-recruits", "value": str(saves), "version": "0", "page": "p", "seq": str(saves + 1)},
                headers={"HX-Request": "true"},
            )
            if saved.status_code != 200:
                break
        assert saved.status_code == 503
        assert saved["Content-Type"] == "text/plain; charset=utf-8" and saved["Retry-After"] == "5"
        assert saved.content.decode().startswith("The server cannot save right now")
        for _ in range(200):  # a page's form: share links made until one needs a new page
            page_post = client.post(reverse("scoring:link", args=[game.public_id, "edit", "new"]))
            if page_post.status_code != 302:
                break
        assert page_post.status_code == 503 and "Cannot save right now" in page_post.content.decode()
        assert client.get(reverse("scoring:pad", args=[game.public_id])).status_code == 200
    # every save acknowledged is stored, and the refused one changed nothing
    assert Game.objects.get(pk=game.pk).revision == revision_before + saves


def test_notes_have_a_limit_in_the_game_file():
    document = '{"games": [{"notes": "%s", "comb": [[9, 0]], "players": [{"name": "Ann", "seat": 1}]}]}' % (
        "n" * (MAX_NOTES_LENGTH + 1)
    )
    with pytest.raises(GameFileError) as refused:
        parse_document(document)
    assert any(
        "games[0].notes" in str(problem) and "at most 2000" in str(problem) for problem in refused.value.problems
    )
