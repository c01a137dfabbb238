"""The pad and results pages' view of one game: every figure, sentence and hint they show.

Built from a game as ``selectors.game_state`` reads it and the engine's result, so the template
only lays things out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from html import escape  # (the standard library's, as Django's own: without its lazy wrapper, for speed)

from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring.categories import (
    CATEGORY_BY_KEY,
    COMB_SPACES_BY_PLAYER_COUNT,
    END_CATEGORIES,
    MAJORITY_LABEL,
    MAJORITY_SHORT_LABEL,
    TOKENS_PER_PLAYER,
    Category,
    Kind,
    Section,
    categories_of,
)
from scoring.engine import GameResult, PlayerResult, SectorResult
from scoring.explain import (
    MINUS,
    clock,
    figure,
    game_date,
    isolated,
    labelled,
    names_list,
    ordinal,
    sector_sentence,
    tie_sentence,
    vp_title,
    when_by,
    words,
)
from scoring.fields import WORKERS, PadField, pad_fields, tokens_position
from scoring.models import GameEvent, GameSector, Seat
from scoring.selectors import GameState
from scoring.sums import MAX_SUM_LENGTH, is_sum


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
    # (bold under its row), then the message ("Farms built, Alice: 120 is far above …").

    @property
    def warning_line(self) -> SafeString:
        return labelled(format_html("<b>{}</b>", self.label_html), self.warning)

    @property
    def check_line(self) -> SafeString:
        """The warning as *Finish the game* lists it (a link to the field)."""
        return labelled(self.label_html, self.warning)

    @property
    def error_line(self) -> SafeString:
        return labelled(format_html("<b>{}</b>", self.label_html), self.error)

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


@dataclass
class SeatView:
    seat: Seat
    result: PlayerResult
    tokens_placed: int

    @property
    def name(self) -> str:
        return self.seat.name

    @property
    def rank_label(self) -> str:
        return ordinal(self.result.rank)


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
class Chart:
    """A bar per player, points by category, drawn as SVG on the server, each with its own legend
    (its categories in words and VP) under it, so that a phone reads it without matching colours
    across the page. Each bar ends at its player's total: the categories that score stacked from
    zero, then each negative one drawn back from their end over what it takes away (``negative``,
    drawn dashed), so that equal totals draw bars of equal length. ``zero`` is where 0 VP lies
    (beyond the left edge only when a total is negative)."""

    width: int
    zero: float
    bars: list[dict]


CHART_COLORS = (
    "#5b8def",
    "#e8a33d",
    "#4caf7a",
    "#c2566b",
    "#8e6cc9",
    "#2fa8b5",
    "#d9773b",
    "#7a9a2e",
    "#b05fb0",
    "#5d6f86",
    "#d4b106",
)


@dataclass
class Scoreboard:
    """Everything the pad and the results show of one game (``selectors.game_state``), scored by
    the engine unless ``result`` is given (a save's own), with the messages of refused values
    (``errors``) and what was typed into them (``typed``), by field name."""

    state: GameState
    result: GameResult | None = None
    errors: Mapping[str, str] = field(default_factory=dict)
    typed: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.game = self.state.game
        self.during = self.game.during  # the VP track or the breakdown
        self.during_categories = categories_of(self.during, Section.DURING)  # the rows of the during-the-game part
        self.seats = self.state.seats
        self.sectors = self.state.sectors
        if self.result is None:
            self.result = self.state.score()
        self.names = [seat.name for seat in self.seats]
        self.entered_tokens = self.state.entered_tokens()
        self.tokens = [
            [entered.get(sector.pk, 0) for sector in self.sectors]  # per seat, per sector
            for entered in self.entered_tokens
        ]
        self.views = [
            SeatView(seat, outcome, sum(tokens))
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
            award = (
                self.result.sectors[self._sector_index[field.sector.pk]].award_for(position) if field.is_tokens else 0
            )
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
            views.append(SectorView(sector, outcome, sector_sentence(outcome, self.names), self))
        return views

    # -- results -------------------------------------------------------------------------

    @cached_property
    def ranking(self) -> list[SeatView]:
        return [self.views[p] for p in self.result.ranking()]

    @cached_property
    def winners(self) -> list[SeatView]:
        return [view for view in self.views if view.result.winner]

    @property
    def winner_names(self) -> SafeString:
        return names_list([view.name for view in self.winners])

    @cached_property
    def tie_sentences(self) -> list[SafeString]:
        return [tie_sentence(tie, self.names) for tie in self.result.ties]

    @cached_property
    def standings(self) -> list[tuple[SeatView, str]]:
        """The ranking as the table's view shows it, each player with how far they stand from the
        lead, in words: the leader by how much they lead (or that they share the lead), the others
        how far behind they are."""
        ranking = self.ranking
        lead = ranking[0].result.total if ranking else 0
        second = next((view.result.total for view in ranking[1:] if view.result.total < lead), None)
        shared = sum(view.result.total == lead for view in ranking) > 1
        words = []
        for view in ranking:
            behind = lead - view.result.total
            if behind:
                words.append(_("%(vp)s VP behind") % {"vp": figure(behind)})
            elif shared:
                words.append(_("shares the lead"))
            elif second is None:
                words.append("")  # (alone at the table: the Automa aside, nobody to lead)
            else:
                words.append(_("leads by %(vp)s VP") % {"vp": figure(lead - second)})
        return list(zip(ranking, words, strict=True))

    @cached_property
    def comb_spaces(self) -> int:
        """The spaces of the comb for the game's number of players."""
        return COMB_SPACES_BY_PLAYER_COUNT.get(len(self.seats), 15)

    @cached_property
    def tokens_on_comb(self) -> int:
        return sum(view.tokens_placed for view in self.views)

    @cached_property
    def comb_overfilled(self) -> str:
        """More tokens on the comb than it has spaces for the player count, in words ("" when
        they fit): saved as entered, but marked to check."""
        if self.tokens_on_comb <= self.comb_spaces:
            return ""
        return _(
            "%(count)s tokens are on the comb, but it has only %(spaces)s spaces for %(players)s players: "
            "check the counts."
        ) % {"count": self.tokens_on_comb, "spaces": self.comb_spaces, "players": len(self.seats)}

    @cached_property
    def hints(self) -> list[dict]:
        """End-of-game hints and token warnings for the comb."""
        hints = []
        if self.comb_overfilled:
            hints.append({"level": "warning", "text": self.comb_overfilled})
        elif self.sectors and self.tokens_on_comb == self.comb_spaces:
            hints.append(
                {
                    "level": "end",
                    "text": _(
                        "The comb is full (%(spaces)s spaces for %(players)s players): "
                        "the end of the game is triggered. "
                        "Everyone takes one more turn, then scoring begins."
                    )
                    % {"spaces": self.comb_spaces, "players": len(self.seats)},
                }
            )
        trigger = self.game.end_trigger_token
        for view in self.views:
            if view.tokens_placed > TOKENS_PER_PLAYER:
                hints.append(
                    {
                        "level": "warning",
                        "text": words(
                            _(
                                "%(name)s has %(count)s tokens on the comb, but each player owns only %(max)s: "
                                "check the counts."
                            ),
                            name=isolated(view.name),
                            count=view.tokens_placed,
                            max=TOKENS_PER_PLAYER,
                        ),
                    }
                )
            elif view.tokens_placed >= trigger:
                hints.append(
                    {
                        "level": "end",
                        "text": words(
                            _(
                                "%(name)s has placed their %(nth)s hibernation token: "
                                "the end of the game is triggered. "
                                "Everyone takes one more turn, then scoring begins."
                            ),
                            name=isolated(view.name),
                            nth=ordinal(trigger),
                        ),
                    }
                )
        return hints

    @cached_property
    def breakdown(self) -> list[dict]:
        """One row per category with each player's VP, then the subtotals: the results table. A
        category's row is headed by its short words (the pad's), its full words a tap away
        (``full``); a subtotal's words are short already."""
        players = self.result.players

        def entry(category: Category) -> dict:
            return {
                "label": _(category.short_label or category.label),
                "full": _(category.label),
                "values": [p.category_vp[category.key] for p in players],
                "kind": "entry",
            }

        rows = [entry(c) for c in self.during_categories]
        rows.append({"label": _("During the game"), "values": [p.during for p in players], "kind": "sub"})
        rows += [entry(c) for c in END_CATEGORIES]
        rows.append(
            {
                "label": _(MAJORITY_SHORT_LABEL),
                "full": _(MAJORITY_LABEL),
                "values": [p.majority for p in players],
                "kind": "entry",
            }
        )
        rows.append({"label": _("End of the game"), "values": [p.end for p in players], "kind": "sub"})
        rows.append({"label": _("Total"), "values": [p.total for p in players], "kind": "total"})
        rows.append({"label": _("Active workers"), "values": [p.active_workers for p in players], "kind": "workers"})
        return rows

    @cached_property
    def chart(self) -> Chart:
        groups: list[tuple[str, callable]] = [(_("During the game"), lambda p: p.during)]
        groups += [(_(c.label), lambda p, key=c.key: p.category_vp[key]) for c in END_CATEGORIES]
        groups.append((_(MAJORITY_LABEL), lambda p: p.majority))
        width = 340
        earned = [sum(max(0, get(p)) for _label, get in groups) for p in self.result.players]
        below_zero = max([-p.total for p in self.result.players] + [0])  # room for a negative total
        scale = width / max(max(earned + [0]) + below_zero, 1)
        zero = below_zero * scale
        bars = []
        for view in self.views:
            scored = [(index, label, get(view.result)) for index, (label, get) in enumerate(groups)]
            segments, legend, x = [], [], zero
            for index, label, vp in scored:  # what scores, left to right from zero
                if vp > 0:
                    color = CHART_COLORS[index % len(CHART_COLORS)]
                    segments.append(
                        {
                            "x": round(x, 2),
                            "w": round(vp * scale, 2),
                            "color": color,
                            "negative": False,
                            "title": vp_title(label, vp),
                        }
                    )
                    legend.append({"color": color, "negative": False, "text": vp_title(label, vp)})
                    x += vp * scale
            for _index, label, vp in scored:  # what is taken away, back from the end
                if vp < 0:
                    x += vp * scale
                    segments.append(
                        {
                            "x": round(x, 2),
                            "w": round(-vp * scale, 2),
                            "color": "",
                            "negative": True,
                            "title": vp_title(label, vp),
                        }
                    )
                    legend.append({"color": "", "negative": True, "text": vp_title(label, vp)})
            bars.append({"name": view.name, "total": view.result.total, "segments": segments, "legend": legend})
        return Chart(width=width, zero=round(zero, 2), bars=bars)

    @property
    def columns_class(self) -> str:
        return f"cols-{len(self.seats)}"


def unusual_sentence(category: Category, value: int | bool | None) -> str:
    """Why an entered value is one to check, in words ("999 is far above what this category
    usually scores (0 to 25): check it."), or "" when it lies within its usual range."""
    if not category.is_unusual(value):
        return ""
    low, high = category.usual
    words = {"value": figure(value), "low": figure(low), "high": figure(high)}
    if category.kind is Kind.COUNT:
        if value > high:
            return _("%(value)s is far above the usual count here (%(low)s to %(high)s): check it.") % words
        return _("%(value)s is below the usual count here (%(low)s to %(high)s): check it.") % words
    if value > high:
        return _("%(value)s is far above what this category usually scores (%(low)s to %(high)s): check it.") % words
    return _("%(value)s is below what this category usually scores (%(low)s to %(high)s): check it.") % words


def value_words(text: str, missing: str = "—") -> str:
    """A field's text (sums.input_text, or a change's old and new) in words: "yes" or "no" for a
    yes/no entry, ``missing`` when not entered, else the number or sum as typed, each minus a true
    minus sign ("−3", "14−3")."""
    if text in ("True", "False"):
        return _("yes") if text == "True" else _("no")
    return text.replace("-", MINUS) if text else missing


def change_label(change) -> SafeString:
    """What a change changed and whose, as the pad names its fields, in the row's short words:
    "Farms built, Bruno", "Tokens in sector 2, Bruno" (the name ``isolated``)."""
    if change.field == WORKERS:
        what = _("Active workers")
    elif (position := tokens_position(change.field)) is not None:
        what = _("Tokens in sector %(number)s") % {"number": position + 1}
    else:
        category = CATEGORY_BY_KEY.get(change.field)
        what = _(category.short_label or category.label) if category else change.field
    return format_html("{}, {}", what, isolated(change.seat.name))


def change_line(change) -> SafeString:
    """A change as the pad's recent changes list it, one sentence: "Farms built, Bruno: 3 → 4"
    ("—" for not entered; ``explain.words``; in an attribute, ``|striptags``)."""
    return words(
        _("%(what)s: %(old)s → %(new)s"),
        what=change_label(change),
        old=value_words(change.old),
        new=value_words(change.new),
    )


def change_when(change, now=None) -> SafeString:
    """When a change was made and by whom: "just now, by Ann (edit link)", "5 minutes ago, by the owner"."""
    return when_by(change.at, author_words(change), now)


def author_words(item) -> SafeString | str:
    """Who made a change, or finished or reopened the game (``models.Authored``): a link's holder
    always as one ("Ann (edit link)", "the edit link" when they gave no name), whatever name they
    typed; otherwise the account's display name (never its login), "the owner" for an owner who
    gave none (or a visitor, scoring without an account), or "someone" (a script, an old import).
    A name is ``isolated``: whatever it holds stays inside it, "(edit link)" after it."""
    name = item.author
    if item.by_link_holder:
        return words(_("%(name)s (edit link)"), name=isolated(name)) if name else _("the edit link")
    if name:
        return isolated(name)
    by_owner = item.by_user_id is not None or getattr(item, "by_visitor", False)  # (a visitor owns its games)
    return _("the owner") if by_owner else _("someone")


def actor_words(actor) -> SafeString | str:
    """Who is doing something now (an ``access.Actor``), in the words the history will say it with."""
    return author_words(GameEvent(**actor.authored))


def finished_sentence(game, event) -> SafeString:
    """Who finished the game and when, as every pad says it once it is finished ("Finished by Hana
    at 21:14.", "… on 1 Dec 2026 at 21:14." another day; French "… à 21 h 14.", "le 1er déc. 2026");
    the event (``selectors.finish_event``) is None for a game finished before games said who (an import)."""
    at = timezone.localtime(game.finished_at)
    values = {
        "time": clock(at),
        "date": game_date(at.date(), _("j M Y")),
        "name": author_words(event) if event is not None else "",
    }
    today = at.date() == timezone.localdate()
    if event is None:
        return words(_("Finished at %(time)s.") if today else _("Finished on %(date)s at %(time)s."), **values)
    finished = _("Finished by %(name)s at %(time)s.") if today else _("Finished by %(name)s on %(date)s at %(time)s.")
    return words(finished, **values)
