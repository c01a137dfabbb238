"""Reading a game file: ``parse_document`` turns its JSON text into ``GameData`` values, or raises
``GameFileError`` with every problem it found, each named by its path. The document's grammar
(games, comb, players, sections, tokens, changes) builds on the primitive checks (``checks``)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from scoring.fields import WORKERS
from scoring.gamefile.checks import Checks, _describe, _is_int, _object_pairs
from scoring.gamefile.data import (
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_AUTHOR_LENGTH,
    ChangeData,
    ChangeValue,
    GameData,
    PlayerData,
)
from scoring.gamefile.history import _HIBERNATION_ENTRY
from scoring.gamefile.problems import GameFileError, Problem, _, number
from scoring.rules.categories import (
    CATEGORY_BY_KEY,
    DEFAULT_END_TRIGGER_TOKEN,
    END_TRIGGER_TOKENS,
    MAX_ACTIVE_WORKERS,
    MAX_FACTION_LENGTH,
    MAX_NAME_LENGTH,
    MAX_NOTES_LENGTH,
    MAX_PLAY_MINUTES,
    MAX_PLAYERS,
    MAX_SECTOR_VP,
    MAX_SECTORS,
    MIN_PLAYERS,
    TOKENS_PER_PLAYER,
    Category,
    During,
    Section,
    categories_of,
)
from scoring.rules.engine import Sector
from scoring.rules.names import name_key
from scoring.rules.sums import MAX_SUM_LENGTH, NotASum, evaluate_sum, is_sum, normalize

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


_MISSING = object()


def parse_document(text: str | bytes) -> list[GameData]:
    """Read a whole game file; raises GameFileError naming every problem by its path."""
    try:
        document = json.loads(text, object_pairs_hook=_object_pairs)
    except json.JSONDecodeError as error:
        raise GameFileError(
            [
                Problem(
                    "(document)",
                    _("is not valid JSON at line %(line)s, column %(column)s: %(reason)s")
                    % {"reason": json_error_words(error.msg), "line": error.lineno, "column": error.colno},
                )
            ]
        ) from None
    except UnicodeDecodeError:
        raise GameFileError([Problem("(document)", _("is not UTF-8 text"))]) from None
    except RecursionError:
        raise GameFileError([Problem("(document)", _("is nested too deeply to be a game file"))]) from None
    except ValueError:  # (the one other that json.loads raises: Python reads no integer that long)
        raise GameFileError(
            [
                Problem(
                    "(document)",
                    _("holds a number of more than %(digits)s digits, which cannot be read")
                    % {"digits": sys.get_int_max_str_digits()},
                )
            ]
        ) from None
    return read_document(document)


def json_error_words(reason: str) -> str:
    """What Python's json module found wrong (``JSONDecodeError.msg``, always English), in the
    language being spoken: a page in French never shows "Expecting value"."""
    if reason.startswith("Expecting value"):
        return _("a value is expected")
    if reason.startswith("Expecting property name"):
        return _("a key in double quotes is expected")
    if reason.startswith("Expecting ':'"):
        return _("a colon is expected after the key")
    if reason.startswith("Expecting ','"):
        return _("a comma, or the end of the list or object, is expected")
    if reason.startswith("Illegal trailing comma"):
        return _("a comma cannot come just before the end of a list or an object")
    if reason.startswith("Unterminated string"):
        return _("a text that starts here has no closing double quote")
    if reason.startswith("Invalid control character"):
        return _("a text holds a line break or another control character, which JSON writes as an escape")
    if reason.startswith("Invalid \\"):
        return _("a backslash in a text starts no escape that JSON knows")
    if reason.startswith("Extra data"):
        return _("something follows the end of the document")
    return _("the text does not follow the grammar of JSON")


def read_document(document: Any) -> list[GameData]:
    """Check an already decoded document (dicts and lists) and return its games."""
    reader = _Reader()
    games = reader.document(document)
    if reader.problems:
        raise GameFileError(reader.problems)
    return games


def checked_text(raw: bytes) -> str:
    """An uploaded game file as text, checked whole; raises GameFileError with every problem by path."""
    try:
        text = raw.decode("utf-8-sig")  # a byte order mark (a Windows editor's) is no problem
    except UnicodeDecodeError:
        raise GameFileError([Problem("(document)", _("is not UTF-8 text"))]) from None
    parse_document(text)
    return text


class _Reader(Checks):
    """The document's grammar: a game file's games, each game's comb, players, entries, tokens and
    change history, checked against each other."""

    def unknown_key_message(self, path: str, key: str) -> str:
        category = CATEGORY_BY_KEY.get(key)
        section = path.rsplit(".", 1)[-1]
        if category is not None and section == category.section.value and category.during is not None:
            return _(
                "is not a key of this game’s “during”: %(key)s belongs to a game whose “during” is “%(during)s”"
            ) % {"key": key, "during": category.during.value}
        if category is not None and section in ("during", "end"):
            return _("is not a key the format knows here: %(key)s belongs in %(section)s") % {
                "key": key,
                "section": category.section.value,
            }
        return _("is not a key the format knows")

    def document(self, document: Any) -> list[GameData]:
        root = self.object(document, "", ("format", "version", "games"), ("format", "version", "games"))
        if root is None:
            self.problems[-1] = Problem("(document)", self.problems[-1].message)
            return []
        if "format" in root and root["format"] != FORMAT_NAME:
            self.problem(
                "format",
                _("must be “%(format)s” (not %(value)s)") % {"format": FORMAT_NAME, "value": _describe(root["format"])},
            )
        if "version" in root and not (_is_int(root["version"]) and root["version"] == FORMAT_VERSION):
            self.problem(
                "version",
                _("must be %(version)s (not %(value)s)")
                % {"version": FORMAT_VERSION, "value": _describe(root["version"])},
            )
        if "games" not in root:
            return []
        games = root["games"]
        if not isinstance(games, list):
            self.problem("games", _("must be a list of games (not %(value)s)") % {"value": _describe(games)})
            return []
        # An empty list is a valid document (the backup of an account without games): it holds
        # nothing to score or to import.
        return [game for index, raw in enumerate(games) if (game := self.game(raw, f"games[{index}]"))]

    def game(self, raw: Any, path: str) -> GameData | None:
        keys = (
            "played_on",
            "notes",
            "end_trigger_token",
            "during",
            "play_minutes",
            "started_at",
            "finished_at",
            "comb",
            "players",
            "changes",
        )
        obj = self.object(raw, path, keys, ("players",))
        if obj is None:
            return None
        before = len(self.problems)

        played_on = None
        if "played_on" in obj:
            value = obj["played_on"]
            if isinstance(value, str) and _DATE.fullmatch(value):
                try:
                    played_on = date.fromisoformat(value)
                except ValueError:
                    self.problem(f"{path}.played_on", _("is not a real date: %(value)s") % {"value": value})
            else:
                self.problem(
                    f"{path}.played_on",
                    _("must be a date written YYYY-MM-DD (not %(value)s)") % {"value": _describe(value)},
                )
        notes = self.text(obj["notes"], f"{path}.notes", MAX_NOTES_LENGTH, lines=True) if "notes" in obj else ""
        token = DEFAULT_END_TRIGGER_TOKEN
        if "end_trigger_token" in obj:
            value = obj["end_trigger_token"]
            if _is_int(value) and value in END_TRIGGER_TOKENS:
                token = value
            else:
                self.problem(
                    f"{path}.end_trigger_token", _("must be 6 or 7 (not %(value)s)") % {"value": _describe(value)}
                )
        during = During.BREAKDOWN  # (a file from before the VP track: every game was a breakdown)
        if "during" in obj:
            value = obj["during"]
            if isinstance(value, str) and value in {during.value for during in During}:
                during = During(value)
            else:
                self.problem(
                    f"{path}.during", _("must be “track” or “breakdown” (not %(value)s)") % {"value": _describe(value)}
                )

        minutes = (
            self.integer(obj["play_minutes"], f"{path}.play_minutes", 1, MAX_PLAY_MINUTES)
            if "play_minutes" in obj
            else None
        )

        started_at = self.date_time(obj["started_at"], f"{path}.started_at") if "started_at" in obj else None
        finished_at = self.date_time(obj["finished_at"], f"{path}.finished_at") if "finished_at" in obj else None
        if started_at is not None and finished_at is not None and finished_at < started_at:
            self.problem(
                f"{path}.finished_at",
                _("cannot be earlier than the game’s start, started_at (%(started)s)") % {"started": obj["started_at"]},
            )

        before_comb = len(self.problems)
        comb = self.comb(obj.get("comb", []), f"{path}.comb")
        sector_count = len(comb) if comb is not None else None
        comb_valid = len(self.problems) == before_comb
        before_players = len(self.problems)
        players = self.players(obj.get("players"), f"{path}.players", sector_count, during)
        # The changes are checked against the seats and the comb only when those are valid.
        seat_count = len(players) if players is not None and len(self.problems) == before_players else None
        changes = (
            self.changes(obj["changes"], f"{path}.changes", seat_count, sector_count if comb_valid else None)
            if "changes" in obj
            else []
        )
        if len(self.problems) > before or comb is None or players is None:
            return None
        return GameData(
            players=players,
            comb=comb,
            played_on=played_on,
            notes=notes or "",
            end_trigger_token=token,
            changes=changes,
            during=during,
            play_minutes=minutes,
            started_at=started_at,
            finished_at=finished_at,
        )

    def comb(self, raw: Any, path: str) -> list[Sector] | None:
        if not isinstance(raw, list):
            self.problem(path, _("must be a list of sectors (not %(value)s)") % {"value": _describe(raw)})
            return None
        if len(raw) > MAX_SECTORS:
            self.problem(
                path, _("must have at most %(max)s sectors (not %(count)s)") % {"max": MAX_SECTORS, "count": len(raw)}
            )
        sectors = []
        for index, item in enumerate(raw):
            where = f"{path}[{index}]"
            obj = self.object(item, where, ("first", "second"), ("first",))
            if obj is None:
                continue
            first = self.integer(obj.get("first", 0), f"{where}.first", 0, MAX_SECTOR_VP)
            second = self.integer(obj.get("second", 0), f"{where}.second", 0, MAX_SECTOR_VP)
            sectors.append(Sector(first or 0, second or 0))
        return sectors

    def players(self, raw: Any, path: str, sector_count: int | None, during: During) -> list[PlayerData] | None:
        if not isinstance(raw, list):
            if raw is not None:
                self.problem(path, _("must be a list of players (not %(value)s)") % {"value": _describe(raw)})
            return None
        if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
            self.problem(
                path,
                _("must have %(min)s to %(max)s players (not %(count)s)")
                % {"min": MIN_PLAYERS, "max": MAX_PLAYERS, "count": len(raw)},
            )
            return None
        players: list[PlayerData] = []
        names: dict[str, int] = {}
        seats: dict[int, int] = {}
        automa_at: int | None = None
        for index, item in enumerate(raw):
            where = f"{path}[{index}]"
            player = self.player(item, where, index, len(raw), sector_count, during)
            if player is None:
                continue
            folded = name_key(player.name)
            if folded in names:
                self.problem(
                    f"{where}.name",
                    _("%(name)s is already the name of players[%(index)s]")
                    % {"name": repr(player.name), "index": names[folded]},
                )
            names.setdefault(folded, index)
            if player.seat in seats:
                self.problem(
                    f"{where}.seat",
                    _("seat %(seat)s is already taken by players[%(index)s]")
                    % {"seat": player.seat, "index": seats[player.seat]},
                )
            seats.setdefault(player.seat, index)
            if player.automa:
                if automa_at is None:
                    automa_at = index
                else:
                    self.problem(
                        f"{where}.automa",
                        _("only one player may be the Automa, and players[%(index)s] is") % {"index": automa_at},
                    )
            players.append(player)
        return sorted(players, key=lambda player: player.seat)

    def player(
        self, raw: Any, path: str, index: int, count: int, sector_count: int | None, during: During
    ) -> PlayerData | None:
        keys = ("name", "seat", "faction", "automa", "active_workers", "during", "end", "hibernation")
        obj = self.object(raw, path, keys, ("name",))
        if obj is None:
            return None
        before = len(self.problems)
        name = (
            self.text(obj["name"], f"{path}.name", MAX_NAME_LENGTH, required=True, name=True) if "name" in obj else None
        )
        seat = self.integer(obj["seat"], f"{path}.seat", 1, count) if "seat" in obj else index + 1
        faction = (
            self.text(obj["faction"], f"{path}.faction", MAX_FACTION_LENGTH, name=True) if "faction" in obj else ""
        )
        automa = self.boolean(obj["automa"], f"{path}.automa") if "automa" in obj else False
        workers = (
            self.integer(obj["active_workers"], f"{path}.active_workers", 0, MAX_ACTIVE_WORKERS)
            if "active_workers" in obj
            else 0
        )
        entries: dict[str, int | bool] = {c.key: False if c.is_flag else 0 for c in categories_of(during)}
        for section in (Section.DURING, Section.END):
            if section.value in obj:
                entries.update(
                    self.section(obj[section.value], f"{path}.{section.value}", categories_of(during, section))
                )
        tokens = self.hibernation(obj.get("hibernation", _MISSING), f"{path}.hibernation", sector_count)
        if len(self.problems) > before or name is None or seat is None or tokens is None:
            return None
        return PlayerData(
            name=name,
            seat=seat,
            faction=faction or "",
            automa=bool(automa),
            active_workers=workers or 0,
            entries=entries,
            hibernation=tokens,
        )

    def section(self, raw: Any, path: str, categories: Sequence[Category]) -> dict[str, int | bool]:
        obj = self.object(raw, path, [c.key for c in categories])
        if obj is None:
            return {}
        entries: dict[str, int | bool] = {}
        for category in categories:
            if category.key not in obj:
                continue
            value = obj[category.key]
            where = f"{path}.{category.key}"
            checked = (
                self.boolean(value, where)
                if category.is_flag
                else self.integer(value, where, category.minimum, category.maximum)
            )
            if checked is not None:
                entries[category.key] = checked
        return entries

    def hibernation(self, raw: Any, path: str, sector_count: int | None) -> list[int] | None:
        if sector_count is None:
            return None
        if raw is _MISSING:
            return [0] * sector_count
        if not isinstance(raw, list):
            self.problem(
                path,
                _("must be a list of token counts, one per comb sector (not %(value)s)") % {"value": _describe(raw)},
            )
            return None
        if len(raw) != sector_count:
            self.problem(
                path,
                _("must have one count per comb sector, %(sectors)s in all (not %(count)s)")
                % {"sectors": sector_count, "count": len(raw)},
            )
            return None
        checked = [self.integer(value, f"{path}[{i}]", 0, TOKENS_PER_PLAYER) for i, value in enumerate(raw)]
        counts = [count for count in checked if count is not None]
        if len(counts) < len(checked):
            return None
        if sum(counts) > TOKENS_PER_PLAYER:
            self.problem(
                path,
                _("holds %(count)s hibernation tokens, but a player has only %(max)s")
                % {"max": TOKENS_PER_PLAYER, "count": sum(counts)},
            )
            return None
        return counts

    def changes(self, raw: Any, path: str, seat_count: int | None, sector_count: int | None) -> list[ChangeData]:
        """The optional ``changes`` of a game, oldest first. ``seat_count`` and ``sector_count``
        are None when the players or the comb are themselves invalid (then only what can be
        checked without them is)."""
        if not isinstance(raw, list):
            self.problem(path, _("must be a list of changes (not %(value)s)") % {"value": _describe(raw)})
            return []
        changes: list[ChangeData | None] = []
        latest: tuple[int, datetime] | None = None  # the last valid time, and whose
        for index, item in enumerate(raw):
            where = f"{path}[{index}]"
            change = self.change(item, where, index, seat_count, sector_count)
            changes.append(change)
            if change is None:
                continue
            if latest is not None and change.at < latest[1]:
                self.problem(
                    f"{where}.at",
                    _("is earlier than changes[%(index)s] (%(at)s): changes are listed oldest first")
                    % {"index": latest[0], "at": latest[1].isoformat()},
                )
            else:
                latest = (index, change.at)
            if change.undoes is not None:
                undone = changes[change.undoes]
                if undone is not None and (undone.player, undone.entry) != (change.player, change.entry):
                    self.problem(
                        f"{where}.undoes",
                        _(
                            "a change can only undo a change of the same entry, and changes[%(index)s] changed "
                            "%(undone_entry)s of player %(undone_player)s (not %(entry)s of player %(player)s)"
                        )
                        % {
                            "index": change.undoes,
                            "undone_entry": undone.entry,
                            "undone_player": undone.player,
                            "entry": change.entry,
                            "player": change.player,
                        },
                    )
        return [change for change in changes if change is not None]

    def change(
        self, raw: Any, path: str, index: int, seat_count: int | None, sector_count: int | None
    ) -> ChangeData | None:
        keys = ("player", "entry", "old", "new", "at", "by", "by_link", "undoes")
        obj = self.object(raw, path, keys, ("player", "entry", "old", "new", "at", "by"))
        if obj is None:
            return None
        before = len(self.problems)
        player = None
        if "player" in obj:
            value = obj["player"]
            if seat_count is None:
                player = self.integer(value, f"{path}.player", 1, MAX_PLAYERS)
            elif _is_int(value) and 1 <= value <= seat_count:
                player = value
            else:
                seats = (
                    _("must be 1, the seat of the game’s one player (not %(value)s)")
                    if seat_count == 1
                    else _("must be the seat of one of the game’s players, from 1 to %(count)s (not %(value)s)")
                )
                self.problem(f"{path}.player", seats % {"count": seat_count, "value": _describe(value)})
        entry = self.entry(obj["entry"], f"{path}.entry", sector_count) if "entry" in obj else None
        old = self.change_value(obj["old"], f"{path}.old", entry) if "old" in obj and entry else None
        new = self.change_value(obj["new"], f"{path}.new", entry) if "new" in obj and entry else None
        at = self.date_time(obj["at"], f"{path}.at") if "at" in obj else None
        by = self.text(obj["by"], f"{path}.by", MAX_AUTHOR_LENGTH, name=True) if "by" in obj else None
        by_link = self.boolean(obj["by_link"], f"{path}.by_link") if "by_link" in obj else False
        undoes = None
        if "undoes" in obj:
            value = obj["undoes"]
            if _is_int(value) and 0 <= value < index:
                undoes = value
            else:
                if index == 0:
                    earlier = _("cannot be given on the first change: it has no earlier change to undo")
                elif index == 1:
                    earlier = _("must be 0, the index of the change before it (not %(value)s)")
                else:
                    earlier = _(
                        "must be the index of an earlier change in this list, from 0 to %(last)s (not %(value)s)"
                    )
                self.problem(f"{path}.undoes", earlier % {"last": index - 1, "value": _describe(value)})
        if len(self.problems) > before or player is None or entry is None or at is None or by is None:
            return None
        return ChangeData(
            player=player, entry=entry, old=old, new=new, at=at, by=by, by_link=bool(by_link), undoes=undoes
        )

    def entry(self, value: Any, path: str, sector_count: int | None) -> str | None:
        if isinstance(value, str):
            if value in CATEGORY_BY_KEY or value == WORKERS:
                return value
            if found := _HIBERNATION_ENTRY.fullmatch(value):
                position = int(found.group(1))
                if sector_count is None or position < sector_count:
                    return value
                if not sector_count:
                    message = _("names comb sector index %(index)s, but the comb has no sectors")
                elif sector_count == 1:
                    message = _("names comb sector index %(index)s, but the comb has 1 sector (only hibernation[0])")
                else:
                    message = _(
                        "names comb sector index %(index)s, but the comb has %(count)s sectors "
                        "(hibernation[0] to hibernation[%(last)s])"
                    )
                self.problem(path, message % {"index": position, "count": sector_count, "last": sector_count - 1})
                return None
        self.problem(
            path,
            _("must be a category key, “active_workers” or “hibernation[<sector index>]” (not %(value)s)")
            % {"value": _describe(value)},
        )
        return None

    def change_value(self, value: Any, path: str, entry: str) -> ChangeValue:
        """An old or new value of a change of ``entry`` (records a problem and returns None when
        it is not one)."""
        category = CATEGORY_BY_KEY.get(entry)
        if category is not None and category.is_flag:
            return self.boolean(value, path)
        if category is not None:
            low, high = category.minimum, category.maximum
            expected = _("a whole number from %(low)s to %(high)s, a sum such as “3+6+2”, or null") % {
                "low": number(low),
                "high": number(high),
            }
        else:
            low, high = (0, MAX_ACTIVE_WORKERS) if entry == WORKERS else (0, TOKENS_PER_PLAYER)
            expected = _("a whole number from %(low)s to %(high)s, or null") % {
                "low": number(low),
                "high": number(high),
            }
        if value is None:
            return None
        if _is_int(value) and low <= value <= high:
            return value
        if _is_int(value):
            self.problem(
                path, _("must be %(expected)s (not %(value)s)") % {"expected": expected, "value": number(value)}
            )
            return None
        if category is not None and isinstance(value, str) and is_sum(value):
            text = normalize(value)
            try:
                total = evaluate_sum(text)
            except NotASum:
                self.problem(
                    path,
                    _(
                        "must be %(expected)s (not %(value)s); a sum joins whole numbers with + and -, in at "
                        "most %(max)s characters"
                    )
                    % {"expected": expected, "max": MAX_SUM_LENGTH, "value": _describe(value)},
                )
                return None
            if not low <= total <= high:
                self.problem(
                    path,
                    _("the sum “%(text)s” makes %(total)s; it must be from %(low)s to %(high)s")
                    % {"text": text, "total": number(total), "low": number(low), "high": number(high)},
                )
                return None
            return text
        self.problem(
            path, _("must be %(expected)s (not %(value)s)") % {"expected": expected, "value": _describe(value)}
        )
        return None
