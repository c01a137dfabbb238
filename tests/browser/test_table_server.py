"""The table's own server (issue 46): the app as ``make run`` starts it on a laptop
(``python -m apiary_site.table``, what scripts/run.sh runs once .venv is made), and the phones
around the table reaching it over the home network.

The laptop's browser opens the pad at 127.0.0.1; a phone reaches the laptop only by its address on
the network. Here that address is a name, table.lan, which the phone's own Chromium maps to
127.0.0.2 (``--host-resolver-rules``): every byte stays on this machine's loopback, and the phone
sees what a real phone on a home network sees, an insecure context (a browser counts every 127.x
address and localhost as secure, never a network name over plain HTTP). Every request either
browser makes is refused unless it goes to the table's own server: the table needs no internet.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import stat
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, DEFAULT_TIMEOUT_MS
from tests.browser.pad_helpers import ANOTHER_PHONE_TIMEOUT_MS, field, start_game, status
from tests.support.deployment import ROOT, free_port, wait_until_serving

pytestmark = pytest.mark.browser

NETWORK_NAME = "table.lan"  # the laptop's address on the network, as the phone reaches it
NETWORK_ADDRESS = "127.0.0.2"
STARTED_WITHIN = 120  # seconds: migrating a new database and collecting the static files first


class TableServer:
    """``python -m apiary_site.table`` in a process group of its own (as a terminal runs
    ``make run``), on a database, a static folder and a key file of ``folder``; ``stop`` is
    Ctrl-C."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.output = folder / "terminal.txt"

    @property
    def env(self) -> dict[str, str]:
        kept = {
            key: value
            for key, value in os.environ.items()
            if key not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "HTTPS", "DJANGO_SETTINGS_MODULE"}
        }
        return {
            **kept,
            "DATABASE_URL": f"sqlite:///{self.folder / 'table.sqlite3'}",
            "STATIC_ROOT": str(self.folder / "static"),
            "SECRET_KEY_FILE": str(self.folder / "secret-key"),
            "HOST": "0.0.0.0",  # (as make run: every interface; the test talks to loopback only)
            "PORT": str(self.port),
            "TABLE_ADDRESS": NETWORK_NAME,
        }

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> TableServer:
        with self.output.open("wb") as terminal:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "apiary_site.table"],
                cwd=ROOT,
                env=self.env,
                stdout=terminal,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_until_serving(self.process, self.output, self.port, workers=2, within=STARTED_WITHIN)
        return self

    def terminal(self) -> str:
        return self.output.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> int:
        """Ctrl-C, as a terminal sends it to the whole foreground group; the exit status."""
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process else 0
        os.killpg(self.process.pid, signal.SIGINT)
        return self.process.wait(timeout=30)


def status_of(url: str, host: str | None = None) -> int | None:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status
    except urllib.error.HTTPError as refused:
        return refused.code
    except OSError:
        return None


def listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture(scope="module")
def table_server(tmp_path_factory) -> Iterator[TableServer]:
    server = TableServer(tmp_path_factory.mktemp("table")).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def network_phone(playwright_session, phone, browser_watch):
    """A phone on the home network: a Chromium of its own that reaches the laptop by its network
    name only, watched as every journey's pages are."""
    chromium = playwright_session.chromium.launch(
        executable_path=CHROMIUM,
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {NETWORK_NAME} {NETWORK_ADDRESS}"],
        headless=True,
    )
    context = chromium.new_context(**phone)
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    browser_watch.watch(context)
    try:
        yield context
    finally:
        context.close()
        chromium.close()


def refuse_the_internet(context, origin: str) -> list[str]:
    """Every request of ``context`` that leaves ``origin`` is refused, and listed."""
    left: list[str] = []

    def only_the_table(route) -> None:
        url = route.request.url
        if url.startswith(("data:", "blob:")) or f"{urlsplit(url).scheme}://{urlsplit(url).netloc}" == origin:
            route.continue_()
        else:
            left.append(url)
            route.abort()

    context.route("**/*", only_the_table)
    return left


def test_make_run_prints_the_phones_address_and_its_qr_code_and_keeps_its_key(table_server):
    """The terminal says the address to open on the phones, with its QR code; the key it made is
    readable by its owner only."""
    terminal = table_server.terminal()
    assert f"\n    http://{NETWORK_NAME}:{table_server.port}/\n" in terminal
    assert re.search(r"^[█▀▄ ]{20,}$", terminal, re.MULTILINE), "no QR code drawn in the terminal"
    key = table_server.folder / "secret-key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_text().strip()) >= 50


def test_a_missing_page_is_the_sites_own_and_another_host_is_refused(table_server):
    """DEBUG is off: a missing page is the site's own 404, not Django's debug page; the network's
    name is answered, and a request naming another host is refused, as in production."""
    try:
        urllib.request.urlopen(f"{table_server.url}/no/such/page/", timeout=5)
    except urllib.error.HTTPError as missing:
        page = missing.read().decode()
        assert missing.code == 404
        assert "Using the URLconf" not in page and "Apiary Scorepad" in page
    else:
        raise AssertionError("a missing page was found")
    assert status_of(f"{table_server.url}/healthz", host=f"{NETWORK_NAME}:{table_server.port}") == 200
    assert status_of(f"{table_server.url}/", host="elsewhere.example") == 400


def test_a_phone_on_the_network_joins_from_the_hosts_link_and_scores(browser, phone, table_server, network_phone):
    """The host's browser on the laptop (127.0.0.1) starts a game and opens *Score together*: the
    link and its QR code carry the network's address, not 127.0.0.1. A phone that reaches the
    laptop only by that address, an insecure context with no service worker, opens it, says it is
    Bruno and scores; the host sees Bruno's value arrive, and the phone sees Alice's. Nothing
    either loads comes from anywhere but the laptop."""
    network = f"http://{NETWORK_NAME}:{table_server.port}"
    host_context = browser.new_context(**phone)
    host_left = refuse_the_internet(host_context, table_server.url)
    phone_left = refuse_the_internet(network_phone, network)
    host = host_context.new_page()
    game_id = start_game(host, table_server.url, ["Alice", "Bruno"], [(9, 4)])

    host.get_by_role("button", name="Score together").click()
    card = host.locator(".share-link").filter(has_text="Edit link")
    expect(card.get_by_role("img", name=re.compile("QR code"))).to_be_visible()
    address = card.locator(".share-url a").inner_text()
    assert address.startswith(f"{network}/join/"), address

    mate: Page = network_phone.new_page()
    mate.goto(address)
    assert mate.evaluate("window.isSecureContext") is False  # as on a phone on a home network
    assert mate.evaluate("'serviceWorker' in navigator") is False
    mate.get_by_role("button", name="Bruno", exact=True).click()
    expect(mate).to_have_url(f"{network}/games/{game_id}/?player=2")
    field(mate, "farms", "Bruno").fill("7")
    expect(status(mate, "s2-farms")).to_contain_text("Saved")
    expect(field(host, "farms", "Bruno")).to_have_value("7", timeout=ANOTHER_PHONE_TIMEOUT_MS)

    field(host, "farms", "Alice").fill("5")
    expect(status(host, "s1-farms")).to_contain_text("Saved")
    mate.goto(f"{network}/games/{game_id}/")
    expect(field(mate, "farms", "Alice")).to_have_value("5")

    assert host_left == [] and phone_left == []


def test_a_restart_keeps_a_visitors_game_and_ctrl_c_leaves_nothing_listening(browser, phone, browser_watch, tmp_path):
    """A visitor's game is theirs by their session alone: after Ctrl-C and ``make run`` again (the
    same key, kept in its file), the visitor's phone still opens it. Ctrl-C leaves no process
    of the server and nothing listening on its port."""
    # The pad polls while the server is stopped: Chromium and htmx say so (as they must).
    browser_watch.allow_console_error(r"net::ERR_CONNECTION_REFUSED \(\S+/live/\)$")
    browser_watch.allow_console_error(r"^htmx:(afterRequest|sendError),")
    server = TableServer(tmp_path).start()
    try:
        visitor = browser.new_context(**phone).new_page()
        game_id = start_game(visitor, server.url, ["Alice"], [])
        field(visitor, "farms", "Alice").fill("3")
        expect(status(visitor, "s1-farms")).to_contain_text("Saved")

        server.stop()
        assert not listening(server.port)
        assert subprocess.run(["pgrep", "-g", str(server.process.pid)], capture_output=True).returncode == 1

        server.start()
        visitor.goto(f"{server.url}/games/{game_id}/")
        expect(field(visitor, "farms", "Alice")).to_have_value("3")
    finally:
        server.stop()
