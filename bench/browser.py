"""The benchmark's browser figure: the requests of a whole 4-player game typed on a phone.

Chromium (Debian's, ``CHROMIUM_PATH`` or /usr/bin/chromium) at the size of a Pixel 7, driven by
Playwright, signed in, opens a fresh 4-player pad, chooses "Next goes down each player" and types
every value of the four sheets as a player would: a number (or Space on a yes/no) and the
keyboard's Next, the comb's tokens (1 in each of the first sectors, up to the 7 a player owns,
then 0) and the active workers. It counts every request the page makes until nothing is left
unsaved: the saves (POST …/save/), the polls (GET …/live/) and anything else.

Run against a gunicorn of its own with HTTPS=false (a LAN pad: a browser on loopback speaks plain
HTTP), on the benchmark's database. Without Playwright or Chromium the figure is reported as not
measured, with the reason.
"""

from __future__ import annotations

import os
import time

from scoring.rules.categories import TOKENS_PER_PLAYER, During, categories_of

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
PHONE = "Pixel 7"


def typed_game(base_url: str, session: str, game_id: str, players: int, sectors: int) -> dict:
    """Type a whole game into the pad at ``base_url`` (signed in by the ``session`` cookie):
    the values typed and the requests made."""
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError as missing:
        return {"skipped": f"Playwright is not installed ({missing})"}
    if not os.access(CHROMIUM, os.X_OK):
        return {"skipped": f"no Chromium at {CHROMIUM} (set CHROMIUM_PATH)"}

    requests: dict[str, int] = {"save": 0, "poll": 0, "other": 0}
    others: list[str] = []

    def count(request) -> None:
        if request.method == "POST" and request.url.endswith("/save/"):
            requests["save"] += 1
        elif request.method == "GET" and "/live/" in request.url:
            requests["poll"] += 1
        else:
            requests["other"] += 1
            others.append(f"{request.method} {request.url.removeprefix(base_url)}")

    values = 0
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu", "--no-first-run"]
        )
        try:
            context = browser.new_context(**playwright.devices[PHONE])
            context.add_cookies([{"name": "sessionid", "value": session, "url": base_url}])
            page = context.new_page()
            page.set_default_timeout(15_000)
            page.goto(f"{base_url}/games/{game_id}/")
            page.check("input[name=move-order][value=down]")
            page.on("request", count)
            start = time.perf_counter()
            for number in range(1, players + 1):
                page.click(f"#f-s{number}-{categories_of(During.BREAKDOWN)[0].key}")  # (bench.inprocess.game_for)
                for category in categories_of(During.BREAKDOWN):
                    if category.is_flag:
                        page.keyboard.press("Space")
                    else:
                        page.keyboard.type(str(number + 1))
                    page.keyboard.press("Enter")
                    values += 1
                for sector in range(sectors):
                    page.keyboard.type("1" if sector < TOKENS_PER_PLAYER else "0")
                    page.keyboard.press("Enter")
                    values += 1
                page.keyboard.type(str(number - 1))  # active workers
                page.keyboard.press("Enter")
                values += 1
            expect(page.locator("#pad .unsaved")).to_have_count(0)
            seconds = time.perf_counter() - start
            problems = page.locator(".field-error:not([hidden])").count()
        finally:
            browser.close()
    return {
        "players": players,
        "sectors": sectors,
        "values": values,
        "saves": requests["save"],
        "polls": requests["poll"],
        "other": requests["other"],
        "other_requests": others[:20],
        "errors_shown": problems,
        "seconds": round(seconds, 1),
        "browser": f"Chromium ({PHONE})",
    }
