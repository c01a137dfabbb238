"""Several app servers, one database: two servers (apiary_site/server.py) on different loopback ports over the
same PostgreSQL database, as the README's production start runs them (DEBUG off, collected
static files), and two phones, one on each server, scoring one game together. Each sees the
other's saves within a poll or two, and the stored game is what both typed: nothing the pad relies
on lives in one process's memory (sessions, rate-limit counters and the game are all in the
database)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.pad_helpers import ANOTHER_PHONE_TIMEOUT_MS, field, wait_until_all_saved
from tests.support.deployment import ROOT, free_port, manage, production_env
from tests.support.postgres import postgres_url  # noqa: F401 - the private cluster, shared

pytestmark = pytest.mark.browser

PASSWORD = "a-long-pass-phrase-two-servers"
SETUP = f"""
from django.contrib.auth.models import User
from scoring.services.games import PlayerSetup, game_create
from scoring.rules.categories import During
owner = User.objects.create_user("club", password={PASSWORD!r})
game = game_create(players=[PlayerSetup(name) for name in ("Alice", "Bruno")], sectors=[],
                            owner=owner, during=During.BREAKDOWN)
print(game.public_id)
"""
STORED = """
import json
from scoring.models import Seat
print(json.dumps({seat.name: [seat.farm_income, seat.recruits] for seat in Seat.objects.filter(game__public_id=GAME)}))
"""


@pytest.fixture(scope="module")
def two_servers(postgres_url, tmp_path_factory):  # noqa: F811
    env = production_env(database_url=postgres_url, static_root=tmp_path_factory.mktemp("static"))
    manage(env, "migrate", "-v", "0")
    manage(env, "collectstatic", "--no-input", "-v", "0")
    game_id = manage(env, "shell", "-c", SETUP)
    servers, addresses = [], []
    try:
        for _ in range(2):
            port = free_port()
            servers.append(
                subprocess.Popen(
                    [sys.executable, "-m", "apiary_site.server", "127.0.0.1", str(port)],
                    cwd=ROOT,
                    env={**env, "SERVER_WORKERS": "1"},
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
            )
            addresses.append(f"http://127.0.0.1:{port}")
        for address in addresses:
            deadline = time.monotonic() + 30
            while True:
                try:
                    with urllib.request.urlopen(f"{address}/healthz", timeout=2) as answer:
                        assert answer.status == 200
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
        yield addresses, game_id, env
    finally:
        for server in servers:
            os.killpg(server.pid, signal.SIGINT)
            server.wait(timeout=20)


def phone_on(browser, phone, address: str):
    """A phone signed in on one server, through the sign-in form (its session lives in the database)."""
    context = browser.new_context(**phone)
    page = context.new_page()
    page.goto(f"{address}/accounts/login/")
    page.get_by_label("Username").fill("club")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(f"{address}/")
    return context, page


def test_two_phones_on_two_servers_score_one_game_together(browser, phone, two_servers):
    (first, second), game_id, env = two_servers
    context_a, phone_a = phone_on(browser, phone, first)
    context_b, phone_b = phone_on(browser, phone, second)
    try:
        phone_a.goto(f"{first}/games/{game_id}/")
        phone_b.goto(f"{second}/games/{game_id}/")

        field(phone_a, "farm_income", "Alice").fill("12")
        field(phone_b, "recruits", "Bruno").fill("3+4")
        wait_until_all_saved(phone_a)
        wait_until_all_saved(phone_b)

        # each sees the other's save, through its own server, by its next polls
        expect(field(phone_b, "farm_income", "Alice")).to_have_value("12", timeout=ANOTHER_PHONE_TIMEOUT_MS)
        expect(field(phone_a, "recruits", "Bruno")).to_have_value("3+4", timeout=ANOTHER_PHONE_TIMEOUT_MS)

        field(phone_a, "recruits", "Alice").fill("5")
        field(phone_b, "farm_income", "Bruno").fill("9")
        wait_until_all_saved(phone_a)
        wait_until_all_saved(phone_b)
        expect(field(phone_b, "recruits", "Alice")).to_have_value("5", timeout=ANOTHER_PHONE_TIMEOUT_MS)
        expect(field(phone_a, "farm_income", "Bruno")).to_have_value("9", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    finally:
        context_a.close()
        context_b.close()

    stored = json.loads(manage(env, "shell", "-c", STORED.replace("GAME", repr(game_id))))
    assert stored == {"Alice": [12, 5], "Bruno": [9, 7]}
