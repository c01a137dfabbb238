"""What the pages show, made from what the services and selectors return; the templates only lay
it out. By subject:

- ``board``: the pad's board (``Scoreboard``): each field's cell, the rows, each seat's and comb
  sector's outcome, the ranking;
- ``comb_hints``: the comb's hints (the end triggered, the counts to check);
- ``results``: the breakdown, the standings, and the charts (a game's VP by category, a player's
  totals over time);
- ``changes``: the pad's history in words (what changed, when, by whom; who finished the game);
- ``answers``: which parts of the pad a save, a poll and an undo answer with, what a plain post
  not wholly saved says, and what *Finish* asks;
- ``bgstats``: a finished game as a play for BG Stats (the results' link);
- ``qr``: a share link's QR code, as SVG.
"""
