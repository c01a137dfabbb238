"""The app installable on a phone's home screen, as Chromium sees it: the page links a manifest
that the browser reads without error, whose icons load at the sizes they declare, and Chromium
finds nothing that stops it from offering "Install" (what Lighthouse's installability check asks
Chromium, through the same DevTools call; there is no Lighthouse here). The installed app is named
in the language chosen on the phone.

What the manifest says, member by member, is tests/views/test_install.py.
"""

from __future__ import annotations

import json
import tempfile

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, DEFAULT_TIMEOUT_MS

pytestmark = pytest.mark.browser

# Loads an image the way a page would (the policy's img-src applies) and tells its size in pixels.
IMAGE_SIZE = """async (source) => {
  const image = new Image();
  image.src = source;
  await image.decode();
  return `${image.naturalWidth}x${image.naturalHeight}`;
}"""


@pytest.fixture
def visitor(browser, phone, live_server) -> Page:
    """A phone signed in as nobody, on the home page."""
    from scoring.web.limits import counters_clear

    counters_clear()
    page = browser.new_page(**phone)
    page.goto(live_server.url + "/")
    return page


def manifest_of(page: Page) -> dict:
    """The manifest the page links, fetched from the page as the browser fetches it (without the
    page's cookies: its address names the page's language), with its address and type."""
    return page.evaluate("""async () => {
      const link = document.querySelector('link[rel="manifest"]');
      const answer = await fetch(link.href, {credentials: "omit"});
      return {address: answer.url, status: answer.status, type: answer.headers.get("Content-Type"),
              manifest: await answer.json()};
    }""")


def chromium_reads(page: Page) -> dict:
    """The manifest as Chromium itself fetched and parsed it for the page (DevTools' Page.getAppManifest)."""
    answer = page.context.new_cdp_session(page).send("Page.getAppManifest")
    assert answer["errors"] == [], answer["errors"]
    return json.loads(answer["data"])


def test_the_page_links_a_manifest_that_says_what_installing_needs(visitor, live_server):
    fetched = manifest_of(visitor)
    manifest = fetched["manifest"]

    assert fetched["address"] == live_server.url + "/manifest.webmanifest?lang=en"  # (the page's language)
    assert fetched["status"] == 200 and fetched["type"].startswith("application/manifest+json")
    assert manifest["name"] == "Apiary Scorepad" and manifest["short_name"] == "Apiary"
    assert manifest["start_url"] == manifest["scope"] == "/" and manifest["display"] == "standalone"
    offered = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")} <= offered


def test_every_icon_of_the_manifest_loads_in_the_browser_at_the_size_it_declares(visitor):
    for icon in manifest_of(visitor)["manifest"]["icons"]:
        assert visitor.evaluate(IMAGE_SIZE, icon["src"]) == icon["sizes"], icon


def test_every_icon_the_page_links_loads_in_the_browser(visitor):
    """The tab's icons (the SVG and its PNG) and iOS's home-screen icon, each at the size it declares."""
    links = visitor.locator('link[rel="icon"], link[rel="apple-touch-icon"]')
    expect(links).to_have_count(3)
    for link in links.all():
        size = visitor.evaluate(IMAGE_SIZE, link.get_attribute("href"))
        assert size == (link.get_attribute("sizes") or size), link.get_attribute("href")
        assert size != "0x0", link.get_attribute("href")


def test_chromium_reads_the_manifest_without_error_and_would_offer_to_install_the_app(
    playwright_session, phone, live_server, browser, browser_watch
):
    """Chromium answers Lighthouse's question itself (Page.getInstallabilityErrors). It refuses to
    install from a private window, which every context of the shared browser is: this check opens
    a browser with a profile of its own, watched as every page of the journeys is."""
    from scoring.web.limits import counters_clear

    counters_clear()
    options = {name: value for name, value in phone.items() if name != "default_browser_type"}
    with tempfile.TemporaryDirectory() as profile:
        context = playwright_session.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, **options
        )
        try:
            context.set_default_timeout(DEFAULT_TIMEOUT_MS)
            browser_watch.watch(context)
            page = context.new_page()
            page.goto(live_server.url + "/")

            manifest = chromium_reads(page)
            errors = context.new_cdp_session(page).send("Page.getInstallabilityErrors")["installabilityErrors"]
        finally:
            context.close()

    assert manifest["name"] == "Apiary Scorepad"
    assert errors == []


def test_the_app_is_named_in_the_language_chosen_with_the_switch(visitor):
    """The phone speaks English; one tap on the switch, and the app it would install is named in French."""
    assert chromium_reads(visitor)["name"] == "Apiary Scorepad"

    visitor.locator(".language-switch button[value=fr]").click()
    expect(visitor.locator("html")).to_have_attribute("lang", "fr")

    manifest = chromium_reads(visitor)
    assert (manifest["name"], manifest["short_name"], manifest["lang"]) == ("Bloc de score Apiary", "Apiary", "fr")


def test_a_phone_that_speaks_french_installs_the_app_named_in_french(browser, phone, live_server):
    page = browser.new_page(**phone, locale="fr-FR")
    page.goto(live_server.url + "/")

    manifest = chromium_reads(page)

    assert (manifest["name"], manifest["lang"]) == ("Bloc de score Apiary", "fr")
    assert manifest["description"].startswith("Comptez les points de vos parties d’Apiary")
