"""Writing a game file: ``GameData`` as the document ``docs/game-file.md`` describes, and its JSON text."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from scoring.gamefile.data import FORMAT_NAME, FORMAT_VERSION, ChangeData, GameData, PlayerData
from scoring.rules.categories import During, Section, categories_of


def dump_game(game: GameData) -> dict[str, Any]:
    document: dict[str, Any] = {}
    if game.played_on is not None:
        document["played_on"] = game.played_on.isoformat()
    document["notes"] = game.notes
    document["end_trigger_token"] = game.end_trigger_token
    during = During(game.during)
    if during != During.BREAKDOWN:  # (left out for the breakdown: the games of every earlier file)
        document["during"] = during.value
    if game.play_minutes is not None:
        document["play_minutes"] = game.play_minutes
    if game.started_at is not None:
        document["started_at"] = game.started_at.isoformat()
    if game.finished_at is not None:
        document["finished_at"] = game.finished_at.isoformat()
    document["comb"] = [{"first": sector.first, "second": sector.second} for sector in game.comb]
    document["players"] = [dump_player(player, during) for player in sorted(game.players, key=lambda p: p.seat)]
    if game.changes:
        document["changes"] = [dump_change(change) for change in game.changes]
    return document


def dump_change(change: ChangeData) -> dict[str, Any]:
    document: dict[str, Any] = {
        "player": change.player,
        "entry": change.entry,
        "old": change.old,
        "new": change.new,
        "at": change.at.isoformat(),
        "by": change.by,
    }
    if change.by_link:
        document["by_link"] = True
    if change.undoes is not None:
        document["undoes"] = change.undoes
    return document


def dump_player(player: PlayerData, during: During = During.BREAKDOWN) -> dict[str, Any]:
    document: dict[str, Any] = {"name": player.name, "seat": player.seat}
    if player.faction:
        document["faction"] = player.faction
    document["automa"] = player.automa
    document["active_workers"] = player.active_workers or 0
    for section in (Section.DURING, Section.END):
        document[section.value] = {
            c.key: player.entries.get(c.key, False if c.is_flag else 0) for c in categories_of(during, section)
        }
    document["hibernation"] = list(player.hibernation)
    return document


def dump_document(games: Sequence[GameData]) -> dict[str, Any]:
    return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "games": [dump_game(game) for game in games]}


def to_json(document: Any) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
