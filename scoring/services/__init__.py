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

Each name is imported from the module that defines it (``from scoring.services.pad import
field_save``): this package re-exports nothing."""
