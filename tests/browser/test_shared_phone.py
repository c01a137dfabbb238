"""A shared phone keeps nothing of the last person: the values one person typed and could not save
belong to the session they were typed in, and are never sent, nor shown, for the next person on
that phone, however the first session ended (its kept pages: tests/browser/test_offline.py)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Change, Game, Seat
from scoring.services.sharing import link_renew
from tests.browser.pad_helpers import banner, field, make_game, pad_ready, refused_save, sign_in, status

pytestmark = pytest.mark.browser


def test_a_value_waiting_when_its_typist_signs_out_is_never_sent_for_the_next_person(
    browser, phone, live_server, browser_watch
):
    """Olivia (the host's account) types Alice's farm income, 57, while the server cannot take it:
    it waits on her phone. In another tab she signs out, and Ben, on the same phone, opens the
    game's edit link and scores for everyone. Her 57 is neither on his pad nor sent in his name;
    and her own tab, still open, cannot send it either once the server answers again: its next poll
    or save finds the session it was opened in ended (a save would be refused: a page of a session
    that has ended saves nothing), and it says so, her 57 still on screen. Nothing is stored."""
    browser_watch.allow_console_error(r"net::ERR_FAILED \(\S+/save/\)$")  # (her saves while the server cannot answer)
    browser_watch.allow_console_error(refused_save(403))  # (her tab's save, if it comes before its poll)
    context = browser.new_context(**phone)
    sign_in(context, live_server.url)
    game_id = make_game(["Alice", "Bruno"])
    link = link_renew(game=Game.objects.get(public_id=game_id), access="edit")
    olivia = context.new_page()
    olivia.route(re.compile(r"/save/$"), lambda route: route.abort("failed"))
    olivia.goto(f"{live_server.url}/games/{game_id}/")
    field(olivia, "farm_income", "Alice").fill("57")
    expect(status(olivia, "s1-farm_income")).to_contain_text("retrying")

    other = context.new_page()
    other.goto(f"{live_server.url}/")
    other.locator(".nav-account summary").click()
    other.get_by_role("button", name="Sign out").click()
    other.goto(live_server.url + reverse("scoring:join", args=[link.token]))
    other.get_by_role("button", name="Everyone").click()
    expect(other).to_have_url(f"{live_server.url}/games/{game_id}/")
    pad_ready(other)  # (what the pad's script would put back, it has)
    expect(field(other, "farm_income", "Alice")).to_have_value("")
    expect(other.locator("#pad .unsaved")).to_have_count(0)
    assert other.evaluate("Object.keys(localStorage).filter((key) => key.includes(':outbox'))") == []

    olivia.unroute(re.compile(r"/save/$"))
    olivia.evaluate("window.dispatchEvent(new Event('online'))")  # (the server answers again: sent at once)
    expect(banner(olivia)).to_contain_text("session that has ended")
    expect(field(olivia, "farm_income", "Alice")).to_have_value("57")
    assert Seat.objects.get(game__public_id=game_id, number=1).farm_income is None
    assert not Change.objects.filter(seat__game__public_id=game_id).exists()
