"""Input on the pages: every value a request brings is read and checked by a form, one module
per group of views (``scoring/views/``):

- ``pad``: the pad's values (one field per seat and entry, a plain post's or one saved by the
  pad's script), *Finish*, the way of counting, a link holder's name;
- ``games``: starting a game (players, comb sectors) and the history's filters;
- ``sharing``: which player an edit link's holder is, and following the table to its next game;
- ``accounts``: signing up, an account's name;
- ``transfer``: a game file to import;
- ``names``: a name typed on any of them (one line, nothing that hides or reorders text).
"""
