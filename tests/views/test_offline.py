"""Specification of what the service worker needs from the server (``scoring/views/offline.py``):
the worker itself, served from the root and never from a cache, with the files it keeps and how
long it waits for the network; the pages it may keep a copy of (the pads and the history, as
their GET answers say: for which session, and until when), and every page's session tag. Its
behaviour in the browser is ``tests/browser/test_offline.py``."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from urllib.parse import urljoin

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.actors import SESSION_TAG
from scoring.services.sharing import link_renew
from scoring.views import offline, protocol
from scoring.web import bundles, modules
from tests.support.factories import game_scored, player
from tests.support.pages import markup, url
from tests.support.pages import page as parsed

pytestmark = pytest.mark.django_db

# What a module imports: ``import … from "./x.js"``, ``export … from "./x.js"``, ``import("./x.js")``.
IMPORTS = re.compile(r"""\b(?:from|import)\s*\(?\s*["'](\.{1,2}/[^"']+)["']""")


def kept_urls(client) -> list[str]:
    """The addresses of the static files the service worker keeps, as it says them."""
    kept = re.search(r"STATIC_URLS = \[(.*?)\];", client.get("/sw.js").content.decode())[1]
    return re.findall(r'"([^"]+)"', kept)


def test_the_service_worker_is_served_from_the_root_as_a_script_never_cached(client):
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"] and "max-age=0" in response["Cache-Control"]
    assert reverse("service_worker") == "/sw.js"  # its scope: every page


def test_the_service_worker_keeps_every_static_file_a_page_needs_and_they_exist(client):
    urls = kept_urls(client)
    assert len(urls) == len(offline.KEPT_STATIC)
    for path in offline.KEPT_STATIC:
        assert finders.find(path), path
    game = game_scored(player("Alice"), player("Bruno"))
    for kept_page in (url("history"), url("pad", game.public_id)):
        html = markup(client.get(kept_page))
        # (the apple-touch-icon is fetched only as the app is put on an iPhone's home screen: online)
        linked = re.findall(r'<(?:link|script)(?![^>]*apple-touch-icon)[^>]*(?:href|src)="(/static/[^"]+)"', html)
        assert linked
        for static_url in linked:
            assert static_url in urls, f"{static_url} is not kept: an offline copy of {kept_page} would open without it"


def test_the_service_worker_keeps_every_module_of_the_phone_side():
    found = {
        path.relative_to(settings.BASE_DIR / "static").as_posix()
        for path in (settings.BASE_DIR / "static" / "scoring").rglob("*.js")
    }

    assert "scoring/offline.js" in found
    assert found - set(offline.KEPT_STATIC) == modules.INLINE_SCRIPTS  # (written into the page that runs them)


@pytest.fixture
def collected(settings, tmp_path):
    """The static files as production serves them (apiary_site/storage.py: named by their
    content's hash, the modules' imports too), collected into a folder of this test's own."""
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": "apiary_site.storage.StaticFilesStorage"}}
    call_command("collectstatic", interactive=False, verbosity=0)
    modules.inline_text.cache_clear()  # (read again from these files, and not kept for another test)
    yield tmp_path
    modules.inline_text.cache_clear()


def test_under_the_production_storage_every_module_a_kept_page_imports_is_kept(client, collected):
    """In production the static files are named by their content's hash (apiary_site/storage.py),
    the modules' imports too: the service worker keeps the very files a module imports."""
    urls = kept_urls(client)

    imports = []
    for path in offline.kept_static():
        if path.startswith("scoring/") and path.endswith(".js"):
            source = (collected / staticfiles_storage.stored_name(path)).read_text(encoding="utf-8")
            imports += [(path, imported, urljoin(static(path), imported)) for imported in IMPORTS.findall(source)]
    assert any(path == "scoring/bundles/pad.js" for path, _, _ in imports)  # (the modules' bundles, in production)
    for path, imported, imported_url in imports:
        assert imported_url in urls, f"{path} imports {imported}, which the service worker does not keep"


def test_the_sites_scripts_and_stylesheets_are_sent_minified_and_a_librarys_as_it_comes(settings, collected):
    """Issue 51: a fifth of the modules' lines were comments, sent to every phone. Collected for
    production, the site's own scripts and stylesheets are minified (apiary_site/storage.py), their
    imports still hashed; htmx, minified by its makers, is stored as it comes."""
    for path in ("scoring/pad.js", "scoring/live.js", "scoring/app.css"):
        source = (settings.BASE_DIR / "static" / path).read_text(encoding="utf-8")
        sent = (collected / staticfiles_storage.stored_name(path)).read_text(encoding="utf-8")
        assert len(sent) < 0.8 * len(source), path
        assert source.splitlines()[0] not in sent, path  # (each file opens with a comment saying what it is)
    live = (collected / staticfiles_storage.stored_name("scoring/live.js")).read_text(encoding="utf-8")
    assert re.search(r'from\s*"\./answers\.[0-9a-f]{12}\.js"', live)
    htmx = "django_htmx/htmx-2.min.js"
    stored = (collected / staticfiles_storage.stored_name(htmx)).read_bytes()
    with open(finders.find(htmx), "rb") as library:
        assert stored == library.read()


def test_the_pad_writes_its_first_paint_script_into_itself_as_collected(client, collected):
    """Issue 51: first-paint.js, a classic script fetched where it stands, held a slow phone's
    first paint of the pad by a round trip. The pad writes it into itself, as collected
    (minified, its comments left out), allowed by the page's nonce; nothing fetches it."""
    game = game_scored(player("Alice"), player("Bruno"))
    source = (settings.BASE_DIR / "static" / "scoring" / "first-paint.js").read_text(encoding="utf-8")

    pad = client.get(url("pad", game.public_id))
    written = parsed(pad).one("script", data_script="scoring/first-paint.js")
    text = "".join(written.children)
    assert f"'nonce-{written['nonce']}'" in pad["Content-Security-Policy"]
    assert "localStorage.getItem" in text and source.splitlines()[0] not in text
    assert "first-paint" not in " ".join(re.findall(r'(?:src|href)="([^"]+)"', markup(pad)))


def test_only_a_listed_script_is_written_into_a_page():
    with pytest.raises(ValueError, match="INLINE_SCRIPTS"):
        modules.inline_text("scoring/pad.js")


def test_a_page_announces_at_once_every_module_its_scripts_import(client, settings, collected):
    """Issue 34: a phone found the pad's modules one import at a time (19 requests, each waiting
    on the module before it). Each page's head now announces every module its scripts import,
    through other modules too (``<link rel="modulepreload">``, ``{% module_script %}``), each once
    and before the script that needs it, by the very (hashed) address the import asks for."""
    game = game_scored(player("Alice"), player("Bruno"))

    def imported_by(script_url: str) -> set[str]:
        source = (collected / script_url.removeprefix(settings.STATIC_URL)).read_text(encoding="utf-8")
        found = {urljoin(script_url, imported) for imported in IMPORTS.findall(source)}
        return found.union(*(imported_by(module) for module in found))

    for page in (url("pad", game.public_id), url("table", game.public_id), url("start"), url("history")):
        head = markup(client.get(page)).split("</head>")[0]
        tags = re.findall(r'<(script type="module" src|link rel="modulepreload" href)="([^"]+)"', head)
        announced = [address for tag, address in tags if tag.startswith("link")]
        assert len(announced) == len(set(announced)), page
        for index, (tag, address) in enumerate(tags):
            if tag.startswith("script"):
                before = {earlier for _tag, earlier in tags[:index]}
                assert imported_by(address) <= before, f"{page}: {address} imports a module not announced before it"
        assert set(announced) <= set().union(*(imported_by(a) for tag, a in tags if tag.startswith("script"))), page
    assert "scoring/store.js" in bundles.imports_of("scoring/pad.js")  # (through offline.js too)


def test_a_new_version_of_a_kept_file_is_a_new_service_worker(client, monkeypatch):
    before = re.search(r'VERSION = "(\w+)";', client.get("/sw.js").content.decode())[1]
    offline._version.cache_clear()
    monkeypatch.setattr(offline, "KEPT_STATIC", (*offline.KEPT_STATIC[1:], offline.KEPT_STATIC[0]))
    try:
        after = re.search(r'VERSION = "(\w+)";', client.get("/sw.js").content.decode())[1]
    finally:
        offline._version.cache_clear()
    assert before != after


def test_the_service_worker_waits_for_the_network_as_long_as_the_settings_say(client, settings):
    settings.PAD_NETWORK_WAIT_MS = 1234

    assert "const WAIT_MS = 1234;" in client.get("/sw.js").content.decode()


def test_the_service_worker_answers_head_as_get(client):
    assert client.head("/sw.js").status_code == 200
    assert client.post("/sw.js").status_code == 405


def test_the_pad_and_the_history_may_be_kept_for_this_session_until_it_expires_and_nothing_else(client):
    game = game_scored(player("Alice"), player("Bruno"))
    expiry = timezone.now().replace(microsecond=0) + timedelta(hours=2)  # (sooner than the cap)
    session = client.session
    session.set_expiry(expiry)
    session.save()

    for kept_page in (url("pad", game.public_id), url("history")):
        response = client.get(kept_page)
        tag = client.session[SESSION_TAG]
        assert tag
        assert response[protocol.KEEP_HEADER] == tag, kept_page
        assert response[protocol.KEEP_UNTIL_HEADER] == str(int(expiry.timestamp())), kept_page
    for other in (url("results", game.public_id), url("start"), url("statistics"), url("players")):
        response = client.get(other)
        assert protocol.KEEP_HEADER not in response, other
        assert protocol.KEEP_UNTIL_HEADER not in response, other


def test_a_copy_opens_offline_at_most_offline_copy_seconds_after_it_was_kept(client, settings):
    """A session of two weeks (or a visitor's year) may end on another device: a copy is capped."""
    settings.OFFLINE_COPY_SECONDS = 3600
    session = client.session
    session.set_expiry(datetime(2031, 5, 4, 20, 15, tzinfo=UTC))
    session.save()

    before = int(timezone.now().timestamp())
    until = int(client.get(url("history"))[protocol.KEEP_UNTIL_HEADER])
    after = int(timezone.now().timestamp())

    assert before + 3600 <= until <= after + 3600


def test_the_links_addresses_are_never_in_a_kept_copy(client):
    """The owner's pad names its live links without their addresses (kept offline); Score together
    opens them (``?shared=1``), a page the phone never keeps."""
    game = game_scored(player("Alice"), player("Bruno"))
    link = link_renew(game=game, access="edit")

    kept = client.get(url("pad", game.public_id))
    shown = client.get(url("pad", game.public_id) + "?shared=1")

    assert protocol.KEEP_HEADER in kept and link.token not in markup(kept)
    assert parsed(kept).by_id("share").one("a")["href"] == url("pad", game.public_id) + "?shared=1#share"
    assert protocol.KEEP_HEADER not in shown and link.token in markup(shown)


def test_every_page_says_its_sessions_tag(client):
    game = game_scored(player("Alice"), player("Bruno"))
    client.get(url("history"))  # (a page that may be kept gives the session its tag)
    tag = client.session[SESSION_TAG]

    for page in (
        url("history"),
        url("pad", game.public_id),
        url("results", game.public_id),
        url("start"),
        url("players"),
        reverse("password_change"),
        "/no-such-page/",
    ):
        assert client.get(page)[protocol.TAG_HEADER] == tag, page
    for not_a_page in ("/sw.js", "/healthz", reverse("manifest")):
        assert protocol.TAG_HEADER not in client.get(not_a_page), not_a_page


def test_a_page_of_no_session_says_an_empty_tag():
    assert Client().get(reverse("login"))[protocol.TAG_HEADER] == ""


def test_a_session_ended_by_a_password_changed_elsewhere_is_told_and_keeps_nothing(client, owner):
    client.get(url("history"))
    owner.set_password("a-new-pass-phrase-set-on-another-device")
    owner.save()

    response = client.get(url("history"))  # (signed out by this request: the session ends)
    assert response[protocol.TAG_HEADER] == ""
    assert protocol.KEEP_HEADER not in response


def test_a_save_posted_without_javascript_is_never_kept(client):
    game = game_scored(player("Alice"), player("Bruno"))

    response = client.post(url("pad", game.public_id), {"s1-farm_income": "3"})
    assert protocol.KEEP_HEADER not in response
