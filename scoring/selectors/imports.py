"""What an import needs to know of the games already stored: their fingerprints, and so which of
a file's games it will add (the preview of *Your data*)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from scoring.gamefile import (
    GameData,
    PlayerData,
    game_fingerprint,
)
from scoring.models import (
    Game,
)
from scoring.rules.engine import GameResult, PlayerResult


def already_stored(owner, games: Sequence[GameData]) -> list[bool]:
    """For each game of a document, whether ``owner`` already has it: a stored game with the
    same fingerprint (``gamefile.fingerprints.game_fingerprint``; docs/game-file.md, "Importing the same
    games twice"). A game without a date counts as played today, the date an import gives it."""
    today = timezone.localdate()
    fingerprints = [game_fingerprint(game, undated_as=today) for game in games]
    known = fingerprints_stored(owner, fingerprints)
    return [fingerprint in known for fingerprint in fingerprints]


FINGERPRINTS_ASKED = 500  # fingerprints looked up in one query (far below any database's limit)


def fingerprints_stored(owner, fingerprints: Sequence[str]) -> set[str]:
    """Those of ``fingerprints`` that one of the owner's games has (owner None: a game of
    nobody), looked up in the database (``Game.fingerprint``, indexed by owner), a few hundred
    at a time: never the games themselves."""
    wanted = sorted(set(fingerprints))
    found: set[str | None] = set()  # (a game without a fingerprint never matches one: no None)
    for start in range(0, len(wanted), FINGERPRINTS_ASKED):
        found.update(
            Game.objects.filter(owner=owner, fingerprint__in=wanted[start : start + FINGERPRINTS_ASKED])
            .order_by()
            .values_list("fingerprint", flat=True)
        )  # (unordered: by the index alone)
    return {fingerprint for fingerprint in found if fingerprint is not None}


def games_added_since(owner, games: Sequence[GameData], since: datetime) -> int:
    """How many of a document's games ``owner`` has among its games stored since ``since`` (when
    the file was sent): what importing the file added, whichever requests stored them (two tabs
    adding one file each store part of it, and each finds the other's games already stored). A
    game the document holds twice counts once, as it is stored once."""
    today = timezone.localdate()
    wanted = sorted({game_fingerprint(game, undated_as=today) for game in games})
    added = 0
    for start in range(0, len(wanted), FINGERPRINTS_ASKED):
        asked = wanted[start : start + FINGERPRINTS_ASKED]
        stored = Game.objects.filter(owner=owner, created_at__gte=since, fingerprint__in=asked)
        added += stored.order_by().values("fingerprint").distinct().count()
    return added


PREVIEW_SHOWN = 100  # games the preview lists in each of its sections (the others are counted)


@dataclass
class PreviewGame:
    """A game of an uploaded file, as the preview shows it."""

    data: GameData
    result: GameResult

    @property
    def players(self) -> list[tuple[PlayerData, PlayerResult]]:
        return list(zip(self.data.players, self.result.players, strict=True))


@dataclass
class Preview:
    new: list[PreviewGame]  # what "Add" stores (the first PREVIEW_SHOWN)
    known: list[PreviewGame]  # skipped: the account already has them (the first PREVIEW_SHOWN)
    new_count: int = 0
    known_count: int = 0

    @property
    def new_more(self) -> int:
        return self.new_count - len(self.new)

    @property
    def known_more(self) -> int:
        return self.known_count - len(self.known)


def import_preview(owner, games: Sequence[GameData]) -> Preview:
    """The games of a checked document, split as ``services.imports.games_import`` will split them; the
    first ``PREVIEW_SHOWN`` of each kind are shown (a backup of thousands of games is counted)."""
    preview = Preview(new=[], known=[])
    for game, known in zip(games, already_stored(owner, games), strict=True):
        if known:
            preview.known_count += 1
            shown = preview.known
        else:
            preview.new_count += 1
            shown = preview.new
        if len(shown) < PREVIEW_SHOWN:
            shown.append(PreviewGame(data=game, result=game.score()))
    return preview
