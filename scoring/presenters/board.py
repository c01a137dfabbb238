"""The pad's board: one game as the pad and the results draw it (``selectors.games.game_state``, scored
by the engine): each field's cell (what its input shows, its value's VP, its error and version,
its attributes said in Python once, for a pad that draws a few hundred fields), the category rows,
each seat's outcome, each comb sector's, the ranking and the tie-breaks in words. The template only
lays it out; the comb's hints (``comb_hints``) and the results' breakdown and charts (``results``)
are read from it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import InitVar, dataclass, field
from functools import cache, cached_property
from html import escape  # (the standard library's, as Django's own: without its lazy wrapper, for speed)

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring.fields import PadField, pad_fields
from scoring.models import GameSector, Seat
from scoring.presenters.changes import value_words
from scoring.rules.categories import END_CATEGORIES, Category, Kind, Section, categories_of
from scoring.rules.engine import GameResult, PlayerResult, SectorResult
from scoring.rules.sums import MAX_SUM_LENGTH, is_sum
from scoring.selectors.games import GameState
from scoring.wording.explanations import sector_sentence, tie_sentence, unusual_sentence
from scoring.wording.numbers_and_dates import ordinal
from scoring.wording.sentences import AUTOMA, clause, isolated, labelled, names_list, sentence, words


@dataclass
class Cell:
    """One field of the pad as its cell shows it. What the template writes of it is worked out
    here, once per cell (``cached_property``): a page writes every field, and a poll every value."""

    field: PadField
    text: str  # what the input shows: what was typed (when refused), the sum, or the stored value
    value: int | bool | None  # the stored value (None: not entered yet)
    vp: int = 0
    error: str = ""
    initial: str = ""  # the stored value as the input shows it: what a plain post compares with
    version: int = 0  # the field's version (fields.Guard)
    award: int = 0  # for tokens: the VP the sector gives this player

    @property
    def entered(self) -> bool:
        return self.value is not None

    @property
    def shown(self) -> str:
        """The stored value in words, for messages ("—" when not entered)."""
        return value_words(self.initial)

    @cached_property
    def name(self) -> str:
        return self.field.name

    @cached_property
    def seat(self) -> int:
        """The seat's number (the one-player view shows the cells of one seat)."""
        return self.field.seat.number

    @property
    def id(self) -> str:
        return self.field.id()

    @cached_property
    def label(self) -> str:
        """What the field is and whose, as plain text: its accessible name (an attribute)."""
        return self.field.label

    @property
    def label_html(self) -> SafeString:
        """The same words as a page's text shows them, the player's name ``isolated``."""
        return format_html("{}, {}", self.field.what, isolated(self.field.seat.name))

    @property
    def remove_one(self) -> str:
        """The accessible name of a stepper's − (made here once a cell, as its input's attributes)."""
        return _("Remove one: %(what)s") % {"what": self.label}

    @property
    def add_one(self) -> str:
        """The accessible name of a stepper's +."""
        return _("Add one: %(what)s") % {"what": self.label}

    @cached_property
    def is_stepper(self) -> bool:
        """Counts, tokens and active workers have − and + beside their input."""
        category = self.field.category
        return category.kind is Kind.COUNT if category is not None else True

    @cached_property
    def input_attrs(self) -> SafeString:
        """The attributes of the field's input that are its own: its name (and its id), its value,
        its accessible name, where its status and error are said, whether what was typed into it
        was refused, its seat and version, and but for a yes/no the longest sum it takes. The
        template writes the input and the attributes that every field of its kind shares; what
        the phone's script reads of the kind is written once on the field's row (``kind_attrs``).
        (Each value escaped here once: a page has a few hundred fields.)"""
        name, flag = escape(self.name), self.field.is_flag
        value = '"1" checked' if flag and self.value else '"1"' if flag else f'"{escape(self.text)}"'
        invalid = ' aria-invalid="true"' if self.error and not flag else ""
        longest = "" if flag else f' maxlength="{MAX_SUM_LENGTH}"'
        return mark_safe(
            f'id="f-{name}" name="{name}" value={value} aria-label="{escape(self.label)}" '
            f'aria-describedby="status-{name} error-{name}"{invalid} data-field data-seat="{self.seat}" '
            f'data-version="{self.version}"{longest}'
        )

    @property
    def kind_attrs(self) -> SafeString:
        """What the phone's script reads of the field's kind, written on its row (``kind_attrs``)."""
        return kind_attrs(self.field.category, self.field.is_tokens, *self.field.limits)

    @cached_property
    def stored_attrs(self) -> SafeString:
        """The version and the value stored, as a save's answer (in the field's status) and a poll
        (``live_attrs``) bring them to the phone's script, which compares them with what it shows.
        (The page itself says them once, in the input's version and the initial value beside it.)"""
        return mark_safe(f'data-version="{self.version}" data-stored="{escape(self.initial)}"')

    @cached_property
    def live_attrs(self) -> SafeString:
        """The same, as a poll brings them: with the field's name."""
        return mark_safe(f'data-name="{escape(self.name)}" {self.stored_attrs}')

    @cached_property
    def shows_sum(self) -> bool:
        """The field holds a sum ("3+6+2"): show its result beside it."""
        return not self.error and is_sum(self.text)

    @cached_property
    def shows_vp(self) -> bool:
        """Counts and yes/no entries show the VP they are worth."""
        return self.field.category is not None and self.field.category.kind in (Kind.COUNT, Kind.FLAG)

    @cached_property
    def warning(self) -> str:
        """The stored value in words when it lies outside what games usually record in its
        category (``Category.usual``), to check; "" when it is usual."""
        return unusual_sentence(self.field.category, self.value) if self.field.category is not None else ""

    # A message about the field, as one sentence of the catalogue: what the field is and whose
    # (bold under its row), then the message ("Farms built, Alice: 120 is far above …"); a refusal,
    # written as a sentence of its own, goes on after the colon (``clause``: "… Alice: the value
    # must be from 0 to 99 (not 120).").

    @property
    def warning_line(self) -> SafeString:
        return labelled(format_html("<b>{}</b>", self.label_html), self.warning)

    @property
    def check_line(self) -> SafeString:
        """The warning as *Finish the game* lists it (a link to the field)."""
        return labelled(self.label_html, self.warning)

    @property
    def error_line(self) -> SafeString:
        return labelled(format_html("<b>{}</b>", self.label_html), clause(self.error))

    @property
    def conflict_line(self) -> SafeString:
        """The value another phone saved while this one was typing it."""
        return words(
            _("%(what)s: changed on another phone to %(stored)s while you were typing, so yours was not saved."),
            what=format_html("<b>{}</b>", self.label_html),
            stored=self.shown,
        )

    @cached_property
    def has_status(self) -> bool:
        """Whether its status says anything of the value itself (its check, its sum, its VP, a
        sector's award): the status of an empty token or VP field is empty."""
        return bool(self.warning or self.shows_sum or self.shows_vp or self.award)


@cache
def kind_attrs(category: Category | None, tokens: bool, low: int, high: int) -> SafeString:
    """What the phone's script reads of a kind of field (a category's, a sector's tokens, or the
    active workers when neither) to work out its player's sums, offline too: the field's limits
    (``low``, ``high``), a category's section and its VP per unit (a yes is worth one unit), and
    whether it is a sector's tokens (whose majorities need every phone's values). Written once
    on the row that holds the kind's fields, one per seat (a row is one kind); made once."""
    attrs = format_html('data-min="{}" data-max="{}"', low, high)
    if category is not None:
        attrs = format_html('{} data-section="{}" data-vp-each="{}"', attrs, category.section, category.vp_each)
    elif tokens:
        attrs = format_html("{} data-comb", attrs)
    return attrs


@dataclass
class Row:
    category: Category
    cells: list[Cell]
    entered: bool = True  # somebody has entered this category

    @property
    def key(self) -> str:
        return self.category.key

    @cached_property  # (each of a row's words is read more than once: translated once)
    def label(self) -> str:
        return _(self.category.label)

    @cached_property
    def short_label(self) -> str:
        """The pad's words for the row (its full words are in its help)."""
        return _(self.category.short_label or self.category.label)

    @cached_property
    def help(self) -> str:
        """The row's help, a tap away: the edition's full words, with how the row scores when it
        says more (one sentence of the catalogue: "Farms built: 1 VP per farm")."""
        return _(self.category.help_text or self.category.label)

    @property
    def is_stepper(self) -> bool:
        return self.category.kind is Kind.COUNT

    @property
    def is_flag(self) -> bool:
        return self.category.kind is Kind.FLAG

    @property
    def classes(self) -> str:
        """The row's classes on the pad: its kind's (a yes, a stepper) and whether nobody has
        entered it yet."""
        classes = ["grid", "row"]
        if self.is_flag:
            classes.append("row-flag")
        if self.is_stepper:
            classes.append("row-stepper")
        if not self.entered:
            classes.append("not-entered")
        return " ".join(classes)


@dataclass
class SeatView:
    """A player as the ranking and the totals show them. ``ranked``: somebody has scored, so the
    ranks (and the winners) say something; before that nobody is crowned, nor ranked."""

    seat: Seat
    result: PlayerResult
    tokens_placed: int
    ranked: bool = True

    @property
    def name(self) -> str:
        return self.seat.name

    @property
    def rank_label(self) -> str:
        return ordinal(self.result.rank) if self.ranked else ""

    @property
    def winner(self) -> bool:
        return self.ranked and self.result.winner


@dataclass
class SectorView:
    """A comb sector on the pad: its outcome in words, and its cells (built when shown: a save's
    answer shows the sentences alone)."""

    sector: GameSector
    result: SectorResult
    sentence: str
    board: Scoreboard

    @cached_property
    def cells(self) -> list[Cell]:
        return [self.board.cell_for(PadField(seat, sector=self.sector)) for seat in self.board.seats]

    @property
    def result_line(self) -> SafeString:
        """The sector and its outcome, as the results list them: "Sector 1: Alice leads with …"."""
        return labelled(format_html("<b>{}</b>", _("Sector %(n)s") % {"n": self.sector.number}), self.sentence)


@dataclass
class Scoreboard:
    """Everything the pad and the results show of one game (``selectors.games.game_state``), scored by
    the engine (``result``) unless ``scored`` gives its result already (a save's own), with the
    messages of refused values (``errors``) and what was typed into them (``typed``), by field name."""

    state: GameState
    scored: InitVar[GameResult | None] = None
    errors: Mapping[str, str] = field(default_factory=dict)
    typed: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self, scored: GameResult | None) -> None:
        self.game = self.state.game
        self.during = self.game.during  # the VP track or the breakdown
        self.during_categories = categories_of(self.during, Section.DURING)  # the rows of the during-the-game part
        self.seats = self.state.seats
        self.sectors = self.state.sectors
        self.result: GameResult = scored if scored is not None else self.state.score()
        self.names = [seat.name for seat in self.seats]
        # as the sentences name the players: the Automa in the game's words ("the Automa")
        self.sentence_names = [AUTOMA if seat.is_automa else seat.name for seat in self.seats]
        self.entered_tokens = self.state.entered_tokens()
        self.tokens = [
            [entered.get(sector.pk, 0) for sector in self.sectors]  # per seat, per sector
            for entered in self.entered_tokens
        ]
        self.views = [
            SeatView(seat, outcome, sum(tokens), ranked=self.scoring_started)
            for seat, outcome, tokens in zip(self.seats, self.result.players, self.tokens, strict=True)
        ]
        # (each cell made once, by its field's name: ``cell_for``)
        self._cells: dict[str, Cell] = {}
        self._seat_index = {seat.pk: i for i, seat in enumerate(self.seats)}
        self._sector_index = {sector.pk: i for i, sector in enumerate(self.sectors)}

    # -- fields --------------------------------------------------------------------------

    @cached_property
    def fields(self) -> dict[str, PadField]:
        return {pad.name: pad for pad in pad_fields(self.seats, self.sectors, self.during)}

    def cell_for(self, field: PadField) -> Cell:
        """The cell of one pad field (of one of this board's seats): what its input shows, its
        value, the VP it is worth, its error and its version. Made once per field: the rows, the
        poll's values and the warnings share it."""
        name = field.name
        cell = self._cells.get(name)
        if cell is None:
            position = self._seat_index[field.seat.pk]
            stored = self.state.stored(field)
            vp = self.result.players[position].category_vp[field.key] if field.category is not None else 0
            sector = field.sector
            award = self.result.sectors[self._sector_index[sector.pk]].award_for(position) if sector is not None else 0
            cell = Cell(
                field,
                self.typed.get(name, stored.text),
                stored.value,
                vp,
                self.errors.get(name, ""),
                stored.text,
                stored.version,
                award,
            )
            self._cells[name] = cell
        return cell

    @cached_property
    def all_cells(self) -> list[Cell]:
        """Every field's cell, for the live view that other phones' pads poll."""
        return [self.cell_for(pad) for pad in self.fields.values()]

    def row_entered(self, category: Category) -> bool:
        return category.is_flag or any(getattr(seat, category.key) is not None for seat in self.seats)

    def rows(self, categories) -> list[Row]:
        return [
            Row(
                category,
                [self.cell_for(PadField(seat, category=category)) for seat in self.seats],
                self.row_entered(category),
            )
            for category in categories
        ]

    def row_heading(self, category: Category) -> Row:
        """A category row without its cells: what a save or a poll brings up to date of a row's
        heading (whether anybody has entered it)."""
        return Row(category, [], self.row_entered(category))

    @cached_property
    def row_headings(self) -> list[Row]:
        return [self.row_heading(category) for category in (*self.during_categories, *END_CATEGORIES)]

    @cached_property
    def during_changeable(self) -> bool:
        """Whether the game may count its during-the-game points the other way now: nothing is
        entered the way it counts them (the pad offers the change only then)."""
        return not self.state.during_entered()

    @cached_property
    def during_rows(self) -> list[Row]:
        """The during-the-game rows: the VP track's one row, or the breakdown's nine."""
        return self.rows(self.during_categories)

    @cached_property
    def end_rows(self) -> list[Row]:
        return self.rows(END_CATEGORIES)

    @cached_property
    def category_rows(self) -> list[Row]:
        """Every category's row with its cells, for what a poll brings of each row (its warnings)."""
        return [*self.during_rows, *self.end_rows]

    @cached_property
    def worker_cells(self) -> list[Cell]:
        return [self.cell_for(PadField(seat)) for seat in self.seats]

    @cached_property
    def sector_views(self) -> list[SectorView]:
        views = []
        for sector, outcome in zip(self.sectors, self.result.sectors, strict=True):
            views.append(SectorView(sector, outcome, sector_sentence(outcome, self.sentence_names), self))
        return views

    # -- results -------------------------------------------------------------------------

    @cached_property
    def ranking(self) -> list[SeatView]:
        """The players best first; before anybody has scored, in seat order (nobody ranked)."""
        if not self.scoring_started:
            return list(self.views)
        return [self.views[p] for p in self.result.ranking()]

    @cached_property
    def winners(self) -> list[SeatView]:
        return [view for view in self.views if view.winner]

    @property
    def winner_names(self) -> SafeString:
        """The winners listed, the Automa in the game's words as every sentence names it (issue 50:
        « Victoire partagée : Automa et Hélène » beside « L’Automa et Hélène »)."""
        return names_list([AUTOMA if view.seat.is_automa else view.name for view in self.winners])

    @property
    def shared_victory(self) -> bool:
        return len(self.winners) > 1

    @property
    def winner_line(self) -> SafeString:
        """Who won, as the results and the table view head it: "Alice wins", "The Automa wins" (a
        capital where the Automa starts it), "Shared victory: the Automa and Hélène"."""
        if self.shared_victory:
            return words(_("Shared victory: %(names)s"), names=self.winner_names)
        return sentence(_("%(names)s wins"), names=self.winner_names)

    @cached_property
    def scoring_started(self) -> bool:
        """Somebody has entered a value: until then the pad, the results and the table's view
        crown nobody (every total is the game's own start)."""
        return self.state.anything_entered()

    @cached_property
    def tie_sentences(self) -> list[SafeString]:
        return [tie_sentence(tie, self.sentence_names) for tie in self.result.ties] if self.scoring_started else []

    @property
    def columns_class(self) -> str:
        return f"cols-{len(self.seats)}"
