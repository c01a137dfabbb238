"""What the browser journeys need to find their way around the pages, as a player would: fields
by their accessible names, the steppers' buttons, a field's status and error, the banner."""

from __future__ import annotations

import re
from datetime import date

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Page, expect

from scoring.rules.categories import CATEGORY_BY_KEY, DURING_LABELS, During
from scoring.services.games import PlayerSetup, game_create

FLAG_KEYS = ("hive_mat_full",)
# A page hears of what another phone saved by polling, every 2 s (#live in templates/scoring/pad.html):
# the value shows within a poll or two, but a loaded machine (the suite's two CPUs shared, a server
# per phone) stretches that to several seconds. Every wait for a value saved elsewhere (another
# phone, another server) allows this long; none sleeps.
ANOTHER_PHONE_TIMEOUT_MS = 15_000
# A small phone, as the issue measures the pad: 360 x 780 CSS pixels.
SMALL_PHONE = {
    "viewport": {"width": 360, "height": 780},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


# A slow phone lays a page out before its modules have run (they never hold its first paint): with
# this init script, every document of a context is laid out as soon as it is parsed, before its
# modules run (readyState "interactive" comes between the two), as such a phone's would be.
LAID_OUT_BEFORE_ITS_SCRIPTS = """document.addEventListener("readystatechange", () => {
  if (document.readyState === "interactive") document.body.getBoundingClientRect();
});"""


def every_field_shown(page: Page) -> None:
    """Every field of the pad is on screen: each has a box (none left out of the page's layout)."""
    missing = page.evaluate(
        "[...document.querySelectorAll('[data-field]')].filter((el) => !el.checkVisibility()).map((el) => el.id)"
    )
    assert missing == [], f"fields with no box on the page: {missing}"


def label_of(key: str) -> str:
    return "Active workers" if key == "active_workers" else CATEGORY_BY_KEY[key].label


def field(page: Page, key: str, name: str):
    """A score field by its accessible name: "<category label>, <player name>"."""
    label = f"{label_of(key)}, {name}"
    if key in FLAG_KEYS:
        return page.get_by_role("checkbox", name=label, exact=True)
    return page.get_by_role("textbox", name=label, exact=True)


def tokens(page: Page, sector_number: int, name: str):
    return page.get_by_role("textbox", name=f"Tokens in sector {sector_number}, {name}", exact=True)


def plus(page: Page, input_id: str):
    """The "Add one" button of a stepper: the input's next sibling."""
    button = page.locator(f"#{input_id} + button")
    expect(button).to_have_accessible_name(re.compile(r"^Add one: "))
    return button


def minus(page: Page, input_id: str):
    """The "Remove one" button of a stepper: the input's previous sibling."""
    button = page.locator(f"#{input_id}").locator("xpath=preceding-sibling::button[1]")
    expect(button).to_have_accessible_name(re.compile(r"^Remove one: "))
    return button


def status(page: Page, name: str):
    return page.locator(f"#status-{name}")


def error(page: Page, name: str):
    """The message under a field's row, naming the player and the category."""
    return page.locator(f"#error-{name}")


def banner(page: Page):
    return page.locator("#banner")


def go_offline(context, browser_watch) -> None:
    """The phone loses the network while a value is typed: its save fails, and Chromium says so
    (as it must); a poll that falls in the seconds offline fails too, and htmx says so in two lines."""
    browser_watch.expect_console_error(r"net::ERR_INTERNET_DISCONNECTED \(\S+/save/\)$")
    browser_watch.allow_console_error(r"net::ERR_INTERNET_DISCONNECTED \(\S+/live/\)$")
    browser_watch.allow_console_error(r"^htmx:(afterRequest|sendError),")
    context.set_offline(True)


def back_online(context) -> None:
    """The phone's network is back, and its pages hear so, as a phone's pages do ("online"): the
    values waiting are sent at once. (Chromium's offline emulation fires "online" in some versions
    only: 156, not 150. Without it, the pad still sends them at its next retry, up to 8 s later.)"""
    context.set_offline(False)
    for page in context.pages:
        page.evaluate("window.dispatchEvent(new Event('online'))")


def pad_ready(page: Page) -> None:
    """The pad's script has set the page up: its fields are saved one by one and Enter moves on.
    (A click that lands on a pad returns once the page has begun to load, before its modules have
    run: a value typed and Entered sooner would be the page without JavaScript's, its whole form
    posted.) The script marks the pad first thing, and runs at once to its end."""
    expect(page.locator("[data-pad].live")).to_have_count(1)


def expect_saved(page: Page, name: str) -> None:
    expect(status(page, name)).to_contain_text("Saved")


def total(page: Page, name: str):
    return page.get_by_label(f"Total, {name}", exact=True)


def no_sideways_scroll(page: Page) -> None:
    """The page is no wider than the screen it is shown on: its viewport's width, not innerWidth,
    which a phone's browser widens to whatever overflows (issue 49: a page 408 px wide at 200%
    text passed, its innerWidth 408 too)."""
    screen = page.viewport_size["width"] if page.viewport_size else page.evaluate("screen.width")
    content = page.evaluate("document.documentElement.scrollWidth")
    assert content <= screen, f"{page.url} scrolls sideways: {content} px of content on a {screen} px screen"


def shoot(page: Page, folder, name: str) -> None:
    page.screenshot(path=folder / f"{name}.png", full_page=False)
    page.screenshot(path=folder / f"{name}-full.png", full_page=True)


HOST = "host"  # the account every journey's phone is signed in as (sign_in), unless it joins by a link
HOST_PASSWORD = "a-long-pass-phrase-for-the-host"
HOST_NAME = "Hana"  # the name the host is shown by to the table (never the login)


def host():
    """The journeys' account (made once per test database)."""
    user = User.objects.filter(username=HOST).first()
    return user or User.objects.create_user(HOST, password=HOST_PASSWORD, first_name=HOST_NAME)


def sign_in(context, base_url: str, user=None) -> None:
    """Sign a browser context in as ``user`` (the host by default): its session cookie, made by
    Django's test client, as signing in by the form would."""
    client = Client()
    client.force_login(user or host())
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": base_url}])


def make_game(
    names: list[str], sectors: list[tuple[int, int]] = (), owner=None, during: During = During.BREAKDOWN
) -> str:
    """A game as the start form makes it, its during-the-game points ``during`` (the breakdown
    unless told: starting VP 1, 2, 3…, every other entry empty), owned by the host; its public id
    (the address of its pages)."""
    game = game_create(
        players=[PlayerSetup(name) for name in names],
        sectors=list(sectors),
        played_on=date.today(),
        owner=owner or host(),
        during=during,
    )
    return game.public_id


def start_game(
    page: Page,
    base: str,
    names: list[str],
    sectors: list[tuple[int, int]],
    *,
    factions: list[str] | None = None,
    layout_name: str = "",
    solo: bool = False,
    during: During | None = None,
) -> str:
    """Fill the start form as a player would and land on the pad; the game's id. Its
    during-the-game points are counted as the form offers (the VP track) unless ``during`` says."""
    page.goto(f"{base}/games/new/")
    for number, name in enumerate(names, start=1):
        page.get_by_label(f"Player {number} name", exact=True).fill(name)
        if factions:
            page.get_by_label(f"Player {number} faction", exact=True).select_option(factions[number - 1])
    for number, (first, second) in enumerate(sectors, start=1):
        first_vp = page.get_by_label(f"Sector {number}, 1st place VP", exact=True)
        if not first_vp.is_visible():  # the form shows no empty row beyond those filled in: ask for one
            page.get_by_role("button", name="Add a sector").click()
        first_vp.fill(str(first))
        page.get_by_label(f"Sector {number}, 2nd place VP", exact=True).fill(str(second))
    if layout_name:
        page.get_by_label("Save this comb as", exact=True).fill(layout_name)
    if solo:
        page.get_by_label(re.compile(r"^Solo game")).check()
    if during is not None:
        page.get_by_role("radio", name=DURING_LABELS[during]).check()
    page.get_by_role("button", name="Start scoring").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+/$"))
    pad_ready(page)
    return re.search(r"/games/([\w-]+)/$", page.url).group(1)


def refused_save(status: int) -> str:
    """What Chromium logs as a console error when the server refuses a save with ``status`` (a
    pattern for ``browser_watch.expect_console_error``): "Failed to load resource: the server
    responded with a status of 422 (Unprocessable Content)", from the game's /save/ address."""
    return rf"the server responded with a status of {status} \([^)]+\) \(\S+/save/\)$"


def wait_until_all_saved(page: Page) -> None:
    """Nothing typed on this page is waiting to be saved (no field marked unsaved)."""
    expect(page.locator("#pad .unsaved")).to_have_count(0)


# Rules axe-core leaves off by default that every run here asks for: WCAG 2.2's target size
# (2.5.8: a tap target at least 24 x 24 CSS px, or spaced so that a 24 px circle around it
# touches no other target).
AXE_RULES = {"target-size": {"enabled": True}}

# While axe-core runs, the bars with buttons that stick to the top or the bottom of the screen
# (the pad's names and +/- bar, the start form's Start button) sit in their own place in the page:
# where they stick, they cover whatever the page is scrolled under them, and axe-core's target
# size counts a field partly under a bar's button as a target too small, at one scroll position
# and not at the next. A target's size and spacing are the page's, whatever the scroll; that a
# focused field is never hidden under a bar is app.css's scroll-margin. (A sticky element keeps
# its room in the page: laid in place, nothing else moves. The bars set in place are none that
# htmx swaps, which would copy their style attribute, refused by the page's CSP.)
TARGETS = "a[href], button, input, select, textarea, summary"
UNSTICK = f"""() => [...document.querySelectorAll('body *')]
  .filter((el) => getComputedStyle(el).position === 'sticky' && el.querySelector('{TARGETS}'))
  .map((el) => {{ el.style.position = 'static'; return el; }})"""
RESTICK = """(els) => els.forEach((el) => {
  el.style.removeProperty('position');
  if (!el.getAttribute('style')) el.removeAttribute('style');
})"""


def axe_violations(page: Page, name: str = "", *, rules: dict | None = None) -> list[str]:
    """What axe-core finds on the page, one line a violation (which rule, how many elements, one of
    them), each led by ``name`` when given; ``rules`` switches more rules on or off beside the
    defaults and ``AXE_RULES``. The sticky bars sit in their own place meanwhile (``UNSTICK``)."""
    from axe_playwright_python.sync_playwright import DEFAULT_OPTIONS, Axe

    options = {**DEFAULT_OPTIONS, "rules": {**AXE_RULES, **(rules or {})}}
    unstuck = page.evaluate_handle(UNSTICK)
    try:
        found = Axe().run(page, options=options).response["violations"]
    finally:
        unstuck.evaluate(RESTICK)
        unstuck.dispose()
    lead = f"{name}: " if name else ""
    return [f"{lead}{v['id']}: {v['help']} ({len(v['nodes'])}× e.g. {v['nodes'][0]['target']})" for v in found]
