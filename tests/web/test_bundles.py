"""scoring/web/bundles.py: the phone side's modules as production sends them, a few bundles, each
module in exactly one, run once, in the order the browser would run it, its imports and exports
as they were."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.template import Context, Template

from scoring.web import bundles

NODE = shutil.which("node")


@pytest.fixture
def static_folder(settings, tmp_path, monkeypatch):
    """A static folder of this test's own (its scoring/ modules), the bundler reading only it."""
    (tmp_path / "scoring").mkdir()
    settings.STATICFILES_DIRS = [tmp_path]
    bundles.graph.cache_clear()
    bundles.bundles.cache_clear()
    yield tmp_path / "scoring"
    bundles.graph.cache_clear()
    bundles.bundles.cache_clear()


def modules(folder: Path, entries: tuple[str, ...], monkeypatch, **texts: str) -> None:
    for name, text in texts.items():
        (folder / f"{name.replace('_', '-')}.js").write_text(text, encoding="utf-8")
    monkeypatch.setattr(bundles, "ENTRIES", tuple(f"scoring/{entry}.js" for entry in entries))


def run_in_node(folder: Path, entries: tuple[str, ...]) -> list:
    """Each entry's bundle run as a page runs it (in order, as modules of one page): what the
    modules said (globalThis.said)."""
    out = folder / "out"
    out.mkdir()
    for bundle in bundles.bundles():
        (out / Path(bundle).name.replace(".js", ".mjs")).write_text(
            bundles.bundle_text(bundle).replace('.js";', '.mjs";'), encoding="utf-8"
        )
    page = "globalThis.said = [];\n" + "".join(
        f'await import("./{Path(bundles.bundle_of(f"scoring/{entry}.js")).name.replace(".js", ".mjs")}");\n'
        for entry in entries
    )
    page += "await new Promise((later) => setTimeout(later));\nconsole.log(JSON.stringify(globalThis.said));\n"
    (out / "page.mjs").write_text(page, encoding="utf-8")
    assert NODE, "node is needed for the phone side's tests (make check runs them too)"
    done = subprocess.run([NODE, str(out / "page.mjs")], capture_output=True, text=True, timeout=30, check=True)
    return json.loads(done.stdout)


SHARED = 'export function poll() { return "poll"; }\n'
CLOCK = 'globalThis.said.push("clock runs");\nlet ticks = 0;\nexport function tick() { ticks += 1; return ticks; }\n'


def test_each_module_is_in_one_bundle_with_those_the_same_pages_load(static_folder, monkeypatch):
    modules(
        static_folder,
        ("base", "pad", "follow"),
        monkeypatch,
        clock=CLOCK,
        base='import { tick } from "./clock.js";\nexport const started = tick();\n',
        pad=(
            'import { started } from "./base.js";\nimport { poll } from "./poll.js";\nimport { own } from "./own.js";\n'
        ),
        own="export const own = 1;\n",
        poll=SHARED,
        follow='import { poll } from "./poll.js";\n',
    )
    assert bundles.bundles() == {
        "scoring/bundles/base.js": ("scoring/clock.js", "scoring/base.js"),  # (every page: base, and the pad)
        "scoring/bundles/pad.js": ("scoring/own.js", "scoring/pad.js"),
        "scoring/bundles/poll.js": ("scoring/poll.js",),  # (the pad and the followed pages)
        "scoring/bundles/follow.js": ("scoring/follow.js",),
    }
    assert bundles.bundles_imported_by("scoring/bundles/pad.js") == (
        "scoring/bundles/base.js",
        "scoring/bundles/poll.js",
    )


def test_a_bundle_runs_each_module_once_in_order_its_imports_and_exports_as_written(static_folder, monkeypatch):
    modules(
        static_folder,
        ("base", "pad"),
        monkeypatch,
        clock=CLOCK,
        field_state='export const Phase = { SAVED: "saved" };\nexport class State {}\n',
        fields=(
            'import * as F from "./field-state.js";\n'
            'import { tick as next } from "./clock.js";\n'
            "export async function saved() { return `${F.Phase.SAVED} ${next()}`; }\n"
        ),
        base=(
            'import { tick } from "./clock.js";\n'
            'export { tick as counted } from "./clock.js";\n'
            "globalThis.said.push(`base runs, tick ${tick()}`);\n"
        ),
        pad=(
            'import { counted } from "./base.js";\n'
            'import { saved } from "./fields.js";\n'
            "saved().then((text) => globalThis.said.push(`pad runs, ${text}, counted ${counted()}`));\n"
        ),
    )
    assert run_in_node(static_folder, ("base", "pad")) == [
        "clock runs",
        "base runs, tick 1",  # (the page's first module, its bundle run once though the pad's imports it)
        "pad runs, saved 2, counted 3",  # (one clock for every module that imports it)
    ]


@pytest.mark.parametrize(
    "statement",
    ["export default function pad() {}\n", "export let count = 0;\n", 'import "./clock.js";\n', "export { tick };\n"],
)
def test_a_form_the_bundler_does_not_read_stops_collectstatic_with_its_reason(static_folder, monkeypatch, statement):
    modules(static_folder, ("pad",), monkeypatch, clock=CLOCK, pad='import { tick } from "./clock.js";\n' + statement)
    with pytest.raises(ValueError, match="does not read"):
        bundles.bundles()


def test_modules_that_import_each_other_stop_collectstatic(static_folder, monkeypatch):
    modules(
        static_folder,
        ("pad",),
        monkeypatch,
        pad='import { a } from "./a.js";\n',
        a='import { b } from "./b.js";\nexport const a = 1;\n',
        b='import { a } from "./a.js";\nexport const b = 1;\n',
    )
    with pytest.raises(
        ValueError, match=r"import each other \(scoring/pad.js -> scoring/a.js -> scoring/b.js -> scoring/a.js\)"
    ):
        bundles.bundles()


def test_the_sites_own_modules_are_bundled_each_once():
    """The phone side as it stands: every module an entry loads is in one bundle, the entries'
    bundles named after them."""
    found = bundles.bundles()
    members = [module for modules_of in found.values() for module in modules_of]
    assert len(members) == len(set(members))
    for entry in bundles.ENTRIES:
        assert bundles.bundle_of(entry) == f"scoring/bundles/{Path(entry).name}"
    assert "scoring/fields.js" in found["scoring/bundles/pad.js"]


def test_a_page_loads_only_an_entry_so_that_every_module_it_loads_is_bundled():
    with pytest.raises(ValueError, match="add it to scoring.web.bundles.ENTRIES"):
        Template('{% load scripts %}{% module_script "scoring/sums.js" %}').render(Context())
