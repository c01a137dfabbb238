"""Real-browser journeys of a private game shared at the table: the owner shows a QR code, a
table-mate's phone opens its link (as scanning it would) and scores without an account, every
change says who made it and can be undone, and a revoked link stops at once, keeping on screen
what its holder had typed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Seat
from tests.browser.pad_helpers import (
    ANOTHER_PHONE_TIMEOUT_MS,
    banner,
    expect_saved,
    field,
    make_game,
    refused_save,
    status,
    total,
)

pytestmark = pytest.mark.browser


@pytest.fixture
def mate(browser, phone):
    """A table-mate's phone: its own browser, no account, no cookie."""
    return browser.new_page(**phone)


def share_link(owner: Page, kind: str) -> str:
    """The owner makes a link of that kind on the pad and reads its address under its QR code."""
    owner.get_by_text("Score together").click()
    owner.get_by_role("button", name=f"Make {'an edit' if kind == 'edit' else 'a view'} link").click()
    card = owner.locator(".share-link").filter(has_text="Edit link" if kind == "edit" else "View link")
    expect(card.get_by_role("img", name=re.compile("QR code"))).to_be_visible()
    return card.locator(".share-url a").inner_text()


def test_a_table_mate_scans_the_edit_link_scores_and_is_cut_off_when_it_is_revoked(page: Page, mate: Page,
                                                                                      live_server, browser_watch):
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    owner = page
    owner.goto(f"{live_server.url}/games/{game_id}/")
    address = share_link(owner, "edit")
    assert re.fullmatch(rf"{re.escape(live_server.url)}/join/[\w-]{{32}}/", address)

    # The table-mate's phone opens the link, with no account, and takes every sheet.
    mate.goto(address)
    mate.get_by_role("button", name="Everyone").click()
    expect(mate).to_have_url(f"{live_server.url}/games/{game_id}/")
    field(mate, "farm_income", "Bruno").fill("7")
    expect_saved(mate, "s2-farm_income")
    field(owner, "farm_income", "Alice").fill("5")
    expect_saved(owner, "s1-farm_income")

    # Each sees the other's number arrive, and the owner sees who changed what.
    expect(field(owner, "farm_income", "Bruno")).to_have_value("7", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(field(mate, "farm_income", "Alice")).to_have_value("5", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    owner.get_by_text("Recent changes").click()
    changes = owner.locator("#changes")
    expect(changes).to_contain_text("Bruno's Farm income — → 7")
    expect(changes).to_contain_text("by the edit link")
    expect(changes).to_contain_text("Alice's Farm income — → 5")
    expect(changes).to_contain_text("by Hana")  # the name the owner gave, never their login

    # The owner revokes the link (once they have confirmed): the mate's next save, or its next poll
    # if that comes first, is refused and says so, and what they typed stays on screen.
    browser_watch.allow_console_error(refused_save(404))  # the mate's save after the link is revoked
    browser_watch.expect_console_error(r"status of 404 \(Not Found\)$")  # the mate's reload of the pad
    browser_watch.allow_console_error(r"status of 404 \(Not Found\) \(\S+/live/\)$")  # a poll, if one comes first
    browser_watch.allow_console_error(r"^htmx:responseError,")  # htmx's own line for that poll
    browser_watch.allow_console_error(r"^Response Status Error Code 404 from \S+/live/")  # (or in these words)
    owner.get_by_role("button", name="Revoke").click()
    expect(owner.get_by_role("heading", level=1)).to_have_text("Revoke the edit link?")  # nothing cut off yet
    owner.get_by_role("button", name="Revoke the link").click()
    expect(owner.locator(".share-link")).to_have_count(0)
    field(mate, "farm_income", "Bruno").fill("9")
    expect(banner(mate)).to_contain_text("revoked")
    expect(field(mate, "farm_income", "Bruno")).to_have_value("9")
    assert Seat.objects.get(game__public_id=game_id, number=2).farm_income == 7
    mate.reload()
    expect(mate.locator("main")).to_contain_text("revoked")


def test_a_view_link_watches_the_game_and_cannot_change_it(page: Page, mate: Page, live_server):
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    owner = page
    owner.goto(f"{live_server.url}/games/{game_id}/")
    address = share_link(owner, "view")
    mate.goto(address)
    expect(mate.locator(".view-only")).to_be_visible()
    expect(field(mate, "farm_income", "Alice")).to_be_disabled()
    expect(mate.get_by_role("button", name="Finish the game")).to_have_count(0)

    field(owner, "farm_income", "Alice").fill("12")
    expect_saved(owner, "s1-farm_income")
    expect(field(mate, "farm_income", "Alice")).to_have_value("12", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(total(mate, "Alice")).to_have_text("13")


def test_undo_puts_back_another_phones_change_on_every_phone(page: Page, mate: Page, live_server):
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    owner = page
    owner.goto(f"{live_server.url}/games/{game_id}/")
    mate.goto(share_link(owner, "edit"))
    mate.get_by_role("button", name="Bruno").click()  # their own sheet
    field(mate, "farms", "Bruno").fill("4")
    field(mate, "farms", "Bruno").press("Enter")  # on to the next field: this one may follow others now
    expect_saved(mate, "s2-farms")
    expect(field(owner, "farms", "Bruno")).to_have_value("4", timeout=ANOTHER_PHONE_TIMEOUT_MS)

    owner.get_by_text("Recent changes").click()
    owner.get_by_role("button", name="Undo: Bruno's Farms built — → 4").click()
    expect(field(owner, "farms", "Bruno")).to_have_value("", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(field(mate, "farms", "Bruno")).to_have_value("", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(total(mate, "Bruno")).to_have_text("2")
    expect(owner.locator("#changes")).to_contain_text("Bruno's Farms built 4 → —")
    assert Seat.objects.get(game__public_id=game_id, number=2).farms is None
    expect(status(owner, "s2-farms")).not_to_contain_text("VP 4")
