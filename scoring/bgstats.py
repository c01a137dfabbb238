"""A finished game as a play for BG Stats (the board game statistics app): the address behind the
results page's *Log this play in BG Stats*, which opens BG Stats with the play filled in, ready to
save. Nothing is sent from here: the player follows the link on their own device.

BG Stats takes one play per address, as JSON in its ``data`` parameter
(``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>``). BG Stats' own page on
it was not at hand: the field names are those the apps that link to it use (``sourceName``,
``sourcePlayId``, ``playDate`` as "YYYY-MM-DD HH:MM:SS", ``game`` with ``name``, ``sourceGameId``
and ``bggId``, ``players`` with ``name``, ``sourcePlayerId``, ``score``, ``rank``, ``winner``,
``startPlayer`` and ``role``, and ``comments``).

The play is read from the results' own ``Scoreboard`` (the engine's outcome the page shows),
never scored again here.
"""

from __future__ import annotations

import hashlib
import json
from urllib.parse import quote

from django.utils.translation import gettext as _

from scoring.categories import END_CATEGORIES
from scoring.models import Seat
from scoring.scoreboard import Scoreboard

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
# Who sends the play. BG Stats remembers how a user matched our game and our players to theirs
# by this name and the ids below, so none of them may change once plays are logged with them.
SOURCE_NAME = "Apiary Scorepad"
GAME_NAME = "Apiary"
# The board game (Apiary itself), not one game of ours: one id for every play, so that BG Stats
# asks which of its games it is once, not at every play. Our game's public id is the play's id.
SOURCE_GAME_ID = "apiary"
# Apiary's BoardGameGeek id (boardgamegeek.com/boardgame/400314/apiary), with which BG Stats
# finds the game in its catalogue.
BGG_ID = 400314
# Addresses past 2,000 characters are where old browsers and some link handlers give up. The
# per-category breakdown (``comments``) goes first when a play is longer, the factions next.
MAX_LENGTH = 2000


def play_link(board: Scoreboard) -> str:
    """The address that opens BG Stats with this game as a play, or "" while the game is in
    progress (only a finished game is a play to log). Within ``MAX_LENGTH`` characters whenever
    the names and scores alone fit (five long names in a non-Latin script may not: the address
    is then longer, which today's browsers still follow)."""
    if not board.game.is_finished:
        return ""
    play = play_data(board)
    link = _address(play)
    if len(link) > MAX_LENGTH:
        del play["comments"]
        link = _address(play)
    if len(link) > MAX_LENGTH:
        for player in play["players"]:
            player.pop("role", None)
        link = _address(play)
    return link


def play_data(board: Scoreboard) -> dict:
    """The play as BG Stats reads it: the date, the game, each player's total, rank and victory
    (every winner of a shared victory wins), seat 1 as the start player, and the per-category
    breakdown in the comments."""
    game = board.game
    players = []
    for view in board.views:
        player = {
            "name": view.name,
            "sourcePlayerId": player_id(view.seat),
            "score": view.result.total,
            "rank": view.result.rank,
            "winner": view.result.winner,
            "startPlayer": view.seat.number == 1,
        }
        if view.seat.faction:
            player["role"] = view.seat.faction
        players.append(player)
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": game.public_id,
        # The day alone is known: noon UTC is that day wherever the player's phone is (12 hours
        # either side), where midnight would show the day before west of Greenwich.
        "playDate": f"{game.played_on.isoformat()} 12:00:00",
        "game": {"name": GAME_NAME, "sourceGameId": SOURCE_GAME_ID, "bggId": BGG_ID},
        "players": players,
        "comments": "\n".join(breakdown_line(board, position) for position in range(len(board.views))),
    }


def player_id(seat: Seat) -> str:
    """The seat's person as the same id from one game to the next: their player record (an
    account's games), else their name ignoring case (a visitor's, which have no records; a
    digest, so the name is not written twice into the address)."""
    if seat.player_id is not None:
        return f"player-{seat.player_id}"
    return "name-" + hashlib.blake2s(Seat.key_for(seat.name).encode(), digest_size=6).hexdigest()


def breakdown_line(board: Scoreboard, position: int) -> str:
    """One player's VP by category in a line (the categories that scored nothing left out):
    "Alice: Farm income 20, Comb majorities 6"."""
    result = board.result.players[position]
    parts = [(_(c.short_label or c.label), result.category_vp[c.key])
             for c in (*board.during_categories, *END_CATEGORIES)]
    parts.append((_("Comb majorities"), result.majority))
    points = ", ".join(f"{label} {vp}" for label, vp in parts if vp) or "0"
    # Translators: one line of a play's comments in BG Stats: a player's name, then their VP by category.
    return _("%(name)s: %(points)s") % {"name": board.views[position].name, "points": points}


def _address(play: dict) -> str:
    # Compact JSON, its accents as themselves (percent-encoded as UTF-8: shorter than \\u escapes).
    # Everything is encoded but the JSON's own ":" and ",", which a query may hold as they are
    # (RFC 3986) and every decoder leaves alone: a third shorter. Spaces are %20, never "+", which
    # some readers would keep as a "+".
    data = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return f"{CREATE_PLAY}?data={quote(data, safe=':,')}"
