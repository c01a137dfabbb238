"""A number far from what a game records (999 in Queen’s Favor, 9 frames filled) is saved, but
marked beside its field in words on every phone at the table, and *Finish the game* lists it,
linking to its field, before it asks; corrected there, the mark goes on every phone.

Two phones on one game: Ana's, in English and light, types the number; Bruno's, in French and
dark, already has the pad open and hears of it by polling, as it hears of every save.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Seat
from tests.browser.pad_helpers import (
    ANOTHER_PHONE_TIMEOUT_MS,
    SMALL_PHONE,
    axe_violations,
    expect_saved,
    field,
    make_game,
    no_sideways_scroll,
    sign_in,
    status,
)

pytestmark = pytest.mark.browser

QUEENS_999_EN = (
    "Position on the Queen’s Favor track, Bruno: 999 is far above what this category usually scores (0 to 25)."
)


def test_an_unusual_value_is_marked_on_both_phones_and_listed_by_finish(browser, live_server):
    base = live_server.url
    game_id = make_game(["Ana", "Bruno"], [(9, 4)])
    phones = []
    for options in ({"color_scheme": "light"}, {"color_scheme": "dark", "locale": "fr-FR"}):
        context = browser.new_context(**SMALL_PHONE, **options)
        sign_in(context, base)
        phone = context.new_page()
        phone.goto(f"{base}/games/{game_id}/")
        phones.append(phone)
    ana, bruno = phones

    field(ana, "queens_favor", "Bruno").fill("999")
    field(ana, "recruits", "Bruno").focus()  # on to the next field: the value is saved

    expect_saved(ana, "s2-queens_favor")
    assert Seat.objects.get(game__public_id=game_id, number=2).queens_favor == 999  # saved, not refused
    expect(status(ana, "s2-queens_favor").locator(".unusual-mark")).to_be_visible()
    expect(ana.locator("#warning-s2-queens_favor")).to_have_text(QUEENS_999_EN)
    no_sideways_scroll(ana)
    assert axe_violations(ana) == []

    # Bruno's phone, in French: the mark and the sentence come with the poll.
    warning = bruno.locator("#warning-s2-queens_favor")
    expect(warning).to_have_text(
        re.compile(r"^Position sur la piste Faveur de la Reine, Bruno\s?: 999\b"), timeout=ANOTHER_PHONE_TIMEOUT_MS
    )
    expect(status(bruno, "s2-queens_favor").locator(".unusual-mark")).to_be_visible()
    no_sideways_scroll(bruno)
    assert axe_violations(bruno) == []

    # Finishing from Bruno's phone lists the value first, linking to its field.
    bruno.get_by_role("button", name="Terminer la partie").click()
    confirm = bruno.locator("#finish-confirm")
    link = confirm.get_by_role("link", name=re.compile(r"^Position sur la piste Faveur de la Reine, Bruno\s?: 999\b"))
    expect(link).to_be_visible()
    assert axe_violations(bruno) == []
    link.click()
    expect(bruno).to_have_url(f"{base}/games/{game_id}/#f-s2-queens_favor")
    expect(bruno.locator("#f-s2-queens_favor")).to_be_in_viewport()

    # Corrected where the link led: the mark goes, on both phones.
    bruno.locator("#f-s2-queens_favor").fill("9")  # (his phone speaks French: the fields by their ids)
    bruno.locator("#f-s2-recruits").focus()
    expect(status(bruno, "s2-queens_favor")).to_contain_text("Enregistré")
    expect(bruno.locator("#warning-s2-queens_favor")).to_have_count(0)
    expect(status(bruno, "s2-queens_favor").locator(".unusual-mark")).to_have_count(0)
    expect(ana.locator("#warning-s2-queens_favor")).to_have_count(0, timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(status(ana, "s2-queens_favor").locator(".unusual-mark")).to_have_count(0)
    expect(field(ana, "queens_favor", "Bruno")).to_have_value("9")
