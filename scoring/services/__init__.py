"""Writes: every change to stored games goes through one of these small functions, each owning
its transaction and returning what came of it.

- ``scoring.services.pad``: the pad's writes: a value saved (``field_save``), a change undone
  through the same save (``change_undo``), the game finished and reopened;
- ``scoring.services.accounts``: an account's own settings (its language);
- ``scoring.services.games``: games started, imported and stored, their outcomes, share links,
  deleting, players across games, and a visitor's games kept by the account it makes.

Callers import the functions from here: ``from scoring import services``.
"""

from scoring.services.accounts import account_language_set
from scoring.services.games import (
    OUTCOME_FIELDS,
    ImportResult,
    PlayerSetup,
    comb_layout_save,
    fingerprint_store,
    fingerprints_fill,
    game_create,
    game_delete,
    game_lock,
    game_outcome_recompute,
    game_outcome_store,
    game_start,
    game_store,
    games_import,
    games_store,
    link_renew,
    link_revoke,
    players_attach,
    players_merge,
    visitor_games_claim,
)
from scoring.services.pad import (
    Guard,
    Outcome,
    SaveResult,
    change_undo,
    field_save,
    game_finish,
    game_mode_change,
    game_reopen,
)

__all__ = [
    "OUTCOME_FIELDS", "Guard", "ImportResult", "Outcome", "PlayerSetup", "SaveResult", "change_undo", "comb_layout_save",
    "field_save", "fingerprint_store", "fingerprints_fill", "game_create", "game_delete", "game_finish", "game_lock", "game_mode_change", "game_reopen", "game_outcome_recompute",
    "game_outcome_store", "game_start", "game_store", "games_import", "games_store", "link_renew", "link_revoke",
    "players_attach", "players_merge", "visitor_games_claim",
]
