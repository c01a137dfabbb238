"""The scoring pad, by layer (docs/architecture.md says more of each):

- ``rules``: the game's categories and scoring, in plain Python;
- ``gamefile``: the game file, read, checked and written, and the spreadsheet;
- ``models``, ``fields``, ``tallies``: what is stored and how a value is named;
- ``access``: who may reach a game and do what;
- ``forms``: every input, read and checked;
- ``services``: every write; ``selectors``: every read;
- ``wording``: the catalogue's sentences; ``presenters``: what the pages show;
- ``views``: the requests; ``web``: the web's plumbing (limits, refusals, modules).
"""
