"""The benchmark's Lighthouse figures (issue 51): Lighthouse 12's mobile run (its defaults: a
mid-range phone, its CPU slowed 4×, a slow 4G network, simulated) on the home page, a pad, the
results and the table view, each a first load, against the site's own server with the production
settings, as a phone at the table opens them.

Lighthouse is Node's (npm's ``lighthouse``, installed once into ``LIGHTHOUSE_HOME``, never at
deploy time) and runs Debian's Chromium (``CHROMIUM_PATH``). Each page is opened by a fresh
Chromium profile that holds only the session cookie of the page's visitor, in its cookie jar as
a phone holds it: given as a request header instead (Lighthouse's ``--extra-headers``), the
session does not reach the service worker's requests, a poll comes back from no session and the
page says, above the form, that its session has ended (the 0.172 layout shift issue 51 measured).
Without npm or Chromium the figures are reported as not measured, with the reason. With
``LIGHTHOUSE_REPORTS`` set to a folder, each page's whole report is kept there (its name.json).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
LIGHTHOUSE_VERSION = "12"
LIGHTHOUSE_HOME = Path(os.environ.get("LIGHTHOUSE_HOME") or Path.home() / ".cache" / "apiary-bench" / "lighthouse")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = (
    "first-contentful-paint",
    "largest-contentful-paint",
    "total-blocking-time",
    "cumulative-layout-shift",
    "speed-index",
    "total-byte-weight",
)


def lighthouse_command() -> list[str] | str:
    """The Lighthouse CLI, installed into ``LIGHTHOUSE_HOME`` the first time; or why it cannot be."""
    cli = LIGHTHOUSE_HOME / "node_modules" / ".bin" / "lighthouse"
    if cli.exists():
        return [str(cli)]
    npm = shutil.which("npm")
    if npm is None:
        return "npm is not installed"
    LIGHTHOUSE_HOME.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [npm, "install", "--no-audit", "--no-fund", "--loglevel=error", f"lighthouse@{LIGHTHOUSE_VERSION}"],
        cwd=LIGHTHOUSE_HOME,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0 or not cli.exists():
        return f"npm could not install lighthouse@{LIGHTHOUSE_VERSION}: {done.stderr.strip()[-300:]}"
    return [str(cli)]


def profile_with_session(folder: Path, base_url: str, session: str | None) -> Path:
    """A Chromium profile whose cookie jar holds only ``session`` (for a minute: a session
    cookie would not outlive the browser that writes it), or an empty one."""
    from playwright.sync_api import sync_playwright

    profile = folder / "profile"
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
        )
        if session:
            expires = time.time() + 600
            context.add_cookies(
                [{"name": "sessionid", "value": session, "url": base_url, "httpOnly": True, "expires": expires}]
            )
        context.close()
    return profile


def page_figures(
    command: list[str], name: str, url: str, base_url: str, session: str | None, keep_in: Path | None = None
) -> dict:
    """Lighthouse's four scores (0 to 100) and its metrics for one first load of ``url``; its
    whole report kept as ``keep_in``/``name``.json when asked (``LIGHTHOUSE_REPORTS``)."""
    with tempfile.TemporaryDirectory(prefix="apiary-lighthouse-") as folder:
        profile = profile_with_session(Path(folder), base_url, session)
        report = Path(folder) / "report.json"
        flags = f"--headless=new --no-sandbox --disable-gpu --user-data-dir={profile}"
        done = subprocess.run(
            [
                *command,
                url,
                "--disable-storage-reset",  # (the jar's cookie kept: the profile is new, its cache empty)
                f"--chrome-flags={flags}",
                "--output=json",
                f"--output-path={report}",
                "--quiet",
            ],
            env={**os.environ, "CHROME_PATH": CHROMIUM},
            capture_output=True,
            text=True,
            timeout=300,
        )
        if not report.exists():
            return {"error": (done.stderr or done.stdout).strip()[-300:]}
        found = json.loads(report.read_text())
        if keep_in is not None:  # (the whole report: its diagnostics are the profile of a score under 100)
            keep_in.mkdir(parents=True, exist_ok=True)
            shutil.copy(report, keep_in / f"{name}.json")
    if found.get("runtimeError"):
        return {"error": found["runtimeError"].get("message", "")[:300]}
    audits = found["audits"]
    shifts = audits["layout-shifts"].get("details", {}).get("items", [])
    failing = [
        audit_id
        for category in CATEGORIES
        for ref in found["categories"][category]["auditRefs"]
        if ref["weight"] > 0
        and (audit_id := ref["id"]) in audits
        and audits[audit_id].get("score") is not None
        and audits[audit_id]["score"] < 1
        and category != "performance"
    ]
    return {
        "scores": {category: round(100 * (found["categories"][category]["score"] or 0)) for category in CATEGORIES},
        "metrics": {metric: audits[metric].get("numericValue") for metric in METRICS},
        "shown": {metric: audits[metric].get("displayValue", "") for metric in METRICS},
        "failing": failing,
        "layout_shifts": [item.get("node", {}).get("selector", "") for item in shifts],
    }


def figures(base_url: str, pages: dict[str, tuple[str, str | None]]) -> dict:
    """Lighthouse's figures of each page (its name: its path and the session that opens it)."""
    if not os.access(CHROMIUM, os.X_OK):
        return {"skipped": f"no Chromium at {CHROMIUM} (set CHROMIUM_PATH)"}
    command = lighthouse_command()
    if isinstance(command, str):
        return {"skipped": command}
    keep_in = Path(os.environ["LIGHTHOUSE_REPORTS"]) if os.environ.get("LIGHTHOUSE_REPORTS") else None
    return {
        name: page_figures(command, name, base_url + path, base_url, session, keep_in)
        for name, (path, session) in pages.items()
    }
