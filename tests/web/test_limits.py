"""Abuse limits: signing in, signing up, asking for a password reset, opening share links,
starting games, saving fields and sending game files are counted per client address (and, for
signing in and resets, per account name typed; for saving, starting games and opening links, per
phone: its own session, signed in or not (a link holder's, a visitor's); for saving, per
signed-in account too, its phones together; for game files, per account; the address then only
a ceiling against a flood, so that a club's room of phones behind one router gets through); past
a limit the answer is 429 with the reason and a Retry-After, a page for a browser and one plain
sentence for the pad's script (a request with HX-Request, or one that prefers text/plain). Each
counter is its own: another address, another phone or another account still gets through. A
request without an address (a server on a unix socket behind a proxy) is counted per session,
never not at all.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from django.conf import settings as live_settings
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.sessions.backends.db import SessionStore
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone, translation

from scoring.models import Change, Game, GameLink, Player, RateCounter
from scoring.services.finishing import game_finish
from scoring.services.games import PlayerSetup, game_create
from scoring.services.sharing import link_renew
from scoring.web import limits
from tests.support.pages import loaded, page, typed, url

PASSWORD = "a-long-pass-phrase-for-ann"
HOME, AWAY = "192.0.2.1", "198.51.100.7"  # two client addresses
NONE = ""  # the address a server gives on a unix socket
HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def fresh_limits(db):
    """The counters (a table of the database) start from nothing in every test, and a request
    without an address is said in the log again."""
    limits.counters_clear()
    limits._say_address_unknown.cache_clear()
    yield
    limits.counters_clear()


@pytest.fixture
def small_limits(settings):
    """Limits small enough to reach in a test (the real ones are in settings.RATE_LIMITS)."""
    settings.RATE_LIMITS = {
        "login": {"address": (4, 600), "account": (2, 600)},
        "signup": {"address": (2, 600)},
        "password_reset": {"address": (4, 600), "account": (2, 600)},
        "join": {"session": (2, 600), "address": (5, 600)},
        "save": {"session": (3, 60), "user": (5, 60), "address": (5, 60)},
        "upload": {"address": (2, 600)},
        "start": {"session": (2, 600), "address": (5, 600)},
    }
    return settings.RATE_LIMITS


@pytest.fixture
def clock(monkeypatch):
    """A clock that stands still unless the test moves it on: the requests of a test fall in the
    limits' windows it means (none ends halfway)."""

    class Clock:
        now = 1_000_000_800.0  # at the start of an hour (and of a minute)

    monkeypatch.setattr(time, "time", lambda: Clock.now)
    monkeypatch.setattr(timezone, "now", lambda: datetime.fromtimestamp(Clock.now, UTC))
    return Clock


@pytest.fixture
def ann(db):
    return User.objects.create_user("ann", email="ann@example.com", password=PASSWORD)


def sign_in(client, username, password="wrong", address=HOME, **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address, **extra)


def assert_refused_page(response, words: str) -> None:
    assert response.status_code == 429
    html = page(response)
    assert words in html.text
    assert html.find("link", rel="stylesheet") and html.find("a", href="/")  # the site's own page, with a way home
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
    return client.post(
        reverse("signup"), {"username": username, "password1": PASSWORD, "password2": PASSWORD}, REMOTE_ADDR=address
    )


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
    return game_create(players=[PlayerSetup("Ann")], sectors=[(9, 4)], owner=ann)


def join(client, token, address=HOME, **extra):
    return client.get(reverse("scoring:join", args=[token]), REMOTE_ADDR=address, **extra)


def test_opening_links_is_limited_per_phone_and_per_address(client, game, small_limits, clock):
    """A phone opening links over and over (guessing them) waits; the other phones behind its
    address still open theirs, up to the address's ceiling."""
    token = link_renew(game=game, access="edit").token
    assert join(client, token).status_code == 302  # (counted by its address: the phone has no session yet)
    assert join(client, "guessed-token").status_code == 404
    assert join(client, "another-guess").status_code == 404
    assert_refused_page(join(client, token), "Too many game links opened from this phone")
    assert join(client, token, address=AWAY).status_code == 429  # the same phone, elsewhere

    assert join(Client(), token).status_code == 302  # another phone, the same address: the 5th
    assert_refused_page(join(Client(), token), "Too many game links opened from your network")
    assert join(Client(), token, address=AWAY).status_code == 302


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


def save(client, game, address=HOME, value="3", headers=HTMX, **extra):
    """One save of the pad's script (a page's saves are its own: each based on version 0)."""
    return client.post(
        reverse("scoring:save", args=[game.public_id]),
        {"field": "s1-farms", "value": value, "version": "0", "page": "test", "seq": "1"},
        headers=headers,
        REMOTE_ADDR=address,
        **extra,
    )


def link_holder(game, address=HOME, **extra) -> Client:
    """A phone that opened the game's edit link (no account): its session holds the link."""
    phone = Client()
    link = game.links.filter(access="edit", revoked_at__isnull=True).first() or link_renew(game=game, access="edit")
    assert join(phone, link.token, address, **extra).status_code == 302
    return phone


@pytest.mark.parametrize("headers", [HTMX, SCRIPT], ids=["htmx", "prefers-text"])
def test_a_save_over_a_limit_gets_a_plain_sentence_for_the_pad(client, ann, game, small_limits, clock, headers):
    client.force_login(ann)
    for value in ("1", "2", "3"):
        assert save(client, game, value=value, headers=headers).status_code == 200
    refused = save(client, game, value="4", headers=headers)
    assert refused.status_code == 429
    assert refused["Content-Type"] == "text/plain; charset=utf-8"
    sentence = refused.content.decode()
    assert sentence.startswith("Too many saves from this phone") and "<" not in sentence and len(sentence) < 200
    assert 0 < int(refused["Retry-After"]) <= 60


def test_saves_are_limited_per_phone_and_its_neighbours_behind_the_same_address_still_save(
    client, ann, game, small_limits, clock
):
    """A club's phones share its router's address: one phone over its own limit waits alone; the
    address's ceiling, over every phone behind it, is for a flood."""
    client.force_login(ann)
    ben = link_holder(game)
    for value in ("1", "2", "3"):
        assert save(client, game, value=value).status_code == 200
    assert save(client, game, value="4").content.decode().startswith("Too many saves from this phone")
    assert save(client, game, value="4", address=AWAY).status_code == 429  # the phone's limit, wherever it is

    assert save(ben, game, value="5").status_code == 200  # the same address: the 5th save from it
    refused = save(ben, game, value="6")
    assert refused.status_code == 429 and refused.content.decode().startswith("Too many saves from your network")
    assert save(ben, game, value="6", address=AWAY).status_code == 200


def test_the_real_limits_let_a_club_night_behind_one_address_join_and_save(game, clock):
    """The club night of docs/performance.md behind one router: 32 phones open their table's
    link, each twice (a reload, a second tab), then type a value every 2 s for a minute: 960
    saves from one address. None is refused; a phone typing far faster than anyone is."""
    sessions = []
    for _ in range(32):
        session = SessionStore()
        session["game_links"] = {game.public_id: [1]}
        session.save()
        sessions.append(session.session_key)

    def request(key: str | None):
        made = RequestFactory().post("/", REMOTE_ADDR=HOME)
        made.user, made.session = AnonymousUser(), SessionStore(session_key=key)
        return made

    opened = [limits.check(request(None), "join") for _ in sessions]  # (no session yet: counted by address)
    opened += [limits.check(request(key), "join") for key in sessions]
    saved = [limits.check(request(key), "save") for _ in range(30) for key in sessions]
    assert opened == [None] * 64 and saved == [None] * 960

    allowed = live_settings.RATE_LIMITS["save"]["session"][0]
    flood = [limits.check(request(sessions[0]), "save") for _ in range(allowed)]  # in the same minute
    assert flood[0] is None and flood[-1].status_code == 429


FAST = 120  # saves a minute of a phone typing as fast as one can: a value every half second


def phone_of(user: User, **extra) -> Client:
    """A phone signed in to ``user``'s account: its own session, as each phone it signs in on."""
    phone = Client(**extra)
    phone.force_login(user)
    return phone


def typed_for_a_minute(phone: Client, user: User, game, field: str, saves: int) -> int:
    """``saves`` saves of one phone from HOME within the minute: all but the last counted by the
    limiter as the phone's requests are (its session, its account, its address), the last sent;
    that one's status."""
    request = RequestFactory().post("/", REMOTE_ADDR=HOME)
    request.user, request.session = user, SessionStore(session_key=phone.session.session_key)
    assert limits.over_limit(request, "save", hits=saves - 1) is None
    answer = phone.post(
        reverse("scoring:save", args=[game.public_id]),
        {"field": field, "value": "3", "version": "0", "page": field, "seq": "1"},
        headers=HTMX,
        REMOTE_ADDR=HOME,
    )
    return answer.status_code


def test_the_real_save_limit_never_meets_a_club_of_24_tables_behind_one_address_at_the_rush(clock):
    """The end-of-game rush of a club's 24 five-player tables behind one router, every table
    ending in the same minute: each of the 120 phones (each table's signed in to its owner's
    account) types its final scoring as fast as one can, 120 values a minute: 14,400 saves from
    one address in one minute. None is refused."""
    tables = []
    for table in range(24):
        owner = User.objects.create_user(f"table-{table + 1}")
        players = [PlayerSetup(name) for name in ("Ann", "Ben", "Cid", "Dee", "Eve")]
        tables.append((owner, game_create(players=players, sectors=[(9, 4)], owner=owner)))

    answers = [
        typed_for_a_minute(phone_of(owner), owner, game, f"s{seat}-farms", FAST)
        for owner, game in tables
        for seat in range(1, 6)
    ]

    assert answers == [200] * 120
    assert RateCounter.objects.get(name__startswith="save:address:").hits == 24 * 5 * FAST


def test_an_accounts_phones_each_save_at_a_phones_pace(ann, game, clock):
    """One account signed in on four phones of a table: each phone is counted on its own, so four
    phones typing as fast as one can (480 saves in a minute) are not refused, as one phone typing
    that fast is not."""
    answers = [typed_for_a_minute(phone_of(ann), ann, game, "s1-farms", FAST) for _ in range(4)]

    assert answers == [200] * 4


def test_an_accounts_phones_together_meet_its_ceiling_and_are_told_so(ann, game, settings, clock):
    """Above each phone's own limit, an account’s phones together have a ceiling: past it, every
    phone of the account waits, and is told it is the account’s phones together (not this phone,
    nor the network); a link holder's phone at the same table still saves."""
    settings.RATE_LIMITS = {"save": {"session": (3, 60), "user": (5, 60), "address": (100, 60)}}
    first, second = phone_of(ann), phone_of(ann, HTTP_ACCEPT_LANGUAGE="fr")
    for value in ("1", "2", "3"):
        assert save(first, game, value=value).status_code == 200
    for value in ("4", "5"):
        assert save(second, game, value=value).status_code == 200

    refused = save(second, game, value="6")
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 60
    assert refused.content.decode().startswith(
        "Trop d’enregistrements depuis ce compte, tous ses téléphones confondus. Attendez "
    )
    with translation.override("en"):
        assert limits.Refused("save", limits.USER, 40).message == (
            "Too many saves from this account’s phones together. Wait 40 seconds, then save again."
        )
    assert phone_of(ann).post(url("during", game), {"during": "track"}, REMOTE_ADDR=HOME).status_code == 429
    assert save(link_holder(game), game, value="7").status_code == 200


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


def test_a_plain_pad_post_counts_each_value_it_saves(client, ann, game, small_limits, clock):
    """Without JavaScript the pad is one form: each value it saves is one save, as the pad's
    script counts them; over the limit none is saved, each says why under it, what was typed kept."""
    client.force_login(ann)
    posted = client.post(
        url("pad", game), typed(loaded(client, game), {"s1-farms": "2", "s1-recruits": "3"}), REMOTE_ADDR=HOME
    )
    assert posted.status_code == 302  # two of the phone's three saves a minute

    refused = client.post(
        url("pad", game), typed(loaded(client, game), {"s1-farms": "5", "s1-recruits": "6"}), REMOTE_ADDR=HOME
    )

    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 60
    assert "no-store" in refused["Cache-Control"]
    shown = page(refused)
    for name, value in (("s1-farms", "5"), ("s1-recruits", "6")):
        assert shown.one("input", name=name)["value"] == value
        assert "too many saves from this phone. Wait" in shown.by_id(f"error-{name}").text
    seat = game.seats.get()
    assert (seat.farms, seat.recruits) == (2, 3)
    assert save(client, game, value="7").status_code == 429  # counted with the script's saves


def _undo(client, game):
    change = Change.objects.filter(game=game).latest("pk")
    return client.post(reverse("scoring:undo", args=[game.public_id, change.pk]), REMOTE_ADDR=HOME)


def _finish(client, game):
    return client.post(url("finish", game), {**loaded(client, game), "confirm": "1"}, REMOTE_ADDR=HOME)


def _reopen(client, game):
    game_finish(game=game)
    return client.post(url("reopen", game), REMOTE_ADDR=HOME)


def _during(client, game):
    return client.post(url("during", game), {"during": "track"}, REMOTE_ADDR=HOME)


def _new_link(client, game):
    return client.post(reverse("scoring:link", args=[game.public_id, "edit", "new"]), REMOTE_ADDR=HOME)


def _delete(client, game):
    return client.post(url("delete", game), REMOTE_ADDR=HOME)


@pytest.mark.parametrize(
    "door",
    [_undo, _finish, _reopen, _during, _new_link, _delete],
    ids=["undo", "finish", "reopen", "way-of-counting", "new-link", "delete"],
)
def test_every_write_of_a_game_counts_against_the_save_limit(client, ann, game, small_limits, clock, door):
    """Whatever the door, a phone over its saves waits: the write is refused in words, nothing changed."""
    client.force_login(ann)
    for value in ("1", "2", "3"):
        assert save(client, game, value=value).status_code == 200
    before = (
        Game.objects.filter(pk=game.pk).values_list("revision", "finished_at", "during_mode").first(),
        list(GameLink.objects.values_list("token", flat=True)),
        Change.objects.count(),
    )

    refused = door(client, game)

    assert_refused_page(refused, "Too many saves from this phone")
    after = (
        Game.objects.filter(pk=game.pk).values_list("revision", "finished_at", "during_mode").first(),
        list(GameLink.objects.values_list("token", flat=True)),
        Change.objects.count(),
    )
    if door is _reopen:  # (finished just before the door was tried: still finished, nothing else changed)
        assert after[0][1] is not None and after[0][2] == before[0][2] and after[1:] == before[1:]
    else:
        assert after == before


def test_a_link_holders_name_and_player_count_against_the_save_limit(game, small_limits, clock):
    ben = link_holder(game)
    for value in ("1", "2", "3"):
        assert save(ben, game, value=value).status_code == 200
    assert_refused_page(ben.post(url("name", game), {"name": "Ben"}, REMOTE_ADDR=HOME), "Too many saves")
    seat = game.seats.get()
    assert_refused_page(ben.post(url("who", game), {"seat": str(seat.pk)}, REMOTE_ADDR=HOME), "Too many saves")
    assert "link_holder_name" not in str(dict(ben.session))


def test_merging_players_counts_against_the_save_limit(client, ann, game, small_limits, clock):
    client.force_login(ann)
    game_create(players=[PlayerSetup("Annie")], sectors=[(9, 4)], owner=ann)
    for value in ("1", "2", "3"):
        assert save(client, game, value=value).status_code == 200
    keep, merged = (Player.objects.get(owner=ann, name=name) for name in ("Ann", "Annie"))
    refused = client.post(
        reverse("scoring:player_merge", args=[keep.pk]), {"same_as": str(merged.pk)}, REMOTE_ADDR=HOME
    )
    assert_refused_page(refused, "Too many saves")
    assert Player.objects.filter(pk=merged.pk).exists()


# ---------------------------------------------------------------------------------------------
# Starting a game (no account is needed)


def start(phone, address=HOME):
    """The start form posted with one player."""
    return phone.post(
        reverse("scoring:start"),
        {
            "player-TOTAL_FORMS": "5",
            "player-INITIAL_FORMS": "0",
            "sector-TOTAL_FORMS": "20",
            "sector-INITIAL_FORMS": "0",
            "played_on": "2024-05-01",
            "end_trigger_token": "7",
            "player-0-name": "Ann",
        },
        REMOTE_ADDR=address,
    )


def test_starting_games_is_limited_per_phone_a_visitors_as_an_accounts(client, ann, small_limits, clock):
    """A visitor's first game makes its session (counted by its address alone until then); from
    then on its games are counted per session, as an account's are; the other phones behind its
    address still start theirs, up to the address's ceiling."""
    visitor = Client()
    assert [start(visitor).status_code for _ in range(3)] == [302, 302, 302]
    assert_refused_page(start(visitor), "Too many games started from this phone")

    assert start(Client()).status_code == 302  # another visitor, the same address: the 5th
    assert_refused_page(start(Client()), "Too many games started from your network")
    client.force_login(ann)
    assert start(client, address=AWAY).status_code == 302


def test_games_started_without_an_account_have_a_lower_ceiling_per_address(client, ann, small_limits, clock):
    """Visitors' games are kept by their sessions alone: the starts without an account from one
    address have a ceiling of their own, below the address's, which every new visitor counts on
    (a script dropping its cookies is a new visitor each time). An account's starts behind the
    same address are not counted there, and the refusal says that signing in helps."""
    small_limits["start"] = {"session": (2, 600), "address": (5, 600), "visitor": (3, 600)}
    assert [start(Client()).status_code for _ in range(3)] == [302, 302, 302]

    assert_refused_page(
        start(Client()),
        "Too many games started without an account from your network, counting every phone on it. Wait 10 minutes, "
        "then try again, or sign in: an account’s games are counted apart.",
    )
    client.force_login(ann)
    assert start(client).status_code == 302
    assert start(Client(), address=AWAY).status_code == 302


def test_the_real_visitor_start_ceiling_is_far_below_the_addresss_and_lets_a_club_of_visitors_start():
    """24 tables of visitors behind one router, each starting two games in an hour, stay under
    it; a script gets a fraction of what the address's ceiling would let through in an hour."""
    visitors, visitors_period = live_settings.RATE_LIMITS["start"]["visitor"]
    address, address_period = live_settings.RATE_LIMITS["start"]["address"]
    assert visitors_period == 3600 and visitors >= 24 * 2
    assert visitors * 10 <= address * 3600 / address_period


# ---------------------------------------------------------------------------------------------
# Without the client's address


# a server on a unix socket gives REMOTE_ADDR "": behind a proxy that RATE_LIMIT_PROXIES does not
# declare, or declares but which does not send X-Forwarded-For.
WITHOUT_AN_ADDRESS = pytest.mark.parametrize(
    ("proxies", "forwarded"),
    [(0, None), (0, "203.0.113.9"), (1, None)],
    ids=["no-proxy-declared", "proxy-not-declared", "proxy-not-saying"],
)


def unix_socket(forwarded: str | None) -> dict:
    """A request as a server on a unix socket hands it over: no address, and what the proxy sent."""
    return {"address": NONE, **({"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {})}


@WITHOUT_AN_ADDRESS
def test_without_an_address_each_phone_is_counted_on_its_own(game, settings, clock, proxies, forwarded, caplog):
    settings.RATE_LIMIT_PROXIES = proxies
    settings.RATE_LIMITS = {"save": {"address": (3, 60)}}  # per address only: the session stands in for it
    ann, ben = link_holder(game, **unix_socket(forwarded)), link_holder(game, **unix_socket(forwarded))
    for value in ("1", "2", "3"):
        assert save(ann, game, value=value, **unix_socket(forwarded)).status_code == 200
    assert save(ann, game, value="4", **unix_socket(forwarded)).status_code == 429
    assert save(ben, game, value="5", **unix_socket(forwarded)).status_code == 200
    assert "set RATE_LIMIT_PROXIES" in caplog.text


@WITHOUT_AN_ADDRESS
def test_without_an_address_or_a_session_the_requests_share_one_counter(
    ann, small_limits, settings, clock, proxies, forwarded
):
    """A script that sends no cookie is not a session: such requests are counted together."""
    settings.RATE_LIMIT_PROXIES = proxies
    for name in ("ben", "cid", "dee", "eve"):
        assert sign_in(Client(), name, **unix_socket(forwarded)).status_code == 200
    assert_refused_page(sign_in(Client(), "ann", PASSWORD, **unix_socket(forwarded)), "Too many sign-in attempts")


def test_behind_a_declared_proxy_the_address_it_forwards_is_counted(game, settings, clock):
    settings.RATE_LIMIT_PROXIES = 1
    settings.RATE_LIMITS = {"save": {"address": (3, 60)}}
    ann, ben = link_holder(game, **unix_socket(HOME)), link_holder(game, **unix_socket(AWAY))
    for value in ("1", "2", "3"):
        assert save(ann, game, value=value, **unix_socket(HOME)).status_code == 200
    assert save(link_holder(game, **unix_socket(HOME)), game, value="4", **unix_socket(HOME)).status_code == 429
    assert save(ben, game, value="5", **unix_socket(AWAY)).status_code == 200


def test_no_limit_when_the_setting_leaves_it_out(client, ann, settings):
    settings.RATE_LIMITS = {}
    for _ in range(12):
        assert sign_in(client, "ann").status_code == 200


# ---------------------------------------------------------------------------------------------
# The parts


@pytest.mark.parametrize(
    ("remote", "forwarded", "proxies", "expected"),
    [
        ("192.0.2.1", "", 0, "192.0.2.1"),
        ("192.0.2.1", "203.0.113.9", 0, "192.0.2.1"),  # X-Forwarded-For is ignored without a proxy
        ("10.0.0.1", "198.51.100.3, 203.0.113.9", 1, "203.0.113.9"),  # what the proxy saw, not what the client claims
        ("10.0.0.1", "203.0.113.9, 10.0.0.2", 2, "203.0.113.9"),
        ("10.0.0.1", "", 1, "10.0.0.1"),  # a proxy that did not say: its own address
        ("2001:db8:1:2:3:4:5:6", "", 0, "2001:db8:1::/56"),  # an IPv6 home is given a /56
        ("2001:db8:1:ff:3:4:5:6", "", 0, "2001:db8:1::/56"),  # (another /64 of the same home)
        ("::ffff:192.0.2.1", "", 0, "192.0.2.1"),
    ],
)
def test_the_client_address(settings, remote, forwarded, proxies, expected):
    settings.RATE_LIMIT_PROXIES = proxies
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert limits.client_address(request) == expected


def test_the_session_of_a_request(ann, game):
    def request(user=None, key=None):
        made = RequestFactory().get("/")
        made.user, made.session = user or AnonymousUser(), SessionStore(session_key=key)
        return made

    holder = SessionStore()
    holder["game_links"] = {game.public_id: [1]}
    holder.save()
    signed_in = SessionStore()
    signed_in["_auth_user_id"] = str(ann.pk)
    signed_in.save()
    assert limits.session_of(request(ann, signed_in.session_key)) == f"session {signed_in.session_key}"  # the phone's
    assert limits.session_of(request(key=holder.session_key)) == f"session {holder.session_key}"
    assert limits.session_of(request(key="made-up-cookie-value-32-characters")) == ""  # not one of the server's
    assert limits.session_of(request()) == ""
    assert limits.user_of(request(ann, signed_in.session_key)) == f"account {ann.pk}"  # whatever phone it signs in on
    assert limits.user_of(request(key=holder.session_key)) == ""


def test_count_counts_each_name_of_each_kind_on_its_own(settings):
    settings.RATE_LIMITS = {"test": {"account": (2, 60), "session": (3, 60)}}
    assert [limits.count("test", {"account": "ann"}) for _ in range(2)] == [{}, {}]
    assert set(limits.count("test", {"account": "ann"})) == {"account"}
    assert limits.count("test", {"account": "ben"}) == {}
    assert limits.count("test", {"session": "ann"}) == {}  # another kind's counter
    assert limits.count("test", {"address": "ann"}) == {}  # a kind the rule does not limit
    assert limits.count("test", {"session": ""}) == {}  # nobody to count
    assert limits.count("other", {"account": "ann"}) == {}  # a rule the setting does not have


def test_count_counts_several_hits_at_once_and_says_the_limit_reached_once(settings, clock, caplog):
    settings.RATE_LIMITS = {"test": {"session": (4, 60)}}
    assert limits.count("test", {"session": "ann"}, hits=3) == {}
    assert set(limits.count("test", {"session": "ann"}, hits=2)) == {"session"}  # 5 of 4
    assert set(limits.count("test", {"session": "ann"})) == {"session"}
    assert [record.getMessage() for record in caplog.records] == [
        "Rate limit 'test' (session) reached by a session: refused for 60 s"
    ]


def test_a_long_window_counts_to_its_end(settings, clock):
    """A counter lasts as long as its window, however long, and starts again with the next."""
    settings.RATE_LIMITS = {"test": {"account": (1, 3600)}}
    assert limits.count("test", {"account": "ann"}) == {}
    assert limits.count("test", {"account": "ann"})
    clock.now += 3000  # 50 minutes later, the same hour
    assert limits.count("test", {"account": "ann"}) == {"account": 600}
    clock.now += 600  # the next hour
    assert limits.count("test", {"account": "ann"}) == {}


def test_counting_a_request_is_one_statement_for_every_kind(settings, django_assert_num_queries):
    settings.RATE_LIMITS = {"test": {"address": (5, 60), "session": (1, 60), "account": (5, 3600)}}
    counted = {"address": "192.0.2.1", "session": "session abc", "account": "ann"}
    limits.count("test", counted)
    with django_assert_num_queries(1):
        assert set(limits.count("test", counted)) == {"session"}


def test_the_rows_of_windows_over_are_swept(settings, clock, monkeypatch):
    settings.RATE_LIMITS = {"test": {"address": (5, 60)}}
    limits.count("test", {"address": "192.0.2.1"})
    clock.now += 120
    monkeypatch.setattr(limits.random, "randrange", lambda n: 0)  # this time, the sweep runs
    limits.count("test", {"address": "198.51.100.7"})
    assert [row.hits for row in RateCounter.objects.all()] == [1]  # the first address's row is gone


def test_the_log_says_which_address_reached_a_limit_and_never_a_session_or_an_account(settings, caplog):
    settings.RATE_LIMITS = {"test": {"address": (1, 60), "session": (1, 60), "account": (1, 60)}}
    for _ in range(2):
        limits.count("test", {"address": "192.0.2.1", "session": "session secret-key", "account": "ann"})
        limits.count("test", {"address": "session other-secret-key"})  # a session standing in for an address
    assert "reached by 192.0.2.1" in caplog.text
    assert "reached by a session" in caplog.text and "reached by an account name" in caplog.text
    assert "reached by a client without an address" in caplog.text
    assert "secret-key" not in caplog.text and "ann" not in caplog.text


def test_wait_text():
    assert limits.wait_text(1) == "1 second"
    assert limits.wait_text(40) == "40 seconds"
    assert limits.wait_text(600) == "10 minutes"
    assert limits.wait_text(61 * 60 + 1) == "62 minutes"
