"""Reads: what the pages and commands need of stored games, in one or two queries each, by subject:

- ``games``: one game, as the pad, its poll and a save's answer see it (``game_state``) and as the
  game file writes it; the start form's comb layouts and known names;
- ``changes``: a game's recent changes, its finishing and reopening among them;
- ``history``: a page of the history, filtered;
- ``people``: the players list and a player's page;
- ``statistics``: the overall statistics;
- ``imports``: the fingerprints of the games already stored, and an import's preview;
- ``accounts``: an account's language.

Each name is imported from the module that defines it (``from scoring.selectors.games import
game_state``): this package re-exports nothing."""
