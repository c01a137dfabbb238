"""The phone side's modules as production sends them: a few files instead of 25 (issue 51: each
module of a few hundred bytes came with about 400 bytes of headers, and on a slow network every
request a page starts before its first paint holds that paint).

The modules a page loads by ``{% module_script %}`` are its entries (``ENTRIES``). Each module
goes into one bundle, with every module the same entries load (a chunk, as a bundler splits
them): offline.js with the modules only it and the pad use, the pad's own modules, poll.js,
which the pad and the followed pages share, and so on. A module is thus in exactly one file, and
evaluated once on a page, as the browser evaluates an ES module once whatever imports it.

Each module becomes a function run once, in the order the browser would evaluate it (what it
imports first, in the order of its imports), that returns its exports; what it imports from a
module of another bundle comes by that bundle's own ``import``. This is the whole of the
transformation, and it reads only the forms the phone side writes, at the start of a line:
``import { a, b as c } from "./x.js";``, ``import * as X from "./x.js";``, ``export function``,
``export const``, ``export class`` and ``export { a as b } from "./x.js";``. Any other import
or export, or two modules importing each other, stops collectstatic with the reason.

Development serves the modules as they are (``bundled()`` is false): each file its own request,
as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import PurePosixPath

from django.contrib.staticfiles.storage import staticfiles_storage

from scoring.web.modules import source

# The modules the templates load (``{% module_script %}``): offline.js on every page (base.html),
# then each page's own.
ENTRIES = (
    "scoring/offline.js",
    "scoring/pad.js",
    "scoring/wake.js",
    "scoring/share.js",
    "scoring/follow.js",
    "scoring/start-form.js",
    "scoring/import.js",
)
FOLDER = "scoring/bundles"

_FROM = r"""\s*from\s*["']\./([\w.-]+\.js)["'];?[ \t]*$"""
_NAMED_IMPORT = re.compile(r"^import\s*\{([^}]*)\}" + _FROM, re.MULTILINE)
_NAMESPACE_IMPORT = re.compile(r"^import\s*\*\s*as\s+([\w$]+)" + _FROM, re.MULTILINE)
_EXPORT_FROM = re.compile(r"^export\s*\{([^}]*)\}" + _FROM, re.MULTILINE)
_EXPORT_DECLARATION = re.compile(r"^export\s+((?:async\s+)?function\*?|const|class)\s+([\w$]+)", re.MULTILINE)
_ANY = re.compile(r"^(?:import|export)\b.*$", re.MULTILINE)


def bundled() -> bool:
    """Whether the site sends the bundles (production's storage collects them) or the modules."""
    return getattr(staticfiles_storage, "bundles_modules", False)


@dataclass(frozen=True)
class Module:
    path: str  # "scoring/pad.js"
    text: str
    imports: tuple[str, ...]  # the modules it imports, in the order of its import statements

    @property
    def name(self) -> str:
        """Its name in a bundle: ``m_`` and its file's stem (field-state.js: m_field_state)."""
        return "m_" + re.sub(r"\W", "_", PurePosixPath(self.path).stem)


def _sibling(path: str, file: str) -> str:
    return f"{PurePosixPath(path).parent.as_posix()}/{file}"


def _read(path: str) -> Module:
    text = source(path)
    understood = {
        match.start()
        for pattern in (_NAMED_IMPORT, _NAMESPACE_IMPORT, _EXPORT_FROM, _EXPORT_DECLARATION)
        for match in pattern.finditer(text)
    }
    for statement in _ANY.finditer(text):
        if statement.start() not in understood:
            raise ValueError(f"the modules' bundler does not read {statement.group(0).strip()!r} in {path}")
    imports = sorted(
        (match.start(), _sibling(path, match.group(2)))
        for pattern in (_NAMED_IMPORT, _NAMESPACE_IMPORT, _EXPORT_FROM)
        for match in pattern.finditer(text)
    )
    return Module(path, text, tuple(dict.fromkeys(imported for _start, imported in imports)))


@cache
def graph() -> dict[str, Module]:
    """Every module the entries load, directly or through another, by its path, each listed after
    the modules it imports (the order the browser evaluates them in)."""
    ordered: dict[str, Module] = {}
    on_the_way: list[str] = []

    def visit(path: str) -> None:
        if path in ordered:
            return
        if path in on_the_way:
            raise ValueError(f"the modules import each other ({' -> '.join([*on_the_way, path])})")
        on_the_way.append(path)
        module = _read(path)
        for imported in module.imports:
            visit(imported)
        on_the_way.pop()
        ordered[path] = module

    for entry in ENTRIES:
        visit(entry)
    return ordered


def _closure(path: str, modules: dict[str, Module]) -> set[str]:
    found, waiting = set(), [path]
    while waiting:
        module = waiting.pop()
        if module not in found:
            found.add(module)
            waiting += modules[module].imports
    return found


@cache
def bundles() -> dict[str, tuple[str, ...]]:
    """Each bundle's path and its modules, in the order they are evaluated: the modules the same
    entries load go together, named after the entry among them (or their first module)."""
    modules = graph()
    loads = {entry: _closure(entry, modules) for entry in ENTRIES}
    chunks: dict[frozenset[str], list[str]] = {}
    for path in modules:
        loaded_by = frozenset(entry for entry, loaded in loads.items() if path in loaded)
        chunks.setdefault(loaded_by, []).append(path)
    named = {}
    for members in chunks.values():
        lead = next((path for path in members if path in ENTRIES), members[0])
        named[f"{FOLDER}/{PurePosixPath(lead).name}"] = tuple(members)
    return named


def imports_of(path: str) -> tuple[str, ...]:
    """Every module ``path`` (an entry, e.g. "scoring/pad.js") imports, directly or through
    another, in the order they are first met: what a page announces before it in development."""
    modules = graph()
    seen: list[str] = []
    waiting = [path]
    while waiting:
        for imported in modules[waiting.pop(0)].imports:
            if imported not in seen:
                seen.append(imported)
                waiting.append(imported)
    return tuple(seen)


def bundle_of(path: str) -> str:
    """The bundle that holds the module ``path``."""
    return next(bundle for bundle, members in bundles().items() if path in members)


def bundles_imported_by(bundle: str) -> tuple[str, ...]:
    """The other bundles ``bundle`` imports, directly or through another, in the order first met."""
    modules = graph()
    seen: list[str] = []
    waiting = [bundle]
    while waiting:
        current = waiting.pop(0)
        for member in bundles()[current]:
            for imported in modules[member].imports:
                other = bundle_of(imported)
                if other != bundle and other not in seen:
                    seen.append(other)
                    waiting.append(other)
    return tuple(seen)


def _names(specifiers: str) -> list[tuple[str, str]]:
    """``a, b as c`` as [("a", "a"), ("b", "c")]: each name as exported, then as bound."""
    pairs = []
    for specifier in filter(None, (part.strip() for part in specifiers.split(","))):
        exported, _, bound = specifier.partition(" as ")
        pairs.append((exported.strip(), (bound or exported).strip()))
    return pairs


def _wrapped(module: Module, modules: dict[str, Module]) -> str:
    """The module as a function run once, its imports read from the modules' own names, its
    exports returned."""
    name_of = {path: modules[path].name for path in module.imports}
    exports: list[tuple[str, str]] = []

    def named_import(match: re.Match) -> str:
        source = name_of[_sibling(module.path, match.group(2))]
        bound = ", ".join(
            exported if exported == local else f"{exported}:{local}" for exported, local in _names(match.group(1))
        )
        return f"const {{ {bound} }} = {source};"

    def export_from(match: re.Match) -> str:
        source = name_of[_sibling(module.path, match.group(2))]
        exports.extend((exported_as, f"{source}.{exported}") for exported, exported_as in _names(match.group(1)))
        return ""

    text = _NAMED_IMPORT.sub(named_import, module.text)
    text = _NAMESPACE_IMPORT.sub(
        lambda match: f"const {match.group(1)} = {name_of[_sibling(module.path, match.group(2))]};", text
    )
    text = _EXPORT_FROM.sub(export_from, text)
    exports.extend((match.group(2), match.group(2)) for match in _EXPORT_DECLARATION.finditer(text))
    text = _EXPORT_DECLARATION.sub(lambda match: f"{match.group(1)} {match.group(2)}", text)
    returned = ", ".join(f"{exported}:{value}" for exported, value in exports)
    return f"// {module.path}\nconst {module.name} = (() => {{\n{text}\nreturn {{ {returned} }};\n}})();\n"


def bundle_text(bundle: str) -> str:
    """The bundle's source: its imports of the other bundles' modules, its modules each run once
    in order, and its modules exported by their names for the bundles that import them."""
    modules = graph()
    members = bundles()[bundle]
    wanted: dict[str, list[str]] = {}
    for member in members:
        for imported in modules[member].imports:
            other = bundle_of(imported)
            if other != bundle and modules[imported].name not in wanted.setdefault(other, []):
                wanted[other].append(modules[imported].name)
    head = "".join(
        f'import {{ {", ".join(names)} }} from "./{PurePosixPath(other).name}";\n' for other, names in wanted.items()
    )
    body = "".join(_wrapped(modules[member], modules) for member in members)
    exported = ", ".join(modules[member].name for member in members)
    said = "// The phone side's modules, bundled at collectstatic (scoring/web/bundles.py).\n"
    return f"{said}{head}{body}export {{ {exported} }};\n"
