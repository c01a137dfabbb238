"""A finished game as a play for BG Stats (the board game statistics app): the address behind the
results page's *Log this play in BG Stats*, which opens BG Stats with the play filled in, ready to
save. Nothing is sent from here: the player follows the link on their own device.

BG Stats takes one play per address, as JSON in its ``data`` parameter
(``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>``), as its page "Push plays
to BG Stats from other apps or websites" (bgstatsapp.com/support/) gives it: ``sourceName``,
``sourcePlayId``, ``playDate`` (a date and time, "YYYY-MM-DD HH:MM:SS"), ``durationMin`` (the
play's length in minutes), ``game`` with ``name``, ``sourceGameId`` and ``bggId``, ``players``
with ``name``, ``sourcePlayerId``, ``score``, ``rank``, ``winner``, ``startPlayer`` and ``role``,
and ``comments``. BG Stats remembers how its user matched our game and players to theirs, by our
ids, for the next import.

When the play happened, as the apps that link to BG Stats send it: the time it ended, in UTC
(``end_of_play``: when the table first finished it, a correction after reopening it aside), and
how long it lasted: as the table said on the results (``Game.play_minutes``), else as the pad
saw it (``play_minutes``; most tables type their values after the game, which says nothing).

The play is read from the results' own ``Scoreboard`` (the engine's outcome the page shows),
never scored again here; what the board does not hold (the first value entered, the first
finish, the players' records' names) is read in three statements (``play_facts``).
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta
from urllib.parse import quote

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.models import Game, Seat
from scoring.presenters.board import Scoreboard
from scoring.rules.categories import END_CATEGORIES
from scoring.selectors.changes import PlayFacts
from scoring.wording.numbers_and_dates import figure

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
# Addresses past 2,000 characters are where old browsers and some link handlers give up. A play
# longer than that is shortened: its per-category breakdown (``comments``) written as a table
# (the categories named once), then the factions left out. The breakdown itself is never left
# out: a play still longer is sent as it is, which today's browsers follow.
MAX_LENGTH = 2000
# The finish is when the play ended if it falls within a day of the day played (a game that
# ends past midnight, a date typed by a table in another time zone than the server's). Further
# off (a game imported from a file, finished when it was imported; a game dated another day),
# only the day is known.
FINISH_WITHIN = timedelta(days=1)
# How long a game of Apiary plausibly lasts, from the first value entered to the finish (the box
# says 60 to 90 minutes): outside it, no length is sent rather than a wrong one. Shorter, the pad
# saw the scoring, not the game (a table that types every value at the end); longer, a game left
# open (finished the next day, or corrected later).
PLAUSIBLE_LENGTH = (timedelta(minutes=20), timedelta(hours=6))


def play_link(board: Scoreboard, facts: PlayFacts) -> str:
    """The address that opens BG Stats with this game as a play, or "" while the game is in
    progress (only a finished game is a play to log). Shortened as it needs to be to stay within
    ``MAX_LENGTH`` characters: the breakdown as a table, then no factions; never without a player
    or the breakdown (five long names and a French breakdown may take more: the address is then
    longer, which today's browsers still follow)."""
    if not board.game.is_finished:
        return ""
    play = play_data(board, facts)
    if len(_address(play)) > MAX_LENGTH:
        play["comments"] = breakdown_table(board)
    if len(_address(play)) > MAX_LENGTH:
        for player in play["players"]:
            player.pop("role", None)
    return _address(play)


def play_data(board: Scoreboard, facts: PlayFacts) -> dict:
    """The play as BG Stats reads it: when it ended (in UTC) and how long it lasted, when known,
    the game, each player's total, rank and victory (every winner of a shared victory wins), seat
    1 as the start player, and the per-category breakdown in the comments."""
    game = board.game
    players = []
    for view in board.views:
        player = {
            "name": view.name,
            "sourcePlayerId": player_id(view.seat, facts.player_keys.get(view.seat.number)),
            "score": view.result.total,
            "rank": view.result.rank,
            "winner": view.result.winner,
            "startPlayer": view.seat.number == 1,
        }
        if view.seat.faction:
            player["role"] = view.seat.faction
        players.append(player)
    ended = end_of_play(game, facts.first_finish)
    play: dict[str, object] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": game.public_id,
        # The day alone known: noon UTC is that day wherever the player's phone is (12 hours
        # either side), where midnight would show the day before west of Greenwich.
        "playDate": f"{ended:%Y-%m-%d %H:%M:%S}" if ended else f"{game.played_on.isoformat()} 12:00:00",
        "game": {"name": GAME_NAME, "sourceGameId": SOURCE_GAME_ID, "bggId": BGG_ID},
        "players": players,
        "comments": "\n".join(breakdown_line(board, position) for position in range(len(board.views))),
    }
    minutes = game.play_minutes or play_minutes(facts.first_entry, ended)  # (the table's word first)
    if minutes is not None:
        play["durationMin"] = minutes
    return play


def end_of_play(game: Game, first_finish: datetime | None = None) -> datetime | None:
    """When the play ended, in UTC: when the table first finished the game (``first_finish``,
    else its finish), if that falls within ``FINISH_WITHIN`` of the day played (that day in the
    server's time zone, as a new game's date is); None when only the day is known."""
    finished = first_finish or game.finished_at
    if finished is None or abs(timezone.localdate(finished) - game.played_on) > FINISH_WITHIN:
        return None
    return finished.astimezone(UTC)


def play_minutes(started: datetime | None, ended: datetime | None) -> int | None:
    """The play's length in whole minutes, from the first value entered to its end, when both
    are known and it is one a game can take (``PLAUSIBLE_LENGTH``); None otherwise."""
    if started is None or ended is None:
        return None
    length = ended - started
    shortest, longest = PLAUSIBLE_LENGTH
    if not shortest <= length <= longest:
        return None
    return round(length / timedelta(minutes=1))


def player_id(seat: Seat, name_key: str | None) -> str:
    """The seat's person as the same id from one play to the next, whoever keeps the game: a
    digest of their name ignoring case, their player record's when the game is an account's (so
    that the seats of a name merged into another person count as that person's), else the seat's
    (a visitor's games have no records). The same before and after an account claims a visitor's
    games, and after an import into another account, where the records are made anew (issue
    49); a digest, so that the name is not written twice into the address."""
    key = name_key or Seat.key_for(seat.name)
    return "name-" + hashlib.blake2s(key.encode(), digest_size=6).hexdigest()


def breakdown_line(board: Scoreboard, position: int) -> str:
    """One player's VP by category in a line (the categories that scored nothing left out):
    "Alice: Farm income 20, Comb majorities 6"."""
    result = board.result.players[position]
    parts = [
        (_(c.short_label or c.label), result.category_vp[c.key]) for c in (*board.during_categories, *END_CATEGORIES)
    ]
    parts.append((_("Comb majorities"), result.majority))
    points = ", ".join(f"{label} {figure(vp)}" for label, vp in parts if vp) or "0"  # ("Carvings −3")
    # Translators: one line of a play's comments in BG Stats: a player's name, then their VP by category.
    return _("%(name)s: %(points)s") % {"name": board.views[position].name, "points": points}


def breakdown_table(board: Scoreboard) -> str:
    """The players' VP by category as a table, shorter than a line each (``breakdown_line``): the
    categories that scored for somebody named once, then each player's VP in that order:
    "Farm income,Comb majorities" then "Alice: 20,6", "Bruno: 5,0" (commas alone, semicolons in
    French: an address keeps them as they are, where a space or a slash takes three characters)."""
    results = board.result.players
    columns = [
        (_(c.short_label or c.label), [result.category_vp[c.key] for result in results])
        for c in (*board.during_categories, *END_CATEGORIES)
    ]
    columns.append((_("Comb majorities"), [result.majority for result in results]))
    scored = [(label, vps) for label, vps in columns if any(vps)]
    # Between two figures, the separator the language reads as one (French writes "1,5" for one
    # and a half: a semicolon there), as an address keeps it; a negative one with its true minus.
    separator = pgettext("BG Stats: between the figures of a play's table", ",")
    lines = [separator.join(label for label, _vps in scored)]
    for position, view in enumerate(board.views):
        points = separator.join(figure(vps[position]) for _label, vps in scored) or "0"
        lines.append(_("%(name)s: %(points)s") % {"name": view.name, "points": points})
    return "\n".join(lines)


def _address(play: dict) -> str:
    # Compact JSON, its accents as themselves (percent-encoded as UTF-8: shorter than \\u escapes).
    # Everything is encoded but the JSON's own ":" and "," (and the French table's ";"), which a
    # query may hold as they are (RFC 3986) and every decoder leaves alone: a third shorter.
    # Spaces are %20, never "+", which some readers would keep as a "+".
    data = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return f"{CREATE_PLAY}?data={quote(data, safe=':,;')}"
