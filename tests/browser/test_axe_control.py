"""The accessibility checks' control: ``axe_violations`` (pad_helpers.py), which the journeys call
on every page they pass, reports what it is there to find. A pad with violations seeded in it
(a field without a name, a button too small to tap) is reported with the rule of each; the same
pad as served is not (else the journeys' empty lists would prove nothing)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.pad_helpers import axe_violations, make_game, pad_ready

pytestmark = pytest.mark.browser

SEEDED = """() => {
  document.querySelector("[data-field]").removeAttribute("aria-label");
  const tiny = document.createElement("button");
  tiny.textContent = "x";
  tiny.style.cssText = "width: 8px; height: 8px; padding: 0; min-width: 0; min-height: 0; font-size: 4px";
  document.querySelector("main").prepend(tiny, document.createElement("button"));
}"""


def test_axe_reports_the_violations_seeded_in_a_pad_and_none_on_the_pad_as_served(page: Page, live_server):
    game_id = make_game(["Alice", "Bruno"])
    page.goto(f"{live_server.url}/games/{game_id}/")
    pad_ready(page)
    assert axe_violations(page, "the pad") == []

    page.evaluate(SEEDED)

    found = {line.split(":")[1].strip() for line in axe_violations(page, "seeded")}
    assert {"button-name", "target-size"} <= found, found
    assert found & {"label", "label-title-only"}, found  # (the field keeps its title: a name, but not a label)
