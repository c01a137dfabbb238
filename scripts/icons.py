"""Draws the app's PNG icons from their SVG sources (static/scoring/icons/), with the Chromium the
browser tests use (through Playwright, already a test dependency): a phone asks for PNGs of set
sizes (the web app manifest's 192 and 512, iOS's 180), the SVGs are what we draw.

    .venv/bin/python scripts/icons.py

Run it after changing an SVG, and commit the PNGs with it: nothing is drawn at run time.
Set CHROMIUM_PATH for a Chromium elsewhere than /usr/bin/chromium.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "static" / "scoring" / "icons"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")

# (PNG, its SVG, its size in pixels, whether its background stays transparent). The "any" icons
# keep the corners around the cell transparent; the maskable ones and iOS's are a full square
# (iOS fills transparency with black).
PNGS = [
    ("icon-32.png", "icon.svg", 32, True),  # the tab's icon where a browser takes no SVG
    ("icon-192.png", "icon.svg", 192, True),
    ("icon-512.png", "icon.svg", 512, True),
    ("icon-maskable-192.png", "icon-maskable.svg", 192, False),
    ("icon-maskable-512.png", "icon-maskable.svg", 512, False),
    ("apple-touch-icon.png", "icon-maskable.svg", 180, False),
]


def main() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            for name, source, size, transparent in PNGS:
                # The SVG opened as the page itself fills the viewport (it has a viewBox and no size).
                page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
                page.goto((ICONS / source).as_uri())
                page.screenshot(path=ICONS / name, omit_background=transparent)
                page.close()
                print(f"{name}: {size}x{size}, {(ICONS / name).stat().st_size} bytes")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
