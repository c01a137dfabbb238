"""The pages, by what they serve. Thin: a form reads the input, ``access`` says who may, a
service writes, selectors and the scoreboard read, and the view renders.

- ``pad``: the scoring pad, its saves, its poll, undo and finishing;
- ``games``: the history, the statistics, starting a game, its results, deleting and exporting it;
- ``sharing``: share links, made, revoked and opened;
- ``common``: the one access helper of every game view, and partials in one answer.

Your data (``scoring.transfer``), the players (``scoring.people``), accounts
(``scoring.accounts``) and the language (``scoring.preferences``) have their own modules.
"""
