"""The pad and the results read at a glance on a small phone (360 px), as the geometry of the page
proves: each player's name, rank and total read as one card in the totals bar, at 4 and 5 players
and at 200% text."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pad_helpers import SMALL_PHONE, host, make_game, no_sideways_scroll, sign_in, total
from tests.factories import game_scored, player

pytestmark = pytest.mark.browser

# The table of issue 19 at the final moment, read off its totals bar as "Maya 84 | 4th 101 | 2nd 101 |
# 1st 86 | 3rd": Tom and Lea tie on 101 and Lea wins on active workers.
TABLE = [("Maya", 84, 0), ("Tom", 101, 1), ("Lea", 101, 3), ("Sam", 86, 0), ("Zoé", 95, 0)]
RANKS = {4: ["4th", "2nd", "1st", "3rd"], 5: ["5th", "2nd", "1st", "4th", "3rd"]}


@pytest.fixture
def small_phone(browser, live_server) -> Page:
    """A page on a small phone (360 x 780), signed in as the host."""
    context = browser.new_context(**SMALL_PHONE)
    sign_in(context, live_server.url)
    return context.new_page()


def a_table_of(count: int):
    return game_scored(
        *(player(name, workers=workers, starting_vp=seat, farm_income=points - seat)
          for seat, (name, points, workers) in enumerate(TABLE[:count], start=1)),
        sectors=[(9, 4)], owner=host(),
    )


CARDS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  return Array.from(document.querySelectorAll('#totals .total-card')).map((card) => ({
    card: box(card),
    name: box(card.querySelector('.total-name')), nameText: card.querySelector('.total-name').textContent,
    rank: box(card.querySelector('.total-rank')), rankText: card.querySelector('.total-rank').textContent,
    total: box(card.querySelector('.total')), totalText: card.querySelector('.total').textContent,
  }));
}"""


def inside(inner: dict, outer: dict) -> bool:
    return (inner["left"] >= outer["left"] - 0.5 and inner["right"] <= outer["right"] + 0.5
            and inner["top"] >= outer["top"] - 0.5 and inner["bottom"] <= outer["bottom"] + 0.5)


def apart(one: dict, other: dict) -> bool:
    """The two boxes do not overlap (touching edges is not overlapping)."""
    return (one["right"] <= other["left"] + 0.5 or other["right"] <= one["left"] + 0.5
            or one["bottom"] <= other["top"] + 0.5 or other["bottom"] <= one["top"] + 0.5)


@pytest.mark.parametrize("text_size", ["100%", "200%"])
@pytest.mark.parametrize("count", [4, 5])
def test_each_players_rank_and_total_sit_inside_their_own_card(small_phone: Page, live_server, count, text_size):
    """Issue 19: "Each player's name, total and rank must read as one unit": each card holds its
    player's name, rank and total, the rank before or above the total (never after it, where it
    touched the next player's number), and no two cards, nor a rank and a total, overlap."""
    page = small_phone
    game = a_table_of(count)
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    page.evaluate(f"document.documentElement.style.fontSize = '{text_size}'")
    expect(total(page, TABLE[0][0])).to_be_in_viewport()

    cards = page.evaluate(CARDS)
    assert [card["nameText"] for card in cards] == [name for name, _points, _workers in TABLE[:count]]
    assert [card["totalText"] for card in cards] == [str(points) for _name, points, _workers in TABLE[:count]]
    assert [card["rankText"] for card in cards] == RANKS[count]
    for card in cards:
        who = card["nameText"]
        for part in ("name", "rank", "total"):
            assert inside(card[part], card["card"]), f"{who}'s {part} leaves the card: {card[part]} in {card['card']}"
        assert apart(card["rank"], card["total"]), f"{who}'s rank covers the total"
        assert card["rank"]["right"] <= card["total"]["left"] + 0.5 or card["rank"]["bottom"] <= card["total"]["top"] + 0.5, (
            f"{who}'s rank is neither before nor above the total")
        assert card["name"]["bottom"] <= min(card["rank"]["top"], card["total"]["top"]) + 0.5, f"{who}'s name is not on top"
        assert card["card"]["right"] <= 360, f"{who}'s card leaves the screen"
    for index, card in enumerate(cards):
        for other in cards[index + 1:]:
            assert apart(card["card"], other["card"]), f"{card['nameText']}'s card overlaps {other['nameText']}'s"


# -- the results chart --------------------------------------------------------------------------

BARS = """() => Array.from(document.querySelectorAll('.bars > .bar')).map((bar) => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const rects = Array.from(bar.querySelectorAll('.bar-svg rect')).map((rect) => ({negative: rect.classList.contains('bar-negative'), ...box(rect)}));
  const earned = Math.max(0, ...rects.filter((r) => !r.negative).map((r) => r.right));
  const takenBack = rects.filter((r) => r.negative).reduce((sum, r) => sum + (r.right - r.left), 0);
  return {name: box(bar.querySelector('.bar-name')), svg: box(bar.querySelector('.bar-svg')), legend: box(bar.querySelector('.legend')),
          items: Array.from(bar.querySelectorAll('.legend li')).map((li) => ({text: li.textContent.trim(), ...box(li),
            size: parseFloat(getComputedStyle(li).fontSize)})),
          solidEnd: earned - takenBack};
})"""


def test_the_results_bars_read_on_a_small_phone(small_phone: Page, live_server):
    """Issue 19: two 101-point players draw bars of the same length though one lost 2 VP to a
    carving, and each bar's legend sits under it, inside the screen, in words a phone reads."""
    page = small_phone
    game = game_scored(
        player("Maya", farm_income=90, farms=4, queens_favor=7, workers=1),
        player("Tom", farm_income=95, planted_seed_cards=8, carvings=-2),
        player("Lea", farm_income=40, hive_mat_full=True, frames_filled=2, faction_ability=5),
        sectors=[], owner=host(), finished=True,
    )
    page.goto(f"{live_server.url}/games/{game.public_id}/results/")
    expect(page.locator(".bars > .bar")).to_have_count(3)

    maya, tom, lea = bars = page.evaluate(BARS)
    assert maya["solidEnd"] == pytest.approx(tom["solidEnd"], abs=0.5)  # 101 and 101
    assert lea["solidEnd"] < maya["solidEnd"]
    assert [item["text"] for item in tom["items"]] == [
        "During the game: 95 VP", "Conditions on planted seed cards: 8 VP", "Conditions on carvings built: -2 VP"]
    for index, bar in enumerate(bars):
        assert bar["name"]["bottom"] <= bar["svg"]["top"] + 0.5 and bar["svg"]["bottom"] <= bar["legend"]["top"] + 0.5
        if index + 1 < len(bars):  # each legend beside its own bar, before the next player's
            assert bar["legend"]["bottom"] <= bars[index + 1]["name"]["top"]
        for item in bar["items"]:
            assert item["left"] >= 0 and item["right"] <= 360, f"{item['text']} leaves the screen"
            assert item["size"] >= 12, f"{item['text']} is in {item['size']} px type"
    no_sideways_scroll(page)


# -- short labels -----------------------------------------------------------------------------------

@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_rows_short_words_fit_two_lines_of_a_five_player_pad(browser, live_server, language):
    """Issue 19: the rows' headings were 3-4 lines in English and up to 5-6 in French; their short
    words take two lines at most on a small phone with five players, in both languages, and a tap
    shows the edition's full words."""
    context = browser.new_context(**SMALL_PHONE, locale=language, extra_http_headers={"Accept-Language": language})
    sign_in(context, live_server.url)
    page = context.new_page()
    game_id = make_game(["Alice", "Bruno", "Carla", "Dario", "Elena"], [(9, 4)])
    page.goto(f"{live_server.url}/games/{game_id}/")
    lines = page.evaluate("""() => Array.from(document.querySelectorAll('.row-help > summary')).map((summary) => {
      const style = getComputedStyle(summary);
      return [summary.textContent, Math.round(summary.getBoundingClientRect().height / parseFloat(style.lineHeight))];
    })""")
    assert len(lines) >= 18
    assert [(words, count) for words, count in lines if count > 2] == []
    carvings = page.locator("#help-carvings")
    carvings.locator("summary").click()
    expect(carvings.locator(".help")).to_be_visible()
    expect(carvings.locator(".help")).to_contain_text(
        "Conditions on carvings built" if language == "en" else "Conditions des Sculptures construites")


# -- the header -----------------------------------------------------------------------------------

NAV = """() => {
  const nav = document.querySelector('nav.site-nav');
  const shown = Array.from(nav.children).filter((el) => el.getBoundingClientRect().width > 1);
  const button = nav.querySelector('.language-button');
  const visible = Array.from(button.querySelectorAll('span')).filter((el) => el.getBoundingClientRect().width > 1)
    .map((el) => el.textContent.trim()).join(' ');
  return {tops: shown.map((el) => Math.round(el.getBoundingClientRect().top)), height: nav.getBoundingClientRect().height,
          line: Math.max(...shown.map((el) => el.getBoundingClientRect().height)), visible: visible,
          right: Math.max(...shown.map((el) => el.getBoundingClientRect().right))};
}"""


@pytest.mark.parametrize("signed_in", [True, False], ids=["signed-in", "visitor"])
@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("width", [360, 412])
def test_the_header_is_one_line_and_the_language_button_is_named_by_what_it_shows(browser, live_server, width,
                                                                                 language, signed_in):
    """Issue 19: "The header never wraps at 360-412 px ("Français" alone on a second line today), and
    the language button's accessible name contains its visible text" (axe-core's
    label-content-name-mismatch, which is experimental: asked for by name)."""
    from axe_playwright_python.sync_playwright import Axe

    context = browser.new_context(**{**SMALL_PHONE, "viewport": {"width": width, "height": 780}},
                                  locale=language, extra_http_headers={"Accept-Language": language})
    if signed_in:
        sign_in(context, live_server.url)
    page = context.new_page()
    page.goto(f"{live_server.url}/")
    expect(page.locator("html")).to_have_attribute("lang", language)

    nav = page.evaluate(NAV)
    assert len(set(nav["tops"])) == 1, f"the header wraps: its items start at {nav['tops']}"
    assert nav["height"] <= nav["line"] + 8 + 1, f"the header is {nav['height']} px tall for {nav['line']} px items"
    assert nav["right"] <= width
    button = page.locator(".language-button")
    assert nav["visible"], "the language button shows nothing"
    name = button.evaluate("b => b.getAttribute('aria-label')") or ""
    assert not name, "the button is named by its content, not by an aria-label that can differ from it"
    expect(button).to_have_accessible_name(re.compile(rf"^{re.escape(nav['visible'])}\b"))
    no_sideways_scroll(page)

    results = Axe().run(page, options={"rules": {"label-content-name-mismatch": {"enabled": True}}})
    assert [(v["id"], v["nodes"][0]["target"]) for v in results.response["violations"]] == []
