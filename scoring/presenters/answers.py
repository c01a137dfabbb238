"""What each answer of the pad shows: which parts of the pad's page (its template's partials) a
save, a poll and an undo answer the pad's script with, the board they are drawn from and the
status; what the pad says again after a plain post (no JavaScript) that was not wholly saved; and
what *Finish* asks before the game is finished. The Scoreboard's neighbour, on the presenter's
side of a request: the view asks the form and the service, hands what came of it here, and
renders what it is told.

A save answers with its field's status and, out of band, the figures that kind of field can
change; a poll and an undo with every figure. A save that cannot be shown on its field (the game
deleted or finished meanwhile, a field that is not the game's) answers with a sentence alone."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from scoring.fields import FieldAddress, pad_field
from scoring.presenters.board import Scoreboard
from scoring.presenters.changes import actor_words, finished_sentence, value_words
from scoring.presenters.comb_hints import comb_overfilled
from scoring.rules.categories import TOKENS_PER_PLAYER, Section
from scoring.selectors.games import GameState
from scoring.services.finishing import FinishResult
from scoring.services.pad import Outcome, SaveResult, ValueSave
from scoring.wording.sentences import isolated, words

if TYPE_CHECKING:
    from scoring.actors import Actor
    from scoring.forms.pad import PadForm
    from scoring.models import Game, GameEvent
    from scoring.web.limits import Refused

# Every figure of the pad, refreshed out of band by a poll and an undo.
FIGURES = (
    "totals",
    "during-subtotal",
    "majority-row",
    "end-subtotal",
    "comb-hints",
    "sector-summaries",
    "ranking",
    "row-labels",
    "rows-warnings",
)

# What each kind of field can change besides its own status: the figures a save answers with.
SAVED_FIGURES = {
    # (and its row's heading: the first value entered in a row, or the last cleared, changes it;
    # and the row's warnings: a value far from what games record there is said under the row)
    Section.DURING: ("during-subtotal", "totals", "ranking", "row-label", "row-warnings"),
    Section.END: ("end-subtotal", "totals", "ranking", "row-label", "row-warnings"),
    # (and the other cells of the step's sector: their awards follow it)
    "tokens": ("majority-row", "end-subtotal", "comb-hints", "sector-summaries", "totals", "ranking", "sector-live"),
    "workers": ("totals", "ranking"),  # (the ranks under the totals: the workers break a tie)
}

CHANGES = ("changes",)  # the recent changes, when the page shows them


@dataclass(frozen=True)
class SaveAnswer:
    """The answer to one save: ``partials`` of the pad drawn from ``board`` with ``context`` (what
    the field's partials read), or, with no board, ``sentence`` alone (404 with none: the game is
    out of reach) and the ``game`` as the save found it, whose state the answer's headers say."""

    status: int
    board: Scoreboard | None = None
    partials: tuple[str, ...] = ()
    context: dict = field(default_factory=dict)
    sentence: str = ""
    # The game as the service read it inside its transaction: a game finished after the view's
    # access read it (a race with another phone's Finish) is said finished, as the refusal says.
    game: Game | None = None


def save_answer(result: SaveResult, *, typed: str, changes: bool = False) -> SaveAnswer:
    """What the pad shows after ``services.pad.field_save``: 200 saved (or already saved by a newer
    post of this page), 409 changed on another phone since the page saw it, 422 refused (said
    under the field, ``typed`` kept)."""
    if result.outcome is Outcome.GONE:  # deleted meanwhile: as a game out of reach (the script says so)
        return SaveAnswer(404)
    if result.outcome is Outcome.FINISHED:  # (the page, shown before, turns finished: X-Pad-Finished)
        game = result.stands.game
        return SaveAnswer(409, sentence=finished_refusal(game, result.finish), game=game)
    if result.field is None:
        return SaveAnswer(400, sentence=_("This field is not part of the game."), game=result.stands.game)
    pad, refused = result.field, result.outcome is Outcome.REFUSED  # (of the seats the board shows)
    board = Scoreboard(
        result.stands,
        scored=result.scored,
        errors={pad.name: result.message} if refused else {},
        typed={pad.name: typed} if refused else {},
    )
    status = 422 if refused else 409 if result.outcome is Outcome.CONFLICT else 200
    context = {"cell": board.cell_for(pad), "answer": True, "saved": status == 200, "conflict": status == 409}
    kind: str
    if pad.sector is not None:
        sector = pad.sector
        context["sector_view"] = next(view for view in board.sector_views if view.sector.pk == sector.pk)
        kind = "tokens"
    elif pad.category is not None:
        context["row"] = board.rows([pad.category])[0]
        kind = pad.category.section
    else:
        kind = "workers"
    if refused:
        partials = ("field-status", "field-error")
    else:
        partials = ("field-status", "field-error", *SAVED_FIGURES[kind], *(CHANGES if changes else ()))
    return SaveAnswer(status, board, partials, context)


def input_refused(state: GameState, address: FieldAddress, message: str, *, typed: str) -> SaveAnswer:
    """What the pad shows for a value its form refused (nothing was saved): the field's status and
    ``message`` under it, ``typed`` kept, drawn from the game as it stands (``state``)."""
    pad = pad_field(state.seats, state.sectors, address, state.game.during)
    return save_answer(SaveResult(Outcome.REFUSED, state, pad, message=message), typed=typed)


def poll_partials(*, changes: bool = False) -> list[str]:
    """A poll's answer: every field's value and version, every figure, and whether (and by whom)
    the game was finished; with ``changes``, the recent changes (a page that shows them)."""
    return ["live-values", *FIGURES, "finished-note", *(CHANGES if changes else ())]


def undo_partials() -> list[str]:
    """An undo's answer: a poll's with the recent changes (``poll_partials``), and why the undo was
    refused, if it was (kept apart from the list, which the next poll brings again)."""
    return [*poll_partials(changes=True), "undo-message"]


def finished_refusal(game: Game, finish: GameEvent | None) -> SafeString:
    """Why a finished game took no value (``finish``: who finished it, and when), and who can
    change it."""
    return words(
        _("%(finished)s It takes no more values: its owner can reopen it from the results to correct it."),
        finished=finished_sentence(game, finish),
    )


@dataclass(frozen=True)
class PostedAnswer:
    """The pad again after a plain post (no JavaScript) that was not wholly saved: the message of
    each value not saved and what was typed into it, by field name; ``retry_after``: none was
    saved, the post being over the save limit (429, ``Retry-After``), else 422."""

    errors: dict[str, str]
    typed: dict[str, str]
    retry_after: int = 0

    @property
    def status(self) -> int:
        return 429 if self.retry_after else 422


def posted_answer(form: PadForm, saves: Sequence[ValueSave], results: Sequence[SaveResult]) -> PostedAnswer | None:
    """What the pad says of a plain post's values (``form``, read into ``saves``, saved into
    ``results``, in order): None when every value was saved, else each value's message under it
    (the form's own, or why it was not saved), what was typed kept."""
    errors = {name: str(messages[0]) for name, messages in form.errors.items()}
    for save, result in zip(saves, results, strict=False):  # (the results stop at a game gone)
        message = _posted_refusal(result)
        if message:
            errors[save.address.name] = message
    if not errors:
        return None
    return PostedAnswer(errors, {name: form.typed_text(name) for name in errors})


def over_limit_answer(form: PadForm, saves: Sequence[ValueSave], over: Refused) -> PostedAnswer:
    """A plain post over the save limit (``over``): none of its values was saved, each says why."""
    errors = {name: str(messages[0]) for name, messages in form.errors.items()}
    errors.update({save.address.name: over.message for save in saves})
    return PostedAnswer(errors, {name: form.typed_text(name) for name in errors}, over.retry_after)


def _posted_refusal(result: SaveResult) -> str:
    """Why a value of a plain post was not saved, in words ("" when it was)."""
    if result.outcome is Outcome.FINISHED:  # (the page says who finished the game, and when)
        return _(
            "This value was not saved, as the game was finished before it arrived; its owner can reopen "
            "the game from the results to correct it."
        )
    if result.outcome is Outcome.CONFLICT:
        return _(
            "Changed on another phone to %(stored)s while you were typing, so yours was not saved. "
            "Save again to replace it."
        ) % {"stored": value_words(result.text, missing=_("empty"))}
    if result.outcome is Outcome.REFUSED:
        return result.message
    return ""


def finish_questions(board: Scoreboard, result: FinishResult, actor: Actor) -> dict:
    """What the pad's *Finish* says when it did not finish the game, for the pad's page: what must
    be corrected first (``finish_problems``, 422), or what the table confirms (the categories
    nobody entered, the values far from what games record, each linking to its field, the comb
    overfilled, and that finishing ends the game for the whole table, as whom to a link's holder)."""
    check = result.check
    if check is None:
        return {}
    if check.blocks:
        return {
            "finish_problems": [
                words(
                    _("%(name)s has more than %(max)s tokens on the comb."),
                    name=isolated(seat.name),
                    max=TOKENS_PER_PLAYER,
                )
                for seat in check.over_owned
            ]
        }
    not_entered = [_(category.label) for category in check.empty]
    if check.comb_empty:
        not_entered.append(_("Hibernation tokens on the comb"))
    if check.workers_empty:
        not_entered.append(_("Active workers"))
    return {
        "finish_confirm": not_entered,
        "finish_check": [board.cell_for(pad) for pad in check.unusual],
        "finish_comb": comb_overfilled(board),
        "finishing_for_table": result.for_table,
        "finishing_as": actor_words(actor) if actor.link is not None else "",
    }
