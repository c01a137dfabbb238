"""What the game-file commands share: reading a document from a file or standard input."""

from __future__ import annotations

import sys

from django.core.management.base import CommandError

from scoring.gamefile import GameData, GameFileError, parse_document


def read_games(path: str) -> list[GameData]:
    """Parse the game file at ``path`` (``-`` for standard input) or fail with every problem."""
    try:
        if path == "-":
            text = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                text = handle.read()
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}") from None
    try:
        return parse_document(text)
    except GameFileError as error:
        count = len(error.problems)
        heading = f"{path} is not a valid game file ({count} problem{'s' if count != 1 else ''}):"
        raise CommandError("\n".join([heading, *(f"  {problem}" for problem in error.problems)])) from None
