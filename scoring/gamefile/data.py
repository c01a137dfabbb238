"""A game as the game file holds it (``docs/game-file.md``): its players, comb, date, notes, way of
counting the during-the-game points and change history, in plain values the engine scores."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from scoring.rules.categories import DEFAULT_END_TRIGGER_TOKEN, During
from scoring.rules.engine import GameResult, PlayerSheet, Sector, score_game

FORMAT_NAME = "apiary-scorepad"


FORMAT_VERSION = 1


MAX_AUTHOR_LENGTH = 80  # a change's "by" (the pad's Change.by_name holds as many)


# A value of a change: a whole number, true/false (the hive-mat flag), a sum as it was typed
# ("3+6+2"), or None (not entered).
ChangeValue = int | bool | str | None


@dataclass
class PlayerData:
    name: str
    seat: int
    faction: str = ""
    automa: bool = False
    active_workers: int | None = 0  # None: not entered yet (a game just started)
    entries: dict[str, int | bool] = field(default_factory=dict)  # every category key
    hibernation: list[int] = field(default_factory=list)  # one count per comb sector

    def sheet(self) -> PlayerSheet:
        return PlayerSheet(entries=self.entries, active_workers=self.active_workers or 0, tokens=self.hibernation)


@dataclass(frozen=True)
class ChangeData:
    """One change of one entry of one player, as the pad recorded it (docs/game-file.md,
    "The change history")."""

    player: int  # the player's seat
    entry: str  # a category key, "active_workers" or "hibernation[<sector index>]"
    old: ChangeValue
    new: ChangeValue
    at: datetime  # aware
    by: str = ""  # who, in words ("" when nobody was recorded)
    by_link: bool = False  # made by the holder of a share link (``by`` is then the name they gave), never the owner
    undoes: int | None = None  # the index, in the game's list, of the change this one undid


@dataclass
class GameData:
    players: list[PlayerData]  # in seat order
    comb: list[Sector] = field(default_factory=list)
    played_on: date | None = None
    notes: str = ""
    end_trigger_token: int = DEFAULT_END_TRIGGER_TOKEN
    changes: list[ChangeData] = field(default_factory=list)  # oldest first
    # How the game scores its during-the-game points: the file's "during", the breakdown when left out.
    during: During = During.BREAKDOWN
    play_minutes: int | None = None  # how long the play lasted, as its table said (None: not said)
    started_at: datetime | None = None  # when the game was started on the pad (aware; None: not said)
    finished_at: datetime | None = None  # when it was finished (aware; None: in progress, or not said)

    def score(self) -> GameResult:
        return score_game(self.comb, [player.sheet() for player in self.players], self.during)
