"""The project stands on its own: nothing it keeps in git reaches outside its own folder.

A person who downloads only the project has no reference folder beside it, so no tracked
file may point to one; the documents the README mentions must be in the repository.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Spelt in two pieces so that this file does not match itself.
OUTSIDE_REFERENCE = re.compile(r"\.\./" + "shared")


def tracked_files() -> list[Path]:
    try:
        listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        pytest.fail(f"git cannot list the project's files: {error}")
    return [ROOT / name for name in listing.decode().split("\0") if name]


def test_no_tracked_file_refers_to_a_folder_outside_the_project():
    offenders = []
    for path in tracked_files():
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # pictures and other binary files
        for number, line in enumerate(text.splitlines(), start=1):
            if OUTSIDE_REFERENCE.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


def test_every_local_link_of_the_readme_exists():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)", readme)
    local = [target for target in targets if "://" not in target and not target.startswith("mailto:")]
    assert local, "the README links to the project's documents"
    missing = [target for target in local if not (ROOT / target).exists()]
    assert missing == []


def test_every_local_link_of_the_documents_exists():
    """The documents of docs/ link to each other and to the README by paths from their own folder."""
    missing = []
    for document in sorted((ROOT / "docs").glob("*.md")):
        for target in re.findall(r"\]\(([^)#\s]+)", document.read_text(encoding="utf-8")):
            if "://" not in target and not target.startswith("mailto:") and not (document.parent / target).exists():
                missing.append(f"{document.name}: {target}")
    assert missing == []
