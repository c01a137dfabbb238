"""The pad's page, as its template and every partial of it read it: one typed object, built in
one place for the four ways the pad is drawn (the whole page, a save's answer, a poll's, an
undo's), so that each name the template reads is declared here, with its type and its default.

The view hands it what the selectors and services returned (the board, the game that follows,
the recent changes, who finished the game); nothing here reads the database. ``context()`` is
what the template renders: these fields, and the few things worked out from them that the
template asks again and again (the pad's address with the player in view, the players in view).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import partial
from typing import Any

from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from scoring.access import GameAccess
from scoring.models import Game
from scoring.presenters.board import Cell, Row, Scoreboard, SeatView, SectorView
from scoring.rules.categories import MAX_PLAYERS
from scoring.wording.numbers_and_dates import ordinal


@dataclass
class PadPage:
    board: Scoreboard
    access: GameAccess
    player: int | None  # the seat of the "one player at a time" view (``?player=2``), or None: everyone
    editable: bool  # this page may type values (an edit link or the owner, the game in progress)
    finished: str = ""  # who finished the game, and when, in words ("" in progress)
    finished_mark: str = ""  # when the game was finished, as the pad's headers say it ("" in progress)
    next_game: Game | None = None  # the table's next game, started with *Play again*
    comb_hints: Sequence[Mapping[str, Any]] = ()  # what the comb's tokens still say (comb_hints.comb_hints)
    changes: SimpleLazyObject | Sequence[Any] = ()  # the recent changes (read only if a part shows them)
    # A save's own answer: which field it answered, and how.
    answer: bool = False
    saved: bool = False
    conflict: bool = False
    oob: bool = False  # the parts go out of band (a save's or a poll's answer)
    cell: Cell | None = None
    row: Row | None = None
    sector_view: SectorView | None = None
    # What a post said back: an undo refused, a link holder's name refused, values not saved.
    undo_message: str = ""
    name_error: str = ""
    name_typed: str = ""
    form_errors: bool = False
    # *Finish*, not done yet: what must be corrected first, or what the table confirms.
    finish_problems: Sequence[str] = ()
    finish_confirm: Sequence[str] = ()
    finish_check: Sequence[Cell] = ()
    finish_comb: str = ""
    finishing_for_table: bool = False
    finishing_as: str = ""
    # The whole page: the ETag a poll at its revision has, and (the owner's) Score together.
    poll_etag: str = ""
    share_live: bool = False
    share: Sequence[Mapping[str, Any]] = ()
    share_has: Mapping[str, bool] = field(default_factory=dict)
    share_open: str = ""  # the link whose code shows (one at a time): the one just made, else the first
    share_on_top: bool = False
    script_words: Mapping[str, str] = field(default_factory=dict)  # the script's words (``script_words()``)

    def views_shown(self) -> list[SeatView]:
        """The players whose columns the page shows: the one in view, or everyone."""
        views = self.board.views
        return [view for view in views if view.seat.number == self.player] if self.player else list(views)

    def path(self, name: str) -> str:
        """The address of the pad's view ``name`` for this game, whoever is in view."""
        return reverse(f"scoring:{name}", args=[self.board.game.public_id])

    def address(self, name: str) -> str:
        """The address of the pad's view ``name`` (its page, its poll, Finish, the way of counting)
        for this game, with the player in view."""
        path = self.path(name)
        return f"{path}?player={self.player}" if self.player else path

    def changes_address(self) -> str:
        """The poll's address, asking for the recent changes too."""
        live = self.address("live")
        return f"{live}{'&' if self.player else '?'}changes=1"

    def context(self) -> dict[str, Any]:
        """What the template renders: every field, and what it asks of them again and again. What
        is worked out from the fields is handed over as callables, which the template calls only
        where a part it draws uses them: a save's answer draws a few partials, the page them all."""
        return {
            **{item.name: getattr(self, item.name) for item in fields(self)},
            "views_shown": self.views_shown,
            "pad_path": partial(self.path, "pad"),
            "pad_url": partial(self.address, "pad"),
            "live_url": partial(self.address, "live"),
            "changes_url": self.changes_address,
            "finish_url": partial(self.address, "finish"),
            "during_url": partial(self.address, "during"),
            "offline_copy": offline_copy_words,
        }


def offline_copy_words() -> str:
    """What the pad's offline copy says of itself (base.html's data-text), in the page's language."""
    return _("Offline: showing the game as of %(time)s; what you type is kept and sent when you are back.")


def script_words() -> dict[str, str]:
    """The pad's words that its script says (pad.js's ``msg(key)``), in the page's language: the
    page writes them once (``json_script``) for the modules to read."""
    return {
        "msgSaving": _("Saving…"),
        "msgUnsaved": _("Not saved yet"),
        "msgRetrying": _("Not saved: retrying…"),
        "msgOffline": _("You are offline: what you type is kept on this phone and saved when the connection is back."),
        "msgProblem": _(
            "The server is not answering: what you type is kept on this phone and saved as soon as it answers."
        ),
        "msgWaitingOne": _("1 value is not saved yet."),
        "msgWaitingMany": _("%(count)s values are not saved yet."),
        "msgGone": _(
            "This game can no longer be reached from here: it was deleted, or the link you opened it with "
            "was revoked. Nothing more can be saved; your unsaved values stay on screen, note them before "
            "leaving."
        ),
        "msgKept": _("Your unsaved values stay on screen; note them before leaving."),
        "msgExpired": _(
            "Your session expired, so this phone cannot save: reload the page to keep scoring. Your unsaved "
            "values are kept and will be saved after the reload."
        ),
        "msgBusy": _("Too many saves at once: waiting a moment, then saving again."),
        "msgRefused": _(
            "The server refused this save (%(status)s): reload the page. Your unsaved values are kept and "
            "will be saved after the reload."
        ),
        "msgFiguresWaiting": _("Waiting for the network: this figure needs the values of every phone."),
        # The places, as the totals' cards say them ("1st", « 1er »): figures.js ranks them itself
        # while this phone's values wait and it knows every total and every player's workers.
        **{f"msgRank{place}": ordinal(place) for place in range(1, MAX_PLAYERS + 1)},
        "msgRankingWaiting": _(
            "Waiting for the network: the ranking is worked out again when your values are sent. Your own "
            "sums above are up to date."
        ),
        "msgSession": _(
            "This page was opened in a session that has ended (signed out, or another person signed in on "
            "this phone): it cannot save. Note your unsaved values before leaving: they are not kept for the "
            "next session."
        ),
        "msgFinishIncomplete": _(
            "%(what)s: this value is not complete yet. Finish typing it (a sum cannot end with + or −), then "
            "finish the game."
        ),
        "msgFinishAnswered": _("%(what)s: this value is not saved. Read the message under it, then finish the game."),
        "msgFinishUnsent": _("%(what)s: this value is not saved yet. Finish the game once it is."),
        "msgApart": _(
            "%(value)s in %(what)s was not saved: another phone changed how this game counts the points "
            "scored during the game, and this field is no longer part of it. Type it again where it "
            "belongs, if it still counts."
        ),
        "msgDismiss": _("Dismiss"),
        "msgFinishedElsewhere": _(
            "The game has been finished: it takes no more values. The page shows it as it stands."
        ),
        "msgApartFinished": _(
            "%(value)s in %(what)s was not saved: the game was finished before it reached the server. Its "
            "owner can reopen the game to correct it."
        ),
        "msgFinishing": _("Saving what you typed before finishing…"),
        "msgDuring": _(
            "Another phone changed how this game counts the points scored during the game: reload the page "
            "to see its fields."
        ),
    }
