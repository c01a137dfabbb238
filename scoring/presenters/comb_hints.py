"""The comb's hints on the pad: the end of the game triggered (the comb full, or a player's
end-triggering token placed) and the counts to check (more tokens on the comb than it has spaces,
or than a player owns), in words."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.presenters.board import Scoreboard
from scoring.rules.categories import TOKENS_PER_PLAYER, comb_spaces
from scoring.wording.numbers_and_dates import ordinal
from scoring.wording.sentences import isolated, words


def tokens_on_comb(board: Scoreboard) -> int:
    return sum(view.tokens_placed for view in board.views)


def comb_overfilled(board: Scoreboard) -> str:
    """More tokens on the comb than it has spaces for the player count, in words ("" when
    they fit): saved as entered, but marked to check."""
    spaces, placed = comb_spaces(len(board.seats)), tokens_on_comb(board)
    if placed <= spaces:
        return ""
    return _(
        "%(count)s tokens are on the comb, but it has only %(spaces)s spaces for %(players)s players: check the counts."
    ) % {"count": placed, "spaces": spaces, "players": len(board.seats)}


def comb_hints(board: Scoreboard) -> list[dict]:
    """End-of-game hints and token warnings for the comb."""
    hints = []
    overfilled, spaces = comb_overfilled(board), comb_spaces(len(board.seats))
    if overfilled:
        hints.append({"level": "warning", "text": overfilled})
    elif board.sectors and tokens_on_comb(board) == spaces:
        hints.append(
            {
                "level": "end",
                "text": _(
                    "The comb is full (%(spaces)s spaces for %(players)s players): "
                    "the end of the game is triggered. "
                    "Everyone takes one more turn, then scoring begins."
                )
                % {"spaces": spaces, "players": len(board.seats)},
            }
        )
    trigger = board.game.end_trigger_token
    for view in board.views:
        if view.tokens_placed > TOKENS_PER_PLAYER:
            hints.append(
                {
                    "level": "warning",
                    "text": words(
                        _(
                            "%(name)s has %(count)s tokens on the comb, but each player owns only %(max)s: "
                            "check the counts."
                        ),
                        name=isolated(view.name),
                        count=view.tokens_placed,
                        max=TOKENS_PER_PLAYER,
                    ),
                }
            )
        elif view.tokens_placed >= trigger:
            hints.append(
                {
                    "level": "end",
                    "text": words(
                        _(
                            "%(name)s has placed their %(nth)s hibernation token: "
                            "the end of the game is triggered. "
                            "Everyone takes one more turn, then scoring begins."
                        ),
                        name=isolated(view.name),
                        nth=ordinal(trigger),
                    ),
                }
            )
    return hints
