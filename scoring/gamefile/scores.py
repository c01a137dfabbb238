"""A game file's games scored, as ``manage.py score_game`` prints them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.gamefile.data import GameData


def score_document(games: Sequence[GameData]) -> dict[str, Any]:
    scored = []
    for game in games:
        result = game.score()
        scored.append(
            {
                "players": [
                    {
                        "name": player.name,
                        "seat": player.seat,
                        "during": outcome.during,
                        "end": outcome.end,
                        "majority": outcome.majority,
                        "total": outcome.total,
                        "rank": outcome.rank,
                        "winner": outcome.winner,
                    }
                    for player, outcome in zip(game.players, result.players, strict=True)
                ]
            }
        )
    return {"games": scored}
