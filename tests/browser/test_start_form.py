"""The start form on a small phone (360 px), in English and French, light and dark: no control is
cut off (every label, button and choice reads in full), the end of the game is said in full with
the page's language's rule chosen first, and the comb shows no empty row beyond those to fill in.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Game
from tests.browser.pad_helpers import SMALL_PHONE, axe_violations, no_sideways_scroll, sign_in

pytestmark = pytest.mark.browser

# What a select's arrow takes of its width beside its text, in CSS pixels (Chromium draws it
# inside the padding box, about 20 px wide at 18 px text): the text must fit in the rest.
SELECT_ARROW_PX = 20

# Every control of the form, its label or its text, as the phone draws it: what overflows its box,
# or the screen, is cut off. A select's chosen option is measured with the select's own font.
CUT_OFF = """() => {
  const canvas = document.createElement("canvas").getContext("2d");
  const seen = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const name = (el) => el.id || el.name || el.textContent.trim().slice(0, 40);
  const cut = [];
  for (const el of document.querySelectorAll(
      ".start-form label, .start-form legend, .start-form button, .start-form input, .start-form select,"
      + " .start-form textarea, .start-form .hint, .start-form .sector-number")) {
    if (!seen(el) || el.classList.contains("visually-hidden")) continue;
    const box = el.getBoundingClientRect();
    if (box.left < 0 || box.right > window.innerWidth) {
      cut.push(`${name(el)} reaches ${Math.round(box.left)}..${Math.round(box.right)} px`);
    }
    if (el.tagName === "SELECT") {
      const style = getComputedStyle(el);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = el.options[el.selectedIndex].text;
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - ARROW_PX;
      const width = canvas.measureText(text).width;
      if (width > room) cut.push(`${name(el)} shows "${text}" (${Math.round(width)} px) in ${Math.round(room)} px`);
    } else if (el.scrollWidth > el.clientWidth + 1 && !["INPUT", "TEXTAREA"].includes(el.tagName)) {
      cut.push(`${name(el)} holds ${el.scrollWidth} px in ${el.clientWidth} px`);
    }
  }
  return cut;
}""".replace("ARROW_PX", str(SELECT_ARROW_PX))


@pytest.fixture
def phone_of(browser, live_server):
    def open_(locale: str, color_scheme: str) -> Page:
        context = browser.new_context(**SMALL_PHONE, locale=locale, color_scheme=color_scheme)
        sign_in(context, live_server.url)
        return context.new_page()

    return open_


@pytest.mark.parametrize(
    ("locale", "color_scheme", "rule", "add", "faction"),
    [
        pytest.param(
            "en-GB",
            "light",
            "When a player places their 6th hibernation token (English rules)",
            "Add a sector",
            "Player 1 faction",
            id="english-light",
        ),
        pytest.param(
            "fr-FR",
            "dark",
            "Quand un joueur place son 7e pion Hibernation (règles françaises)",
            "Ajouter un secteur",
            "Faction du joueur 1",
            id="french-dark",
        ),
    ],
)
def test_the_start_form_at_360_px_cuts_no_control_off(phone_of, live_server, locale, color_scheme, rule, add, faction):
    page = phone_of(locale, color_scheme)
    page.goto(f"{live_server.url}/games/new/")

    expect(page.get_by_role("radio", name=rule, exact=True)).to_be_checked()  # the page's language's rule
    assert page.evaluate(CUT_OFF) == []
    no_sideways_scroll(page)
    page.get_by_label(faction, exact=True).select_option("Capen")
    assert page.evaluate(CUT_OFF) == []
    assert axe_violations(page) == []

    # The comb: one row to fill in, no empty row beyond; "Add a sector" brings the next, focused.
    rows = page.locator("[data-sector-row]")
    expect(rows.filter(visible=True)).to_have_count(1)
    page.get_by_role("button", name=add, exact=True).click()
    expect(rows.filter(visible=True)).to_have_count(2)
    expect(rows.nth(1).locator("input").first).to_be_focused()


def test_a_phone_without_javascript_adds_a_sector_and_starts_the_game(browser, live_server):
    context = browser.new_context(**SMALL_PHONE, java_script_enabled=False)
    sign_in(context, live_server.url)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/new/")
    page.get_by_label("Player 1 name", exact=True).fill("Alice")
    page.get_by_label("Sector 1, 1st place VP", exact=True).fill("9")
    page.get_by_label("Sector 1, 2nd place VP", exact=True).fill("4")

    page.get_by_role("button", name="Add a sector").click()  # the form comes back with one more row

    expect(page.get_by_label("Player 1 name", exact=True)).to_have_value("Alice")
    expect(page.locator("[data-sector-row]").filter(visible=True)).to_have_count(2)
    page.get_by_label("Sector 2, 1st place VP", exact=True).fill("13")
    page.get_by_role("button", name="Start scoring").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+/$"))
    game = Game.objects.get()
    assert [(s.first_vp, s.second_vp) for s in game.sectors.order_by("position")] == [(9, 4), (13, 0)]
    assert game.end_trigger_token == 6  # an English page: the English rule, as chosen first
