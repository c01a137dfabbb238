"""Prose that cannot drift: every dotted name and file path that a docstring, a comment or a page
of ``docs/`` cites (``double backticks`` in Python, the phone side's modules and the templates,
`backticks` in Markdown) names something that exists. A cited name with a part that is one of
the project's modules or classes must resolve to a definition (a module, a function, a class, a
method, an attribute set in a class or module body) in the module that defines it; a cited path
must be a file or folder of the repository."""

from __future__ import annotations

import ast
import re
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHON_PACKAGES = ("scoring", "apiary_site")
CITING = ("scoring", "apiary_site", "tests", "bench", "scripts")
DOCS = ("README.md", "docs")
FILE_SUFFIXES = frozenset(
    [
        "py",
        "js",
        "mjs",
        "html",
        "md",
        "sh",
        "txt",
        "toml",
        "json",
        "jsonc",
        "css",
        "cfg",
        "po",
        "mo",
        "yml",
        "yaml",
        "svg",
        "png",
        "webmanifest",
        "csv",
        "ini",
    ]
)
DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
PATH = re.compile(r"[\w.-]+(?:/[\w.*-]+)+/?")
PYTHON_CITATION = re.compile(r"``([^`\n]+)``")
MARKDOWN_CITATION = re.compile(r"`+([^`\n]+)`+")


@cache
def tracked() -> frozenset[str]:
    """The repository's files (as git lists them, with files not committed yet)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return frozenset(listed)


@cache
def folders() -> frozenset[str]:
    return frozenset(str(Path(path).parent) for path in tracked()) | frozenset(
        "/".join(Path(path).parts[:depth]) for path in tracked() for depth in range(1, len(Path(path).parts))
    )


def _definitions(body: list[ast.stmt], prefix: str) -> Iterator[str]:
    """The qualified names a body defines: its functions, classes (and their bodies), and the
    names it assigns."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield f"{prefix}.{node.name}"
        elif isinstance(node, ast.ClassDef):
            yield f"{prefix}.{node.name}"
            yield from _definitions(node.body, f"{prefix}.{node.name}")
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        yield f"{prefix}.{name.id}"
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
            yield f"{prefix}.{node.target.id}"
        elif isinstance(node, ast.If):  # (a definition under a condition, TYPE_CHECKING aside)
            yield from _definitions(node.body, prefix)
            yield from _definitions(node.orelse, prefix)
        elif isinstance(node, ast.Try):
            yield from _definitions(node.body, prefix)


JS_DECLARATION = re.compile(r"^\s*(?:export\s+)?(?:async\s+)?(?:function\*?|const|let|class)\s+(\w+)", re.M)
JS_METHOD = re.compile(r"^\s{2,4}(?:async\s+)?(\w+)\s*\([^)]*\)\s*\{", re.M)
JS_KEY = re.compile(r"^\s{2,4}(\w+):", re.M)


@cache
def defined() -> frozenset[str]:
    """Every qualified name the project defines, by each of its tails of two parts or more (so
    ``pad.field_save`` and ``services.pad.field_save`` both cite ``scoring.services.pad.field_save``),
    and the phone side's modules' declarations (``fields.update``: ``static/scoring/fields.js``)."""
    names: set[str] = set()
    for path in sorted(tracked()):
        if path.endswith(".py") and path.split("/")[0] in PYTHON_PACKAGES:
            module = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
            names.add(module)
            names.update(_definitions(ast.parse((ROOT / path).read_text()).body, module))
        elif path.endswith(".js") and path.startswith("static/"):
            module = path.removesuffix(".js").replace("/", ".")
            source = (ROOT / path).read_text()
            names.add(module)
            for pattern in (JS_DECLARATION, JS_METHOD, JS_KEY):
                names.update(f"{module}.{name}" for name in pattern.findall(source))
    tails = set()
    for name in names:
        parts = name.split(".")
        tails.update(".".join(parts[start:]) for start in range(len(parts) - 1))
    return frozenset(tails)


@cache
def first_parts() -> frozenset[str]:
    """What a cited dotted name must start with to be checked: the project's modules and packages
    and its classes (``request.session`` or ``django.db`` are not the project's to check)."""
    classes = {part for name in defined() for part in name.split(".") if part[:1].isupper()}
    return frozenset({"scoring", "apiary_site"} | module_names() | classes)


@cache
def module_names() -> frozenset[str]:
    """The project's modules and packages by their own names (``pad``, ``services``), the phone
    side's modules too (``fields``)."""
    return frozenset(
        Path(path).with_suffix("").name if not path.endswith("__init__.py") else Path(path).parent.name
        for path in tracked()
        if path.split("/")[0] in PYTHON_PACKAGES and path.endswith(".py")
    ) | frozenset(Path(path).stem for path in tracked() if path.startswith("static/") and path.endswith(".js"))


def citations(path: str) -> Iterator[tuple[int, str]]:
    """Each citation of the file, with its line."""
    pattern = MARKDOWN_CITATION if path.endswith(".md") else PYTHON_CITATION
    for number, line in enumerate((ROOT / path).read_text().splitlines(), start=1):
        for cited in pattern.findall(line):
            yield number, cited.strip()


def unresolved(cited: str) -> str | None:
    """Why a citation names nothing, or None (it resolves, or it is not the project's to check)."""
    if "://" in cited or cited.startswith(("/", "../", "~")):
        return None
    if PATH.fullmatch(cited):
        return _path_unresolved(cited.rstrip("/"))
    name = cited.removesuffix("()")
    if not DOTTED.fullmatch(name):
        return None
    parts = name.split(".")
    if parts[0] not in first_parts() and not any(part[:1].isupper() and part in first_parts() for part in parts):
        return None
    if parts[-1] in FILE_SUFFIXES:  # a file named by itself (pad.js, settings.py)
        return None if any(Path(file).name == name for file in tracked()) else "no such file"
    return None if name in defined() else "not defined"


def _path_unresolved(path: str) -> str | None:
    """A path from the repository's top (``scoring/views/pad.py``), or the tail of one
    (``views/pad.py``); none is checked that git ignores (what a command writes: ``artifacts/``,
    ``backups/``) or that names no file of ours (``Europe/Paris``, a rate of ``30/600``)."""
    if path.split("/")[0] not in {Path(folder).name for folder in folders()} | {
        Path(file).parts[0] for file in tracked()
    }:
        return None
    if _ignored(path):
        return None
    if "*" in path:
        return None if any(Path(file).match(path) for file in tracked()) else "no such files"
    if path in tracked() or path in folders():
        return None
    if any(file.endswith("/" + path) for file in tracked()) or any(folder.endswith("/" + path) for folder in folders()):
        return None
    return "no such file or folder"


def _ignored(path: str) -> bool:
    return subprocess.run(["git", "check-ignore", "-q", "--no-index", path], cwd=ROOT).returncode == 0


def cited_files() -> list[str]:
    return sorted(
        path
        for path in tracked()
        if (path.endswith(".py") and path.split("/")[0] in CITING and "/migrations/" not in path)
        or (path.endswith(".js") and path.startswith(("static/scoring/", "tests/js/")))
        or (path.endswith(".html") and path.startswith("templates/"))
        or (path.endswith(".md") and (path in DOCS or path.startswith("docs/")))
    )


@pytest.mark.parametrize("path", cited_files())
def test_every_name_and_path_the_prose_cites_exists(path):
    broken = [
        f"{path}:{line}: {cited} ({why})" for line, cited in citations(path) if (why := unresolved(cited)) is not None
    ]
    assert broken == []


def test_the_check_finds_names_and_paths_that_are_gone():
    assert unresolved("services.pad.field_save") is None
    assert unresolved("pad.field_save()") is None
    assert unresolved("scoring/services/pad.py") is None
    assert unresolved("request.session") is None  # not the project's
    assert unresolved("services.field_save") == "not defined"  # re-exported once, not any more
    assert unresolved("games.game_lock") == "not defined"  # moved to services/locking.py
    assert unresolved("Scoreboard.no_such_method") == "not defined"
    assert unresolved("scoring/services.py") == "no such file or folder"
    assert unresolved("views/pad.py") is None  # (the tail of scoring/views/pad.py)
    assert unresolved("artifacts/flake-hunt.log") is None  # (written by a command: git ignores it)
    assert unresolved("Europe/Paris") is None  # (not a path of ours)
