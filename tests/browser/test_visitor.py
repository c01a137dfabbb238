"""A visitor's first score, and the account that keeps it (issue 19, item 3), in a real browser at
a phone's size, in English on a light phone and in French on a dark one.

From the home page to the first score typed, a returning table (its comb layout remembered) takes
at most ``TARGET_TAPS`` taps plus the players' names: every tap of the journey is counted
(``Taps``); the names are typed, and typing into a field just tapped is no tap of its own. Then
the browser makes an account, which keeps both its games. Pages are found by their addresses and
ids (the same in both languages); their words are the catalogue's (``in_language``). axe-core
finds no violation on the pages a visitor meets.
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from tests.browser.pad_helpers import axe_violations, shoot

pytestmark = pytest.mark.browser

TARGET_TAPS = 5  # from the home page to the first score typed, for a returning layout, plus the names
NAMES = ["Maya", "Tom", "Ines", "Leo"]
COMB = [(9, 4), (13, 0), (6, 3), (8, 2)]
PAD_URL = re.compile(r"/games/(?!new/)([\w-]+)/$")


class Taps:
    """The player's taps, counted one by one."""

    def __init__(self) -> None:
        self.count = 0

    def tap(self, target) -> None:
        target.tap()
        self.count += 1


def in_language(language: str, text: str, plural: str | None = None, count: int = 1) -> str:
    """What the page says for ``text`` in ``language`` (the catalogue's words)."""
    with translation.override(language):
        if plural is None:
            return translation.gettext(text)
        return translation.ngettext(text, plural, count) % {"count": count}


def start_button(page: Page):
    return page.locator("form.start-form .sticky-actions button.primary")


def type_score(page: Page, taps: Taps, value: str) -> str:
    """The first score of the game's pad, typed: a tap on the first player's farms, then the
    digits; the game's id once it is saved."""
    expect(page).to_have_url(PAD_URL)
    taps.tap(page.locator("#f-s1-farms"))
    page.keyboard.type(value)
    expect(page.locator("#status-s1-farms .saved-mark")).to_be_visible()
    return PAD_URL.search(page.url).group(1)


# In French and dark: the English words of these pages are the view tests' (tests/views/), and
# their light colours the other journeys' axe checks (test_entry.py).
@pytest.mark.parametrize(("locale", "scheme"), [("fr-FR", "dark")], ids=["french-dark"])
def test_a_visitors_first_score_and_the_account_that_keeps_it(browser, phone, live_server, screenshots, locale, scheme):
    from scoring.models import Game
    from scoring.web.limits import counters_clear

    counters_clear()
    language = locale[:2]
    page = browser.new_page(**phone, locale=locale, color_scheme=scheme)
    base = live_server.url
    problems: list[str] = []
    keep_note = page.locator(".keep-note")

    # The first visit: the home page is the start form; an account is offered, never asked for.
    page.goto(base + "/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(keep_note).to_contain_text(in_language(language, "No account needed: your games are kept in this browser."))
    expect(keep_note.get_by_role("link")).to_have_text(
        in_language(language, "Make an account to keep them on every device")
    )
    problems += axe_violations(page, "the home page of a newcomer")
    shoot(page, screenshots, f"visitor-welcome-{language}-{scheme}")
    first = Taps()
    for number, name in enumerate(NAMES):
        page.locator(f"#id_player-{number}-name").fill(name)
    for number, (first_vp, second_vp) in enumerate(COMB):  # the comb, typed once and saved
        if number:  # the form shows no empty row beyond those filled in: one more is a tap
            first.tap(page.get_by_role("button", name=in_language(language, "Add a sector")))
        page.locator(f"#id_sector-{number}-first").fill(str(first_vp))
        page.locator(f"#id_sector-{number}-second").fill(str(second_vp))
    page.locator("#id_layout_name").fill("Kitchen table")
    first.tap(start_button(page))
    first_game = type_score(page, first, "4")
    # The first visit: a row for each sector after the first, Start, the field (plus the names and the comb).
    assert first.count == len(COMB) - 1 + 2

    # The table plays again: from the home page (its history now) to the first score.
    returning = Taps()
    page.goto(base + "/")
    expect(page.locator("a.history-link")).to_have_count(1)
    problems += axe_violations(page, "a visitor's history")
    returning.tap(page.locator('main a.button.primary[href="/games/new/"]'))
    expect(page.locator("#id_sector-3-first")).to_have_value("8")  # the comb remembered: no tap on it
    problems += axe_violations(page, "a visitor's start form")
    for number, name in enumerate(NAMES):
        page.locator(f"#id_player-{number}-name").fill(name)
    returning.tap(start_button(page))
    second_game = type_score(page, returning, "6")
    print(
        f"\nTaps from the home page to the first score, a returning layout ({locale}): {returning.count}"
        " plus the players' names"
    )
    assert returning.count <= TARGET_TAPS
    assert Game.objects.filter(owner=None, visitor__isnull=False).count() == 2

    # Scoring together, Maya gives the table her name (issue 49: else "Finished by the owner").
    page.get_by_role("button", name=in_language(language, "Score together")).tap()
    page.get_by_label(
        in_language(language, "Your name, shown to the table beside your changes and when you finish")
    ).fill("Maya")
    page.get_by_role("button", name=in_language(language, "Save my name")).tap()
    expect(page.locator("#who-name")).to_have_value("Maya")
    problems += axe_violations(page, "Score together, named")

    # The account that keeps them: made from this browser, it has both games.
    page.goto(base + "/")
    page.locator(".keep-note a").tap()
    expect(keep_note).to_have_text(
        in_language(
            language,
            "The game started in this browser will be kept in your new account.",
            "The %(count)s games started in this browser will be kept in your new account.",
            2,
        )
    )
    expect(page.locator("#id_first_name")).to_have_value("Maya")  # (the name the table knows her by)
    problems += axe_violations(page, "signing up, with the browser's games")
    page.locator("#id_username").fill("vera")
    page.locator("#id_password1").fill("a-long-pass-phrase-of-vera")
    page.locator("#id_password2").fill("a-long-pass-phrase-of-vera")
    page.locator("main form button.primary").tap()

    expect(page).to_have_url(base + "/")
    expect(page.locator(".nav-user")).to_have_text("Maya")
    expect(page.locator("a.history-link")).to_have_count(2)
    for game_id in (first_game, second_game):
        expect(page.locator(f'a.history-link[href="/games/{game_id}/"]')).to_be_visible()
    expect(keep_note).to_have_count(0)
    page.goto(f"{base}/games/{first_game}/")
    expect(page.locator("#f-s1-farms")).to_have_value("4")
    assert Game.objects.filter(owner__username="vera").count() == 2
    assert problems == []
