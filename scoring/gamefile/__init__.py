"""The game file (``docs/game-file.md``): reading, checking and writing it, in plain Python, and
the spreadsheet *Your data* downloads beside it.

- ``reading``: ``parse_document`` turns the JSON text into ``GameData`` values or raises
  ``GameFileError`` with every problem it found, each named by its path
  (``games[0].players[2].end.farms``); its grammar builds on the primitive checks (``checks``);
- ``writing``: ``dump_document`` writes ``GameData`` back, ``to_json`` as text;
- ``data``: the values a file holds (``GameData``, ``PlayerData``, ``ChangeData``);
- ``problems``: what is wrong with a file, in the language being spoken (``translate_with``);
- ``history``: the change history in the pad's words (``entry_of_field``, ``value_of_text`` and
  their inverses), so the selectors and services need no rules of their own;
- ``fingerprints``: ``game_fingerprint`` says when two games are the same game (an import skips
  the games its account already has);
- ``scores``: what ``manage.py score_game`` prints;
- ``spreadsheet``: the CSV download, one row per player of the stored games (the one module here
  that reads the database: import it by name).

It reads no database and no settings (Django comes in only through ``scoring.fields``, whose
labels are translated, and ``translate_with``): the commands and the import service share this
one reader, and the engine scores what it returns. Callers import from here:
``from scoring.gamefile import GameData, parse_document``.
"""

from scoring.gamefile.data import (
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_AUTHOR_LENGTH,
    ChangeData,
    ChangeValue,
    GameData,
    PlayerData,
)
from scoring.gamefile.fingerprints import game_fingerprint
from scoring.gamefile.history import entry_of_field, field_of_entry, text_of_value, value_of_text
from scoring.gamefile.problems import GameFileError, Problem, translate_with
from scoring.gamefile.reading import checked_text, parse_document, read_document
from scoring.gamefile.scores import score_document
from scoring.gamefile.writing import dump_change, dump_document, dump_game, dump_player, to_json

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "MAX_AUTHOR_LENGTH",
    "ChangeData",
    "ChangeValue",
    "GameData",
    "GameFileError",
    "PlayerData",
    "Problem",
    "checked_text",
    "dump_change",
    "dump_document",
    "dump_game",
    "dump_player",
    "entry_of_field",
    "field_of_entry",
    "game_fingerprint",
    "parse_document",
    "read_document",
    "score_document",
    "text_of_value",
    "to_json",
    "translate_with",
    "value_of_text",
]
