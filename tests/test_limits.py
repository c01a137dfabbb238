"""Abuse limits: signing in, signing up, asking for a password reset, opening share links and
saving fields are counted per client address (and, for signing in and resets, per account name
typed); past a limit the answer is 429 with the reason and a Retry-After, a page for a browser
and one plain sentence for the pad's script (a request with HX-Request, or one that prefers
text/plain). Each counter is its own: another address, or another account, still gets through."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from scoring import limits, services
from scoring.models import RateCounter

PASSWORD = "a-long-pass-phrase-for-ann"
HOME, AWAY = "192.0.2.1", "198.51.100.7"  # two client addresses
HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def fresh_limits(db):
    """The counters (a table of the database) start from nothing in every test."""
    limits.counters_clear()
    yield
    limits.counters_clear()


@pytest.fixture
def small_limits(settings):
    """Limits small enough to reach in a test (the real ones are in settings.RATE_LIMITS)."""
    settings.RATE_LIMITS = {
        "login": {"address": (4, 600), "account": (2, 600)},
        "signup": {"address": (2, 600)},
        "password_reset": {"address": (4, 600), "account": (2, 600)},
        "join": {"address": (3, 600)},
        "save": {"address": (3, 60)},
        "upload": {"address": (2, 600)},
    }
    return settings.RATE_LIMITS


@pytest.fixture
def clock(monkeypatch):
    """A clock that the test moves on (for the limits' windows)."""

    class Clock:
        now = 1_000_000_800.0  # at the start of an hour (and of a minute)

    monkeypatch.setattr(time, "time", lambda: Clock.now)
    monkeypatch.setattr(timezone, "now", lambda: datetime.fromtimestamp(Clock.now, UTC))
    return Clock


@pytest.fixture
def ann(db):
    return User.objects.create_user("ann", email="ann@example.com", password=PASSWORD)


def sign_in(client, username, password="wrong", address=HOME):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def assert_refused_page(response, words: str) -> None:
    assert response.status_code == 429
    html = response.content.decode()
    assert words in html
    assert "app.css" in html and 'href="/"' in html  # the site's own page, with a way home
    retry = int(response["Retry-After"])
    assert 0 < retry <= 600
    assert "no-store" in response["Cache-Control"]


# ---------------------------------------------------------------------------------------------
# Signing in


def test_sign_in_is_limited_per_account_name(client, ann, small_limits):
    assert sign_in(client, "ann").status_code == 200
    assert sign_in(client, "ANN ").status_code == 200  # the same account, however typed
    refused = sign_in(client, "ann", PASSWORD)
    assert_refused_page(refused, "Too many sign-in attempts")
    assert not client.get("/").wsgi_request.user.is_authenticated  # even the right password waits
    # Another account from the same address still gets through.
    assert sign_in(client, "ben").status_code == 200


def test_a_stranger_guessing_an_accounts_password_never_locks_its_owner_out(client, ann, small_limits):
    """Wrong passwords for "ann" from a stranger's address count against that address and that
    name from there, not against the owner signing in from their own phone."""
    for _ in range(2):
        assert sign_in(client, "ann", address=AWAY).status_code == 200
    assert_refused_page(sign_in(client, "ann", address=AWAY), "Too many sign-in attempts")  # the stranger waits

    response = sign_in(client, "ann", PASSWORD, address=HOME)

    assert response.status_code == 302
    assert client.get("/").wsgi_request.user == ann


def test_sign_in_is_limited_per_address(client, ann, small_limits):
    for name in ("ben", "cid", "dee", "eve"):
        assert sign_in(client, name).status_code == 200
    assert_refused_page(sign_in(client, "ann", PASSWORD), "Too many sign-in attempts")
    # Another address still signs in.
    response = sign_in(client, "ann", PASSWORD, address=AWAY)
    assert response.status_code == 302
    assert client.get("/").wsgi_request.user == ann


def test_only_sign_in_attempts_are_counted(client, ann, small_limits):
    for _ in range(6):
        assert client.get(reverse("login"), REMOTE_ADDR=HOME).status_code == 200
    assert sign_in(client, "ann", PASSWORD).status_code == 302


# ---------------------------------------------------------------------------------------------
# Signing up


def sign_up(client, username, address=HOME):
    return client.post(reverse("signup"), {"username": username, "password1": PASSWORD, "password2": PASSWORD},
                       REMOTE_ADDR=address)


def test_sign_up_is_limited_per_address(client, db, small_limits):
    assert sign_up(client, "ann").status_code == 302
    client.logout()
    assert sign_up(client, "ben").status_code == 302
    client.logout()
    assert client.get(reverse("signup"), REMOTE_ADDR=HOME).status_code == 200  # the form itself is not counted
    assert_refused_page(sign_up(client, "cid"), "Too many new accounts")
    assert not User.objects.filter(username="cid").exists()
    assert sign_up(client, "cid", address=AWAY).status_code == 302


# ---------------------------------------------------------------------------------------------
# Password reset


def reset(client, email, address=HOME):
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)


def test_password_reset_is_limited_per_email(client, ann, mailoutbox, small_limits):
    assert reset(client, "ann@example.com").status_code == 302
    assert reset(client, "Ann@Example.com").status_code == 302
    assert_refused_page(reset(client, "ann@example.com", address=AWAY), "Too many password reset requests")
    assert len(mailoutbox) == 2  # no mail for the refused request
    assert reset(client, "ben@example.com").status_code == 302  # another address of mail


def test_password_reset_is_limited_per_address(client, ann, mailoutbox, small_limits):
    for email in ("a@example.com", "b@example.com", "c@example.com", "d@example.com"):
        assert reset(client, email).status_code == 302
    assert_refused_page(reset(client, "ann@example.com"), "Too many password reset requests")
    assert mailoutbox == []
    assert reset(client, "ann@example.com", address=AWAY).status_code == 302
    assert len(mailoutbox) == 1


# ---------------------------------------------------------------------------------------------
# Share links and saves


@pytest.fixture
def game(ann):
    return services.game_create(players=[services.PlayerSetup("Ann")], sectors=[(9, 4)], owner=ann)


def test_opening_links_is_limited_per_address(client, game, small_limits):
    link = services.link_renew(game=game, access="edit")
    address = reverse("scoring:join", args=[link.token])
    assert client.get(address, REMOTE_ADDR=HOME).status_code == 302
    assert client.get(reverse("scoring:join", args=["guessed-token"]), REMOTE_ADDR=HOME).status_code == 404
    assert client.get(reverse("scoring:join", args=["another-guess"]), REMOTE_ADDR=HOME).status_code == 404
    assert_refused_page(client.get(address, REMOTE_ADDR=HOME), "Too many game links opened")
    assert client.get(address, REMOTE_ADDR=AWAY).status_code == 302


def test_game_file_uploads_are_limited_per_address(client, ann, small_limits):
    client.force_login(ann)

    def upload(address=HOME):
        document = SimpleUploadedFile("games.json", b'{"games": [}', content_type="application/json")
        return client.post(reverse("scoring:import"), {"file": document}, REMOTE_ADDR=address)

    assert upload().status_code == 422 and upload().status_code == 422  # each read and checked (and refused)
    assert_refused_page(upload(), "Too many game files sent")
    assert client.get(reverse("scoring:data"), REMOTE_ADDR=HOME).status_code == 200  # the page itself is not counted
    assert upload(address=AWAY).status_code == 422


SCRIPT = {"Accept": "text/plain, text/html;q=0.9"}  # what the pad's script asks for (no HX-Request)


def save(client, game, address=HOME, value="3", headers=HTMX):
    """One save of the pad's script (a page's saves are its own: each based on version 0)."""
    return client.post(reverse("scoring:save", args=[game.public_id]),
                       {"field": "s1-farms", "value": value, "version": "0", "page": "test", "seq": "1"},
                       headers=headers, REMOTE_ADDR=address)


@pytest.mark.parametrize("headers", [HTMX, SCRIPT], ids=["htmx", "prefers-text"])
def test_saves_are_limited_per_address_with_a_plain_sentence_for_the_pad(client, ann, game, small_limits, headers):
    client.force_login(ann)
    for value in ("1", "2", "3"):
        assert save(client, game, value=value, headers=headers).status_code == 200
    refused = save(client, game, value="4", headers=headers)
    assert refused.status_code == 429
    assert refused["Content-Type"] == "text/plain; charset=utf-8"
    sentence = refused.content.decode()
    assert sentence.startswith("Too many saves") and "<" not in sentence and len(sentence) < 200
    assert 0 < int(refused["Retry-After"]) <= 60
    assert save(client, game, address=AWAY, value="5", headers=headers).status_code == 200


def test_the_real_save_limit_lets_a_busy_table_type(client, ann, game):
    client.force_login(ann)
    for value in range(100):  # far more than a table types in a minute
        assert save(client, game, value=str(value % 50)).status_code == 200


def test_a_limit_ends_with_its_window(client, ann, game, small_limits, clock):
    client.force_login(ann)
    clock.now += 20  # 20 s into a minute
    for _ in range(3):
        assert save(client, game).status_code == 200
    refused = save(client, game)
    assert refused.status_code == 429 and refused["Retry-After"] == "40"
    clock.now += 41
    assert save(client, game).status_code == 200


def test_no_limit_when_the_setting_leaves_it_out(client, ann, settings):
    settings.RATE_LIMITS = {}
    for _ in range(12):
        assert sign_in(client, "ann").status_code == 200


# ---------------------------------------------------------------------------------------------
# The parts


@pytest.mark.parametrize(("remote", "forwarded", "proxies", "expected"), [
    ("192.0.2.1", "", 0, "192.0.2.1"),
    ("192.0.2.1", "203.0.113.9", 0, "192.0.2.1"),  # X-Forwarded-For is ignored without a proxy
    ("10.0.0.1", "198.51.100.3, 203.0.113.9", 1, "203.0.113.9"),  # what the proxy saw, not what the client claims
    ("10.0.0.1", "203.0.113.9, 10.0.0.2", 2, "203.0.113.9"),
    ("10.0.0.1", "", 1, "10.0.0.1"),  # a proxy that did not say: its own address
    ("2001:db8:1:2:3:4:5:6", "", 0, "2001:db8:1:2::/64"),  # one IPv6 client holds a /64
    ("::ffff:192.0.2.1", "", 0, "192.0.2.1"),
])
def test_the_client_address(settings, remote, forwarded, proxies, expected):
    settings.RATE_LIMIT_PROXIES = proxies
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert limits.client_address(request) == expected


def test_hit_counts_each_name_on_its_own(settings):
    settings.RATE_LIMITS = {"test": {"account": (2, 60)}}
    assert [limits.hit("test", "account", "ann") for _ in range(3)][:2] == [0, 0]
    assert limits.hit("test", "account", "ann") > 0
    assert limits.hit("test", "account", "ben") == 0
    assert limits.hit("test", "address", "ann") == 0  # a kind the rule does not limit
    assert limits.hit("other", "account", "ann") == 0  # a rule the setting does not have


def test_a_long_window_counts_to_its_end(settings, clock):
    """A counter lasts as long as its window, however long, and starts again with the next."""
    settings.RATE_LIMITS = {"test": {"account": (1, 3600)}}
    assert limits.hit("test", "account", "ann") == 0
    assert limits.hit("test", "account", "ann") > 0
    clock.now += 3000  # 50 minutes later, the same hour
    assert limits.hit("test", "account", "ann") == 600
    clock.now += 600  # the next hour
    assert limits.hit("test", "account", "ann") == 0


def test_counting_a_request_is_one_statement(settings, django_assert_num_queries):
    settings.RATE_LIMITS = {"test": {"address": (5, 60)}}
    limits.hit("test", "address", "192.0.2.1")
    with django_assert_num_queries(1):
        assert limits.hit("test", "address", "192.0.2.1") == 0


def test_the_rows_of_windows_over_are_swept(settings, clock, monkeypatch):
    settings.RATE_LIMITS = {"test": {"address": (5, 60)}}
    limits.hit("test", "address", "192.0.2.1")
    clock.now += 120
    monkeypatch.setattr(limits.random, "randrange", lambda n: 0)  # this time, the sweep runs
    limits.hit("test", "address", "198.51.100.7")
    assert [row.hits for row in RateCounter.objects.all()] == [1]  # the first address's row is gone


def test_wait_text():
    assert limits.wait_text(1) == "1 second"
    assert limits.wait_text(40) == "40 seconds"
    assert limits.wait_text(600) == "10 minutes"
    assert limits.wait_text(61 * 60 + 1) == "62 minutes"
