"""The score categories of Apiary: the one list every other part of the pad reads.

Models, forms, the engine, the game file, templates and tests all take the categories from
here, so a category is added, renamed or re-limited in exactly one place. Plain Python, no
Django import: the engine and the game file use it outside Django too.

Labels are English and marked with ``gettext_noop`` so that ``makemessages`` collects them;
the Django layer translates them when it shows them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


def gettext_noop(message: str) -> str:
    """Marks a string for translation without translating it (the engine has no Django)."""
    return message


class Section(StrEnum):
    DURING = "during"
    END = "end"


class During(StrEnum):
    """How a game scores its during-the-game points (``Game.during_mode``), chosen when it starts."""

    TRACK = "track"  # one number per player, read off the board's VP track at the end (starting VP included)
    BREAKDOWN = "breakdown"  # the starting VP and each source of VP, entered apart


DEFAULT_DURING = During.TRACK  # a new game: what a table records


class Kind(StrEnum):
    VP = "vp"  # a number of VP, entered as it is
    COUNT = "count"  # a count of things, each worth a fixed number of VP
    FLAG = "flag"  # yes or no, worth a fixed number of VP when yes


@dataclass(frozen=True, slots=True)
class Category:
    key: str
    label: str  # English; the French edition's words come from the translation catalogue
    section: Section
    kind: Kind = Kind.VP
    minimum: int = 0
    maximum: int = 999
    vp_each: int = 1  # VP per unit of a count, or for a yes; 1 for plain VP
    # The row's help on the pad when it says more than the label: one whole sentence, the label's
    # words first, then how the row scores ("Farms built: 1 VP per farm"); none, the label alone.
    help_text: str = ""
    # What a game usually records here (lowest, highest): a value outside is saved, but marked on
    # the pad as one to check. None for a yes/no entry (yes and no are both usual).
    usual: tuple[int, int] | None = None

    # The way of scoring the during-the-game points this category belongs to (None: every game).
    during: During | None = None

    def counts_in(self, during: During) -> bool:
        """Whether a game that scores its during-the-game points ``during`` counts this category."""
        return self.during is None or self.during == during

    # The pad's own words for the row, one or two lines in a 5-player cell (SHORT_LABEL_MAX
    # characters at most, in both languages); ``label`` stays the edition's full words, for the
    # row's help, the results and the CSV.
    short_label: str = ""

    @property
    def is_flag(self) -> bool:
        return self.kind is Kind.FLAG

    def is_unusual(self, value: int | bool | None) -> bool:
        """Whether an entered value lies outside what games usually record in this category (a
        value not entered, or a yes/no, never does)."""
        if value is None or self.usual is None or isinstance(value, bool):
            return False
        low, high = self.usual
        return not low <= value <= high

    def vp(self, value: int | bool) -> int:
        """The VP that an entry of this category is worth."""
        if self.kind is Kind.FLAG:
            return self.vp_each if value else 0
        return int(value) * self.vp_each


_ = gettext_noop

# The usual ranges: a value outside is saved, and marked on the pad as one to check, so that a
# slipped digit (999 in Queen's Favor) or a number typed into the wrong row (the VP track's final
# position typed into one of its sources) is seen before the game is finished. Where the rules
# count something (the seats, the frames in the box) the bound follows them; elsewhere it is our
# reasoning from the components and the length of a game (a player's workers take a few dozen
# actions before they all hibernate), kept generous: a mark costs a glance, a missed typo a game.
DURING_SOURCE_USUAL = (0, 40)  # one source of the VP track: 40 alone is most of a whole game's track

CATEGORIES: tuple[Category, ...] = (
    # During the game, one of two ways (``During``). The VP track: the one number each player
    # reads off the board's track at the end (the marker started on the seat's starting VP).
    Category(
        "vp_track",
        _("VP on the track at the end"),
        Section.DURING,
        during=During.TRACK,
        # the starting VP (1 at least) and a whole game's points moved on the track, generously
        help_text=_("VP on the track at the end, starting VP included"),
        usual=(1, 150),
        short_label=_("VP on the track"),
    ),
    # Or the breakdown: the sources of VP on the track, in the order of the rulebook (starting VP first).
    # Starting VP: the board (the publisher's FAQ) gives 1 to the first player ... 5 to the fifth.
    Category(
        "starting_vp",
        _("Starting VP"),
        Section.DURING,
        during=During.BREAKDOWN,
        help_text=_("Starting VP: 1 for the first player, 2 for the second, and so on"),
        usual=(1, 5),
        short_label=_("Starting VP"),
    ),
    Category(
        "explore_tokens",
        _("Explore token bonuses"),
        Section.DURING,
        during=During.BREAKDOWN,
        usual=DURING_SOURCE_USUAL,
        short_label=_("Explore tokens"),
    ),
    Category(
        "farm_income",
        _("Farm income"),
        Section.DURING,
        during=During.BREAKDOWN,
        usual=DURING_SOURCE_USUAL,
        short_label=_("Farm income"),
    ),
    Category(
        "comb_pods",
        _("Hibernation Comb pod bonuses"),
        Section.DURING,
        during=During.BREAKDOWN,
        usual=DURING_SOURCE_USUAL,
        short_label=_("Comb pods"),
    ),
    Category(
        "hive_build_bonuses",
        _("Build bonuses on hive mat hexes"),
        Section.DURING,
        during=During.BREAKDOWN,
        usual=DURING_SOURCE_USUAL,
        short_label=_("Hive mat bonuses"),
    ),
    Category(
        "advance_strength4",
        _("Strength-4 worker on the Advance action"),
        Section.DURING,
        during=During.BREAKDOWN,
        usual=DURING_SOURCE_USUAL,
        short_label=_("Strength-4 Advance"),
    ),
    Category(
        "explore_strength4",
        _("Strength-4 planet bonuses on the Explore action"),
        Section.DURING,
        during=During.BREAKDOWN,
        usual=DURING_SOURCE_USUAL,
        short_label=_("Strength-4 Explore"),
    ),
    Category(
        "tile_abilities",
        _("Activating tile abilities"),
        Section.DURING,
        during=During.BREAKDOWN,
        usual=DURING_SOURCE_USUAL,
        short_label=_("Tile abilities"),
    ),
    Category(
        "seed_card_benefits",
        _("One-time benefits on played seed cards"),
        Section.DURING,
        during=During.BREAKDOWN,
        usual=DURING_SOURCE_USUAL,
        short_label=_("Seed card benefits"),
    ),
    # At the end of the game, in the order the rulebook tallies them.
    # Planted seed cards: a hive plants a few seed cards (2 spaces at first, a few more with
    # frames), each condition worth a handful of VP.
    Category(
        "planted_seed_cards",
        _("Conditions on planted seed cards"),
        Section.END,
        usual=(0, 40),
        short_label=_("Planted seed cards"),
    ),
    # Farms: the box holds 40 farm tiles for up to 5 players, built on the hive's hexes beside
    # recruits, developments and carvings: 15 on one hive is already far beyond a game.
    Category(
        "farms",
        _("Farms built"),
        Section.END,
        Kind.COUNT,
        maximum=99,
        help_text=_("Farms built: 1 VP per farm"),
        usual=(0, 15),
        short_label=_("Farms built"),
    ),
    # Recruits and developments: a few VP per tile built.
    Category("recruits", _("Recruits built"), Section.END, usual=(0, 30), short_label=_("Recruits built")),
    Category("developments", _("Developments built"), Section.END, usual=(0, 30), short_label=_("Developments built")),
    # Carvings: the main end-of-game source; a carving whose condition is missed can cost a few VP.
    Category(
        "carvings",
        _("Conditions on carvings built"),
        Section.END,
        minimum=-99,
        help_text=_("Conditions on carvings built: may be negative, as a carving can cost VP"),
        usual=(-10, 50),
        short_label=_("Carvings"),
    ),
    # Queen's Favor: the VP of a position on the track, a short track.
    Category(
        "queens_favor",
        _("Position on the Queen’s Favor track"),
        Section.END,
        usual=(0, 25),
        short_label=_("Queen’s Favor"),
    ),
    # The hive mat is filled or not (the rules): both are usual.
    Category(
        "hive_mat_full",
        _("Hive mat filled"),
        Section.END,
        Kind.FLAG,
        minimum=0,
        maximum=1,
        vp_each=8,
        help_text=_("Hive mat filled: 8 VP"),
        short_label=_("Hive mat filled"),
    ),
    # Frames: the box holds 15 for up to 5 players (3 each), and each takes builds to fill; 4
    # leaves room for a smaller table where one player takes more than their share.
    Category(
        "frames_filled",
        _("Frames filled"),
        Section.END,
        Kind.COUNT,
        maximum=15,
        vp_each=8,
        help_text=_("Frames filled: 8 VP per frame"),
        usual=(0, 4),
        short_label=_("Frames filled"),
    ),
    # The faction's endgame ability: a faction tile's condition, a few VP per thing it counts.
    Category(
        "faction_ability", _("Faction’s endgame ability"), Section.END, usual=(0, 30), short_label=_("Faction ability")
    ),
)
# The longest short label, in English and in French: two lines of a 5-player cell on a small phone.
SHORT_LABEL_MAX = 24

CATEGORY_BY_KEY: dict[str, Category] = {category.key: category for category in CATEGORIES}
DURING_CATEGORIES: tuple[Category, ...] = tuple(c for c in CATEGORIES if c.section is Section.DURING)  # both ways
END_CATEGORIES: tuple[Category, ...] = tuple(c for c in CATEGORIES if c.section is Section.END)


def categories_of(during: During, section: Section | None = None) -> tuple[Category, ...]:
    """The categories a game that scores its during-the-game points ``during`` counts (of one
    ``section``, or all of them), in the registry's order."""
    return _COUNTED[During(during), section]


_COUNTED: dict[tuple[During, Section | None], tuple[Category, ...]] = {
    (during, section): tuple(c for c in CATEGORIES if c.counts_in(during) and section in (None, c.section))
    for during in During
    for section in (None, *Section)
}


def entry_at_start(category: Category, during: During, seat: int) -> int | None:
    """What a new game holds in a during-the-game entry: the breakdown's starting VP are the
    seat's number (1, 2, 3, ...: the publisher's erratum), every other entry is empty (None)."""
    return seat if During(during) == During.BREAKDOWN and category.key == "starting_vp" else None


DURING_LABELS: dict[During, str] = {
    During.TRACK: _("VP track: each player’s VP on the track at the end (one number)"),
    During.BREAKDOWN: _("Breakdown: starting VP and each source of VP"),
}

SECTION_LABELS: dict[Section, str] = {
    Section.DURING: _("During the game"),
    Section.END: _("End of the game"),
}
MAJORITY_LABEL = _("Hibernation Comb sector majorities")
MAJORITY_SHORT_LABEL = _("Comb majorities")  # the pad's short words for it, as for a category

# Limits of the other numbers a game holds (the game file and the models share them).
MAX_PLAYERS = 5
MIN_PLAYERS = 1
MAX_SECTORS = 20
MAX_SECTOR_VP = 99
TOKENS_PER_PLAYER = 7  # each player owns 7 hibernation tokens
MAX_ACTIVE_WORKERS = 4
MAX_NAME_LENGTH = 40
MAX_NOTES_LENGTH = 2000  # a game's notes: a few paragraphs
MAX_PLAY_MINUTES = 24 * 60  # how long a play lasted, as its table says it: at most a day
MAX_FACTION_LENGTH = 40
END_TRIGGER_TOKENS = (6, 7)  # the English text ends the game on the 6th token, the French on the 7th
DEFAULT_END_TRIGGER_TOKEN = 7  # a game (or a game file) that does not say: the French text's
# The start form's choice before anyone changes it: the rule of the edition in the page's language.
END_TRIGGER_TOKEN_BY_LANGUAGE = {"en": 6, "fr": 7}

# The game's 20 factions, offered by the start form.
FACTIONS: tuple[str, ...] = (
    "Ana",
    "Arti",
    "Capen",
    "Carpa",
    "Casi",
    "Cecro",
    "Cypri",
    "Iber",
    "Jemit",
    "Lama",
    "Ligu",
    "Nica",
    "Orea",
    "Pomon",
    "Ria",
    "Saha",
    "Sime",
    "Sini",
    "Visah",
    "Utel",
)

# Comb spaces in use by player count (publisher's FAQ), for the end-of-game hint.
COMB_SPACES_BY_PLAYER_COUNT: dict[int, int] = {1: 8, 2: 8, 3: 12, 4: 15, 5: 15}


def comb_spaces(player_count: int) -> int:
    """The spaces of the comb for a number of players (a count the table does not list: the most)."""
    return COMB_SPACES_BY_PLAYER_COUNT.get(player_count, max(COMB_SPACES_BY_PLAYER_COUNT.values()))
