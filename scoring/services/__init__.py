"""Writes: every change to stored games goes through one of these small functions, each owning
its transaction and returning what came of it, by subject:

- ``pad``: the pad's writes: a value saved (``field_save``), a plain post's values saved
  (``values_save``), a change undone through the same save (``change_undo``), the way of
  counting changed;
- ``finishing``: the pad's *Finish* (``pad_finish``: the game checked first), the game finished
  and reopened;
- ``games``: games started (and their comb layout saved) and deleted;
- ``imports``: games stored from game files, in batches, and their fingerprints;
- ``uploads``: game files waiting to be added, and adding them step by step;
- ``outcomes``: every seat's outcome stored with each change to its game;
- ``sharing``: share links made and revoked;
- ``people``: the players a game's seats are attached to, and two records of one person merged;
- ``visitors``: a visitor's games, kept by the account it makes;
- ``accounts``: an account's own settings (its language);
- ``locking``: the lock every write of a game takes first.

Callers import the functions from here: ``from scoring import services``.
"""

from scoring.services.accounts import (
    account_language_set,
)
from scoring.services.finishing import (
    FinishCheck,
    FinishOutcome,
    FinishResult,
    finish_check,
    game_finish,
    game_reopen,
    pad_finish,
    play_length_set,
)
from scoring.services.games import (
    PlayerSetup,
    comb_layout_save,
    game_create,
    game_delete,
    game_start,
)
from scoring.services.imports import (
    FINGERPRINT_BATCH,
    IMPORT_BATCH,
    SQLITE_LOCK_GIVEN_BACK,
    ImportResult,
    fingerprint_store,
    fingerprints_fill,
    game_store,
    games_import,
    games_store,
)
from scoring.services.locking import (
    game_lock,
)
from scoring.services.outcomes import (
    OUTCOME_FIELDS,
    game_outcome_recompute,
    game_outcome_store,
    outcome_fields,
    outcomes_store,
)
from scoring.services.pad import (
    Guard,
    Outcome,
    SaveResult,
    ValueSave,
    change_undo,
    field_save,
    game_mode_change,
    values_save,
)
from scoring.services.people import (
    players_attach,
    players_merge,
)
from scoring.services.sharing import (
    link_renew,
    link_revoke,
    links_join,
)
from scoring.services.uploads import (
    ACCOUNT,
    ADDRESS,
    IMPORT_STEP,
    NEW_ACCOUNTS,
    SESSION_UPLOAD,
    SITE,
    WAITING_ROOM_KEYS,
    WAITING_SECONDS,
    ImportStep,
    NoPlace,
    import_step,
    upload_forget,
    upload_forget_on_sign_out,
    upload_keep,
    upload_named,
    upload_waiting,
)
from scoring.services.visitors import (
    visitor_games_claim,
)

__all__ = [
    "ACCOUNT",
    "ADDRESS",
    "FINGERPRINT_BATCH",
    "FinishCheck",
    "FinishOutcome",
    "FinishResult",
    "Guard",
    "IMPORT_BATCH",
    "IMPORT_STEP",
    "ImportResult",
    "ImportStep",
    "NEW_ACCOUNTS",
    "NoPlace",
    "OUTCOME_FIELDS",
    "Outcome",
    "PlayerSetup",
    "SESSION_UPLOAD",
    "SITE",
    "SQLITE_LOCK_GIVEN_BACK",
    "SaveResult",
    "ValueSave",
    "WAITING_ROOM_KEYS",
    "WAITING_SECONDS",
    "account_language_set",
    "change_undo",
    "comb_layout_save",
    "field_save",
    "fingerprint_store",
    "fingerprints_fill",
    "finish_check",
    "game_create",
    "game_delete",
    "game_finish",
    "game_lock",
    "game_mode_change",
    "game_outcome_recompute",
    "game_outcome_store",
    "game_reopen",
    "game_start",
    "game_store",
    "games_import",
    "games_store",
    "import_step",
    "link_renew",
    "link_revoke",
    "links_join",
    "outcome_fields",
    "outcomes_store",
    "pad_finish",
    "play_length_set",
    "players_attach",
    "players_merge",
    "upload_forget",
    "upload_forget_on_sign_out",
    "upload_keep",
    "upload_named",
    "upload_waiting",
    "values_save",
    "visitor_games_claim",
]
