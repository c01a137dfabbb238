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
    help_text: str = ""
    # The pad's own words for the row, one or two lines in a 5-player cell (SHORT_LABEL_MAX
    # characters at most, in both languages); ``label`` stays the edition's full words, for the
    # row's help, the results and the CSV.
    short_label: str = ""

    @property
    def is_flag(self) -> bool:
        return self.kind is Kind.FLAG

    def vp(self, value: int | bool) -> int:
        """The VP that an entry of this category is worth."""
        if self.kind is Kind.FLAG:
            return self.vp_each if value else 0
        return int(value) * self.vp_each


_ = gettext_noop

CATEGORIES: tuple[Category, ...] = (
    # During the game: the VP track, in the order of the rulebook (starting VP first).
    Category("starting_vp", _("Starting VP"), Section.DURING,
             help_text=_("1 for the first player, 2 for the second, and so on"), short_label=_("Starting VP")),
    Category("explore_tokens", _("Explore token bonuses"), Section.DURING, short_label=_("Explore tokens")),
    Category("farm_income", _("Farm income"), Section.DURING, short_label=_("Farm income")),
    Category("comb_pods", _("Hibernation Comb pod bonuses"), Section.DURING, short_label=_("Comb pods")),
    Category("hive_build_bonuses", _("Build bonuses on hive mat hexes"), Section.DURING,
             short_label=_("Hive mat bonuses")),
    Category("advance_strength4", _("Strength-4 worker on the Advance action"), Section.DURING,
             short_label=_("Strength-4 Advance")),
    Category("explore_strength4", _("Strength-4 planet bonuses on the Explore action"), Section.DURING,
             short_label=_("Strength-4 Explore")),
    Category("tile_abilities", _("Activating tile abilities"), Section.DURING, short_label=_("Tile abilities")),
    Category("seed_card_benefits", _("One-time benefits on played seed cards"), Section.DURING,
             short_label=_("Seed card benefits")),
    # At the end of the game, in the order the rulebook tallies them.
    Category("planted_seed_cards", _("Conditions on planted seed cards"), Section.END,
             short_label=_("Planted seed cards")),
    Category("farms", _("Farms built"), Section.END, Kind.COUNT, maximum=99,
             help_text=_("1 VP per farm"), short_label=_("Farms built")),
    Category("recruits", _("Recruits built"), Section.END, short_label=_("Recruits built")),
    Category("developments", _("Developments built"), Section.END, short_label=_("Developments built")),
    Category("carvings", _("Conditions on carvings built"), Section.END,
             minimum=-99, help_text=_("may be negative: a carving can cost VP"), short_label=_("Carvings")),
    Category("queens_favor", _("Position on the Queen's Favor track"), Section.END, short_label=_("Queen's Favor")),
    Category("hive_mat_full", _("Hive mat filled"), Section.END, Kind.FLAG,
             minimum=0, maximum=1, vp_each=8, help_text=_("8 VP if filled"), short_label=_("Hive mat filled")),
    Category("frames_filled", _("Frames filled"), Section.END, Kind.COUNT, maximum=15,
             vp_each=8, help_text=_("8 VP per frame"), short_label=_("Frames filled")),
    Category("faction_ability", _("Faction's endgame ability"), Section.END, short_label=_("Faction ability")),
)
# The longest short label, in English and in French: two lines of a 5-player cell on a small phone.
SHORT_LABEL_MAX = 24

CATEGORY_BY_KEY: dict[str, Category] = {category.key: category for category in CATEGORIES}
DURING_CATEGORIES: tuple[Category, ...] = tuple(c for c in CATEGORIES if c.section is Section.DURING)
END_CATEGORIES: tuple[Category, ...] = tuple(c for c in CATEGORIES if c.section is Section.END)

SECTION_LABELS: dict[Section, str] = {
    Section.DURING: _("During the game"),
    Section.END: _("End of the game"),
}
MAJORITY_LABEL = _("Hibernation Comb sector majorities")

# Limits of the other numbers a game holds (the game file and the models share them).
MAX_PLAYERS = 5
MIN_PLAYERS = 1
MAX_SECTORS = 20
MAX_SECTOR_VP = 99
TOKENS_PER_PLAYER = 7  # each player owns 7 hibernation tokens
MAX_ACTIVE_WORKERS = 4
MAX_NAME_LENGTH = 40
MAX_NOTES_LENGTH = 2000  # a game's notes: a few paragraphs
MAX_FACTION_LENGTH = 40
END_TRIGGER_TOKENS = (6, 7)  # the English text ends the game on the 6th token, the French on the 7th
DEFAULT_END_TRIGGER_TOKEN = 7

# The game's 20 factions, offered by the start form.
FACTIONS: tuple[str, ...] = (
    "Ana", "Arti", "Capen", "Carpa", "Casi", "Cecro", "Cypri", "Iber", "Jemit", "Lama",
    "Ligu", "Nica", "Orea", "Pomon", "Ria", "Saha", "Sime", "Sini", "Visah", "Utel",
)

# Comb spaces in use by player count (publisher's FAQ), for the end-of-game hint.
COMB_SPACES_BY_PLAYER_COUNT: dict[int, int] = {1: 8, 2: 8, 3: 12, 4: 15, 5: 15}
