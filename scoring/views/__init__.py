"""The pages, by what they serve. Thin: a form reads the input, ``access`` says who may, a
service writes, selectors read, and the view renders what the presenters (``scoring.presenters``)
make of it.

- ``pad``: the scoring pad, its saves, its poll, undo and finishing;
- ``games``: the history, the statistics, starting a game, its results, deleting and exporting it;
- ``sharing``: share links, made, revoked and opened;
- ``common``: the one access helper of every game view, and partials in one answer.

Your data (``scoring.views.transfer``), the players (``scoring.views.people``), accounts
(``scoring.views.accounts``) and the language (``scoring.views.preferences``) have their own modules.
"""
