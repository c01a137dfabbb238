"""*Table view*: the standings turned towards the table, or on a tablet in the middle. Every
player's name, rank and total large enough to read from across the table (the totals at least
48 CSS px on a phone), every name whole, how far each stands from the lead, live as values arrive,
light and dark, in English and French; and the screen stays awake while it is shown."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Game, Seat
from scoring.services.finishing import game_finish
from tests.browser.pad_helpers import ANOTHER_PHONE_TIMEOUT_MS, axe_violations, field, make_game, sign_in
from tests.support.factories import save_value

pytestmark = pytest.mark.browser

FIVE = ["Dominique-Alexandre", "Emmanuelle", "Bo", "Marie-Charlotte", "Zoé"]

MEASURES = """() => [...document.querySelectorAll('.standing')].map((row) => {
  const name = row.querySelector('.standing-name'), total = row.querySelector('.standing-total');
  const box = (el) => el.getBoundingClientRect();
  return {name: name.textContent.trim(),
          nameWhole: name.scrollWidth <= name.clientWidth && box(name).right <= innerWidth,
          total: parseFloat(getComputedStyle(total).fontSize), totalHeight: box(total).height,
          inside: box(row).left >= 0 && box(row).right <= innerWidth};
})"""


def five_scored(farm_income: list[int]) -> str:
    """The game of the five long names, each player's farm income as given (seat order): its id."""
    game_id = make_game(FIVE)
    for number, points in enumerate(farm_income, start=1):
        save_value(seat=Seat.objects.get(game__public_id=game_id, number=number), key="farm_income", value=points)
    return game_id


@pytest.mark.parametrize(
    ("width", "locale", "scheme"),
    # The narrowest phone with the longer words (French), and a wider one in English: light and dark.
    [(360, "fr-FR", "dark"), (412, "en-GB", "light")],
)
def test_five_players_standings_read_from_across_the_table(browser, live_server, width, locale, scheme):
    """Every name whole and every total large on the table view; nothing for axe-core to find
    (tap targets included: issue 34) there, on the pad and on the results, light and dark."""
    context = browser.new_context(
        viewport={"width": width, "height": 800},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale=locale,
        color_scheme=scheme,
    )
    sign_in(context, live_server.url)
    page = context.new_page()
    game_id = five_scored([88, 102, 95, 102, 61])
    page.goto(f"{live_server.url}/games/{game_id}/")
    assert not axe_violations(page, f"the pad at {width} px, {locale}, {scheme}")  # (target-size included)
    page.get_by_role("link", name="Table view" if locale.startswith("en") else "Vue de la table").click()
    page.wait_for_url(f"**/games/{game_id}/table/")  # (loaded, its stylesheet too: measured before, a total is 16 px)

    rows = page.evaluate(MEASURES)
    assert [row["name"] for row in rows] == ["Marie-Charlotte", "Emmanuelle", "Bo", "Dominique-Alexandre", "Zoé"]
    for row in rows:
        assert row["total"] >= 48 and row["totalHeight"] >= 48, row
        assert row["nameWhole"] and row["inside"], row
    gaps = page.locator(".standing-gap")  # (totals: 106, 104, 98, 89 and 66, the starting VP included)
    if locale.startswith("en"):
        expect(gaps.nth(0)).to_have_text("leads by 2\u00a0VP")
        expect(gaps.nth(2)).to_have_text("8\u00a0VP behind")
    else:
        expect(gaps.nth(0)).to_have_text("mène de 2\u00a0PV")  # (a figure and its unit never parted)
        expect(gaps.nth(2)).to_have_text("8\u00a0PV de retard")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert not axe_violations(page, f"the table's view at {width} px, {locale}, {scheme}")
    page.goto(f"{live_server.url}/games/{game_id}/results/")
    assert not axe_violations(page, f"the results at {width} px, {locale}, {scheme}")


@pytest.mark.parametrize(("width", "height", "locale"), [(844, 390, "fr-FR"), (1180, 820, "en-GB")])
def test_turned_landscape_in_the_middle_of_the_table_the_standings_stand_side_by_side(
    browser, live_server, width, height, locale
):
    """Issue 36, point 14: a phone on its side or a tablet in the middle of the table shows the
    players side by side, each total and how far it stands from the lead large enough to read
    from the far side, every name whole, nothing off the screen, nothing for axe-core to find."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    sign_in(context, live_server.url)
    page = context.new_page()
    game_id = five_scored([88, 102, 95, 102, 61])
    page.goto(f"{live_server.url}/games/{game_id}/table/")

    rows = page.evaluate(MEASURES)
    tops = page.evaluate("[...document.querySelectorAll('.standing')].map((row) => row.getBoundingClientRect().top)")
    gaps = page.evaluate(
        "[...document.querySelectorAll('.standing-gap')].map((gap) => parseFloat(getComputedStyle(gap).fontSize))"
    )
    assert len(set(tops)) == 1, f"the standings stand side by side: {tops}"
    for row in rows:
        assert row["total"] >= 48 and row["nameWhole"] and row["inside"], row
    assert min(gaps) >= 19, gaps
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert not axe_violations(page, f"the table's view turned landscape, {width} x {height}, {locale}")
    context.close()


LAYOUT = """() => {
  const box = (el) => el.getBoundingClientRect();
  const apart = (a, b) => a.right <= b.left + 0.5 || b.right <= a.left + 0.5 || a.bottom <= b.top + 0.5
    || b.bottom <= a.top + 0.5;
  const rows = [...document.querySelectorAll('.standing')].map((row) => {
    const parts = ['.standing-rank', '.standing-name', '.standing-gap', '.standing-total']
      .map((selector) => row.querySelector(selector)).filter(Boolean);
    const overlaps = [];
    parts.forEach((a, i) => parts.slice(i + 1).forEach((b) => {
      if (!apart(box(a), box(b))) overlaps.push(`${a.className} over ${b.className}`);
    }));
    const name = row.querySelector('.standing-name');
    return {name: name.textContent.trim(), overlaps,
            nameSize: parseFloat(getComputedStyle(name.querySelector('bdi')).fontSize),
            nameWhole: name.scrollWidth <= name.clientWidth && box(name).right <= innerWidth,
            inside: box(row).left >= 0 && box(row).right <= innerWidth};
  });
  return {rows, used: box(document.querySelector('.standing-list')).width / innerWidth,
          sideways: document.documentElement.scrollWidth > innerWidth};
}"""


def test_the_table_view_uses_the_screen_it_is_on_at_every_width_and_orientation(browser, live_server):
    """Issue 49, point 3: on an upright tablet (820 x 1180) the standings sat in a 464 px column,
    names shrank to 17 px, "leads on the tie-break" went a word a line and "6\u00a0VP behind" overlapped
    "107". From 360 to 1,366 px in both orientations: the standings take the screen's width (a
    phone's is all of it), nothing overlaps, every name is whole (on a tablet at least as large
    as on a phone upright), nothing scrolls sideways."""
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="fr-FR")
    sign_in(context, live_server.url)
    page = context.new_page()
    game_id = five_scored([88, 107, 95, 101, 61])
    page.goto(f"{live_server.url}/games/{game_id}/table/")
    on_a_phone = {row["name"]: row["nameSize"] for row in page.evaluate(LAYOUT)["rows"]}

    for width, height in [(412, 915), (600, 960), (820, 1180), (1180, 820), (768, 1024), (1024, 768), (1024, 1366),
                          (1366, 1024), (844, 390)]:  # fmt: skip
        page.set_viewport_size({"width": width, "height": height})
        layout = page.evaluate(LAYOUT)
        where = f"{width} x {height}"
        assert not layout["sideways"], where
        assert layout["used"] >= 0.9, (where, layout["used"])
        for row in layout["rows"]:
            assert row["overlaps"] == [] and row["nameWhole"] and row["inside"], (where, row)
            if min(width, height) >= 600:  # a tablet (a phone on its side shares its width among five)
                assert row["nameSize"] >= on_a_phone[row["name"]], (where, row, on_a_phone)
    context.close()


WAKE_LOCK = """
window.wakeLocks = [];
Object.defineProperty(Navigator.prototype, "wakeLock", {configurable: true, get: () => ({
  request: (type) => {
    const lock = {type, released: false, listeners: [],
                  addEventListener(name, listener) { this.listeners.push(listener); },
                  release() { this.released = true; return Promise.resolve(); }};
    window.wakeLocks.push(lock);
    return Promise.resolve(lock);
  }})});
let hidden = false;
Object.defineProperty(Document.prototype, "visibilityState",
                      {configurable: true, get: () => hidden ? "hidden" : "visible"});
window.__setHidden = (value) => { hidden = value; document.dispatchEvent(new Event("visibilitychange")); };
"""


def test_the_standings_follow_another_phones_value_and_the_screen_stays_awake_while_shown(
    page: Page, open_phone, live_server
):
    game_id = make_game(["Alice", "Bruno"])
    page.context.add_init_script(WAKE_LOCK)
    page.goto(f"{live_server.url}/games/{game_id}/")  # the pad keeps the screen awake too
    page.wait_for_function("window.wakeLocks.length === 1 && !window.wakeLocks[0].released")
    page.goto(f"{live_server.url}/games/{game_id}/table/")
    expect(page.locator(".standing").first).to_contain_text("Alice")  # (nobody has scored: seat order)
    expect(page.locator(".not-scored")).to_be_visible()
    assert page.evaluate("window.wakeLocks.map((lock) => [lock.type, lock.released])") == [["screen", False]]

    other = open_phone()
    other.goto(f"{live_server.url}/games/{game_id}/")
    field(other, "farm_income", "Alice").fill("40")
    expect(page.locator(".standing").first).to_contain_text("Alice", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(page.locator(".standing").first).to_contain_text("41")
    expect(page.locator(".standing-gap").first).to_have_text("leads by 39\u00a0VP")
    expect(page.locator(".not-scored")).to_have_count(0)

    page.evaluate("window.__setHidden(true)")  # the phone in a pocket: the screen may sleep
    assert page.evaluate("window.wakeLocks.map((lock) => lock.released)") == [True]
    page.evaluate("window.__setHidden(false)")
    page.wait_for_function("window.wakeLocks.length === 2")
    assert page.evaluate("window.wakeLocks[1].released") is False

    game_finish(game=Game.objects.get(public_id=game_id))  # finished: the screen may sleep again
    expect(page.get_by_role("heading", level=1)).to_have_text("Final standings", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    page.wait_for_function("window.wakeLocks[1].released")


def test_a_browser_without_a_wake_lock_shows_the_pad_and_the_table_without_an_error(page: Page, live_server):
    """(Every page is watched for console errors and exceptions: none may come.)"""
    page.context.add_init_script("delete Navigator.prototype.wakeLock;")
    game_id = make_game(["Alice", "Bruno"])
    for address in (f"/games/{game_id}/", f"/games/{game_id}/table/"):
        page.goto(live_server.url + address)
        expect(page.locator("main")).to_be_visible()


# Where each name's lines break, the character before each break, and whether it is clipped (its
# words wider than its box) and how: a name of the table view, a pill or the totals bar.
NAME_LINES = """(selector) => [...document.querySelectorAll(selector)].map((el) => {
  const text = el.querySelector('bdi').firstChild;
  const breaks = [];
  let top = null;
  for (let i = 0; i < text.length; i++) {
    const range = document.createRange();
    range.setStart(text, i);
    range.setEnd(text, i + 1);
    const box = range.getClientRects()[0];
    if (!box || box.width === 0) continue;  // (a space at a break)
    if (top !== null && box.top > top + box.height / 2) breaks.push(text.data.slice(0, i));
    top = box.top;
  }
  const style = getComputedStyle(el);
  const clipped = el.scrollWidth > el.clientWidth + 0.5 || el.scrollHeight > el.clientHeight + 1;
  return {name: text.data, breaks, clipped,
          ellipsis: style.textOverflow === 'ellipsis', right: el.getBoundingClientRect().right};
})"""


def test_a_long_hyphenated_name_is_never_broken_inside_a_word_at_360_px(browser, live_server):
    """Issue 34: "Dominique-Alexandre" (19 characters) on a 360 px phone, 5 players: on the table
    view, the pad's pills and its totals bar, a name breaks only after its hyphen or at a space,
    never inside a word; where it is clipped, it ends with an ellipsis, and the pill of the view
    shown (a tap on a pill) holds the whole name."""
    context = browser.new_context(viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True)
    sign_in(context, live_server.url)
    page = context.new_page()
    game_id = make_game(FIVE)

    def lines(selector: str) -> list[dict]:
        found = page.evaluate(NAME_LINES, selector)
        assert found, selector
        for name in found:
            for before in name["breaks"]:
                assert before.endswith(("-", " ")), f"{selector}: {name['name']} broken after {before!r}"
            assert not name["clipped"] or name["ellipsis"], f"{selector}: {name['name']} clipped without an ellipsis"
            assert name["right"] <= 360, f"{selector}: {name['name']} leaves the screen"
        return found

    page.goto(f"{live_server.url}/games/{game_id}/table/")
    table = {name["name"]: name for name in lines(".standing-name")}
    assert not table["Dominique-Alexandre"]["clipped"]
    page.goto(f"{live_server.url}/games/{game_id}/")
    lines(".pad-views a:has(bdi)")
    lines(".total-name")
    page.get_by_role("link", name="Dominique-Alexandre", exact=True).click()
    # (the pill's page loaded before it is measured: read during the navigation, none was found)
    expect(page.locator('.pad-views a[aria-current="page"]')).to_have_text("Dominique-Alexandre")
    current = lines('.pad-views a[aria-current="page"]')
    assert current[0]["name"] == "Dominique-Alexandre" and not current[0]["clipped"]
