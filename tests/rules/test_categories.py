"""Specification of the score categories (``scoring/rules/categories.py``).

The categories are the one list that every other part of the pad reads, so this file pins them
to their sources: ``docs/scoring-rules.md`` (keys, order, sections, VP per unit) and
``docs/game-file.md`` (the limits of every entry). These tests need no database.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.rules import categories
from scoring.rules.categories import (
    CATEGORIES,
    CATEGORY_BY_KEY,
    DEFAULT_DURING,
    DURING_CATEGORIES,
    END_CATEGORIES,
    SHORT_LABEL_MAX,
    Category,
    During,
    Kind,
    Section,
    categories_of,
)

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SCORING_MD = PROJECT_ROOT / "docs" / "scoring-rules.md"

# SCORING.md, "Score categories": the during-the-game table, in its order: the VP track's one
# entry, then the breakdown's.
TRACK_KEYS = ("vp_track",)
BREAKDOWN_KEYS = (
    "starting_vp",
    "explore_tokens",
    "farm_income",
    "comb_pods",
    "hive_build_bonuses",
    "advance_strength4",
    "explore_strength4",
    "tile_abilities",
    "seed_card_benefits",
)
DURING_KEYS = TRACK_KEYS + BREAKDOWN_KEYS
# SCORING.md: "At the end of the game, in this order" (the computed majorities are not an entry).
END_KEYS = (
    "planted_seed_cards",
    "farms",
    "recruits",
    "developments",
    "carvings",
    "queens_favor",
    "hive_mat_full",
    "frames_filled",
    "faction_ability",
)

# key -> (kind, minimum, maximum, VP per unit), from SCORING.md's VP column and FORMAT.md's limits:
# "Every VP entry is a whole number 0 to 999, except `carvings`, -99 to 999. `farms` 0 to 99,
#  `frames_filled` 0 to 15, ... `hive_mat_full` true or false."
VP_ENTRY = (Kind.VP, 0, 999, 1)
EXPECTED_LIMITS = {
    **dict.fromkeys(DURING_KEYS, VP_ENTRY),
    "planted_seed_cards": VP_ENTRY,
    "farms": (Kind.COUNT, 0, 99, 1),  # "1 per farm"
    "recruits": VP_ENTRY,
    "developments": VP_ENTRY,
    "carvings": (Kind.VP, -99, 999, 1),  # note 2: "this entry may be negative"
    "queens_favor": VP_ENTRY,
    "hive_mat_full": (Kind.FLAG, None, None, 8),  # "8 if yes"
    "frames_filled": (Kind.COUNT, 0, 15, 8),  # "8 per frame"
    "faction_ability": VP_ENTRY,
}

# SCORING.md's tables: key -> (English, French edition), without the "(see note 1)"-style remarks.
EXPECTED_LABELS = {
    "vp_track": ("VP on the track at the end", "PV sur la piste à la fin de la partie"),
    "starting_vp": ("Starting VP", "PV de départ"),
    "explore_tokens": ("Explore token bonuses", "Bonus des jetons Exploration"),
    "farm_income": ("Farm income", "Revenus des Fermes"),
    "comb_pods": ("Hibernation Comb pod bonuses", "Bonus des Alvéoles d’Hibernation"),
    "hive_build_bonuses": (
        "Build bonuses on hive mat hexes",
        "Bonus construits sur les alvéoles du plateau Ruche",
    ),
    "advance_strength4": ("Strength-4 worker on the Advance action", "Ouvrier de force 4 sur l’action Évolution"),
    "explore_strength4": (
        "Strength-4 planet bonuses on the Explore action",
        "Bonus des planètes pour les ouvriers de force 4 sur l’action Exploration",
    ),
    "tile_abilities": ("Activating tile abilities", "Activation des capacités des tuiles"),
    "seed_card_benefits": (
        "One-time benefits on played seed cards",
        "Bénéfices à usage unique sur les cartes Graine jouées",
    ),
    "planted_seed_cards": ("Conditions on planted seed cards", "Conditions des cartes Graine plantées"),
    "farms": ("Farms built", "Fermes construites"),
    "recruits": ("Recruits built", "Recrues"),
    "developments": ("Developments built", "Innovations"),
    "carvings": ("Conditions on carvings built", "Conditions des Sculptures construites"),
    "queens_favor": ("Position on the Queen’s Favor track", "Position sur la piste Faveur de la Reine"),
    "hive_mat_full": ("Hive mat filled", "Plateau Ruche rempli"),
    "frames_filled": ("Frames filled", "Cadres remplis"),
    "faction_ability": ("Faction’s endgame ability", "Capacité de fin de partie de la faction"),
}

NUMBER_KEYS = [key for key, (kind, *_) in EXPECTED_LIMITS.items() if kind is not Kind.FLAG]


# --------------------------------------------------------------------------------------------
# The list itself: keys, order, sections
# --------------------------------------------------------------------------------------------


def test_keys_are_unique():
    """One category per key: the key names the field in the models, forms and game file."""
    keys = [category.key for category in CATEGORIES]
    assert len(keys) == len(set(keys))


def test_keys_are_exactly_those_of_scoring_md_in_its_order():
    """SCORING.md: the during-the-game entries, then the end-of-game ones "in this order"."""
    assert tuple(category.key for category in CATEGORIES) == DURING_KEYS + END_KEYS


@pytest.mark.parametrize(
    ("section", "keys", "subset"),
    [
        pytest.param(Section.DURING, DURING_KEYS, DURING_CATEGORIES, id="during-the-game"),
        pytest.param(Section.END, END_KEYS, END_CATEGORIES, id="end-of-the-game"),
    ],
)
def test_each_section_holds_its_table_of_scoring_md(section, keys, subset):
    """ "A player's final score is what they gained during the game plus what they gain at the end." """
    assert tuple(c.key for c in CATEGORIES if c.section is section) == keys
    assert tuple(c.key for c in subset) == keys
    assert all(c.section is section for c in subset)


@pytest.mark.parametrize(
    ("during", "during_keys"),
    [
        pytest.param(During.TRACK, TRACK_KEYS, id="the-vp-track"),
        pytest.param(During.BREAKDOWN, BREAKDOWN_KEYS, id="the-breakdown"),
    ],
)
def test_a_game_counts_the_during_the_game_entries_of_its_way_and_every_end_of_game_entry(during, during_keys):
    """SCORING.md: each game counts its during-the-game points one way, "the entries of its own way
    only"; the end-of-game categories are the same either way."""
    assert tuple(c.key for c in categories_of(during, Section.DURING)) == during_keys
    assert tuple(c.key for c in categories_of(during, Section.END)) == END_KEYS
    assert tuple(c.key for c in categories_of(during)) == during_keys + END_KEYS
    assert all(c.counts_in(during) for c in categories_of(during))
    assert categories_of(during.value) == categories_of(during)  # as the database holds it


def test_every_during_the_game_category_belongs_to_one_way_and_no_end_of_game_one_does():
    assert all(c.during is not None for c in DURING_CATEGORIES)
    assert all(c.during is None for c in END_CATEGORIES)


def test_a_new_game_counts_the_vp_track():
    assert DEFAULT_DURING is During.TRACK


def test_category_by_key_indexes_every_category():
    assert list(CATEGORY_BY_KEY) == [c.key for c in CATEGORIES]
    assert all(CATEGORY_BY_KEY[c.key] is c for c in CATEGORIES)


def _keys_in_scoring_md_tables(text: str) -> list[str]:
    """The backquoted keys in the first column of SCORING.md's category tables, in order."""
    return re.findall(r"^\| `([a-z0-9_]+)` \|", text, flags=re.MULTILINE)


def test_keys_match_the_tables_of_the_scoring_rules_document():
    """Cross-check against the document itself, so that the two cannot drift apart unnoticed."""
    assert _keys_in_scoring_md_tables(SCORING_MD.read_text(encoding="utf-8")) == [c.key for c in CATEGORIES]


@pytest.mark.parametrize(("key", "labels"), list(EXPECTED_LABELS.items()), ids=list(EXPECTED_LABELS))
def test_labels_are_the_english_and_french_names_of_the_rules_document(key, labels):
    """The rules document gives each category's English name and the French edition's words;
    the category's label is the English one (the French comes from the translation catalogue)."""
    english, french = labels
    assert CATEGORY_BY_KEY[key].label == english
    row = next(line for line in SCORING_MD.read_text(encoding="utf-8").splitlines() if line.startswith(f"| `{key}` |"))
    assert [cell.strip() for cell in row.split("|")[2:4]] == [english, french]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_category_has_short_words_for_the_pad_of_two_lines_at_most(language):
    """Issue 19: the pad's rows read at a glance: each category has its short words (translated,
    like its label), at most SHORT_LABEL_MAX characters: two lines of a 5-player cell on a small
    phone (tests/browser/test_glance.py measures them). The full words stay the label."""
    from django.utils import translation

    with translation.override(language):
        short = {c.key: translation.gettext(c.short_label) for c in CATEGORIES}
        full = {c.key: translation.gettext(c.label) for c in CATEGORIES}
    assert all(short.values()), "a category has no short words"
    assert {key: words for key, words in short.items() if len(words) > SHORT_LABEL_MAX} == {}
    assert all(len(short[key]) <= len(full[key]) for key in short)
    assert len(set(short.values())) == len(CATEGORIES), "two rows would read alike"


# --------------------------------------------------------------------------------------------
# Kinds, limits and VP per unit
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("key", "expected"), list(EXPECTED_LIMITS.items()), ids=list(EXPECTED_LIMITS))
def test_kind_limits_and_vp_per_unit_follow_scoring_md_and_format_md(key, expected):
    """FORMAT.md: "Every VP entry is a whole number 0 to 999, except `carvings`, -99 to 999.
    `farms` 0 to 99, `frames_filled` 0 to 15, ... `hive_mat_full` true or false."
    """
    kind, minimum, maximum, vp_each = expected
    category = CATEGORY_BY_KEY[key]
    assert category.kind is kind
    assert category.vp_each == vp_each
    assert category.is_flag is (kind is Kind.FLAG)
    if kind is not Kind.FLAG:
        assert (category.minimum, category.maximum) == (minimum, maximum)


def test_the_only_flag_is_hive_mat_full():
    assert [c.key for c in CATEGORIES if c.is_flag] == ["hive_mat_full"]


def test_the_only_entry_that_may_be_negative_is_carvings():
    """SCORING.md note 2: "Carvings can cost points ..., so this entry may be negative." """
    assert [c.key for c in CATEGORIES if not c.is_flag and c.minimum < 0] == ["carvings"]


# --------------------------------------------------------------------------------------------
# Usual ranges: what a game records (a value outside is saved, and marked to check)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", NUMBER_KEYS, ids=NUMBER_KEYS)
def test_each_number_category_has_a_usual_range_within_what_it_accepts(key):
    category = CATEGORY_BY_KEY[key]
    low, high = category.usual
    assert category.minimum <= low < high <= category.maximum


def test_a_yes_no_entry_has_no_usual_range_both_answers_are_usual():
    hive_mat = CATEGORY_BY_KEY["hive_mat_full"]
    assert hive_mat.usual is None
    assert not hive_mat.is_unusual(True) and not hive_mat.is_unusual(False)


@pytest.mark.parametrize(
    ("key", "value", "unusual"),
    [
        pytest.param("queens_favor", 999, True, id="999-in-queens-favor"),
        pytest.param("queens_favor", 25, False, id="queens-favor-at-the-top-of-its-range"),
        pytest.param("frames_filled", 9, True, id="9-frames-filled"),
        pytest.param("frames_filled", 4, False, id="4-frames-filled"),
        pytest.param("farm_income", 85, True, id="a-track-position-typed-into-one-source"),
        pytest.param("farm_income", 0, False, id="nothing-from-a-source"),
        pytest.param("starting_vp", 0, True, id="no-seat-starts-with-0-vp"),
        pytest.param("starting_vp", 5, False, id="the-fifth-seat-starts-with-5-vp"),
        pytest.param("carvings", -11, True, id="carvings-far-below-0"),
        pytest.param("carvings", -10, False, id="a-few-carvings-missed"),
        pytest.param("farms", None, False, id="not-entered-is-never-unusual"),
    ],
)
def test_a_value_outside_its_categorys_usual_range_is_unusual(key, value, unusual):
    assert CATEGORY_BY_KEY[key].is_unusual(value) is unusual


def _usual_ranges_in_scoring_md(text: str) -> dict[str, str]:
    """The "Usual values" table of SCORING.md: key -> its usual column ("0 to 25", "yes or no"). A
    row naming two keys with "…" between them stands for every category from one to the other."""
    section = text.split("## Usual values", 1)[1].split("\n## ", 1)[0]
    keys_in_order = [c.key for c in CATEGORIES]
    ranges: dict[str, str] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.split("|")[1:-1]]
        keys = re.findall(r"`([a-z0-9_]+)`", cells[1]) if len(cells) == 4 else []
        if len(keys) == 2 and "…" in cells[1]:
            keys = keys_in_order[keys_in_order.index(keys[0]) : keys_in_order.index(keys[1]) + 1]
        for key in keys:
            ranges[key] = cells[2]
    return ranges


def test_the_usual_ranges_are_those_of_the_rules_document():
    """SCORING.md, "Usual values", gives every category's usual range and why."""
    documented = _usual_ranges_in_scoring_md(SCORING_MD.read_text(encoding="utf-8"))
    assert list(documented) == [c.key for c in CATEGORIES]
    for category in CATEGORIES:
        if category.usual is None:
            assert documented[category.key] == "yes or no"
        else:
            low, high = category.usual
            assert re.fullmatch(rf"{low} to {high}( \w+)?", documented[category.key]), category.key


# --------------------------------------------------------------------------------------------
# Category.vp: what an entry is worth
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value", "vp"),
    [
        pytest.param("starting_vp", 1, 1, id="plain-vp-as-entered"),
        pytest.param("queens_favor", 999, 999, id="plain-vp-at-its-maximum"),
        pytest.param("planted_seed_cards", 0, 0, id="plain-vp-zero"),
        pytest.param("farms", 1, 1, id="one-farm-is-1vp"),
        pytest.param("farms", 4, 4, id="farms-1vp-each"),
        pytest.param("farms", 99, 99, id="farms-at-their-maximum"),
        pytest.param("frames_filled", 0, 0, id="no-frame"),
        pytest.param("frames_filled", 1, 8, id="one-frame-is-8vp"),
        pytest.param("frames_filled", 3, 24, id="frames-8vp-each"),
        pytest.param("frames_filled", 15, 120, id="frames-at-their-maximum"),
        pytest.param("hive_mat_full", True, 8, id="hive-mat-full-is-8vp"),
        pytest.param("hive_mat_full", False, 0, id="hive-mat-not-full-is-0"),
        pytest.param("hive_mat_full", 0, 0, id="hive-mat-missing-counts-as-false"),
        pytest.param("carvings", -3, -3, id="a-carving-can-cost-3vp"),
        pytest.param("carvings", -99, -99, id="carvings-at-their-minimum"),
        pytest.param("carvings", 14, 14, id="carvings-positive"),
    ],
)
def test_vp_of_an_entry(key, value, vp):
    """SCORING.md's VP column: "as entered", "1 per farm", "8 if yes", "8 per frame"."""
    assert CATEGORY_BY_KEY[key].vp(value) == vp


# --------------------------------------------------------------------------------------------
# Category.check: what an entry may be
# --------------------------------------------------------------------------------------------


def test_a_new_category_defaults_to_a_plain_vp_entry_0_to_999():
    """The defaults are FORMAT.md's rule for "every VP entry"."""
    category = Category("x", "X", Section.END)
    assert (category.kind, category.minimum, category.maximum, category.vp_each) == (Kind.VP, 0, 999, 1)


# --------------------------------------------------------------------------------------------
# The other limits a game holds
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value"),
    [
        pytest.param("MIN_PLAYERS", 1, id="at-least-1-player"),  # FORMAT.md: "A game has 1 to 5 players."
        pytest.param("MAX_PLAYERS", 5, id="at-most-5-players"),
        pytest.param("MAX_SECTORS", 20, id="comb-0-to-20-sectors"),  # "`comb`: 0 to 20 sectors"
        pytest.param("MAX_SECTOR_VP", 99, id="sector-vp-0-to-99"),  # "each `first` and `second` ... 0 to 99"
        pytest.param("TOKENS_PER_PLAYER", 7, id="7-hibernation-tokens-each"),  # SCORING.md: "each player owns 7"
        pytest.param("MAX_ACTIVE_WORKERS", 4, id="active-workers-0-to-4"),  # "`active_workers` 0 to 4"
        pytest.param("MAX_NAME_LENGTH", 40, id="names-1-to-40-characters"),  # "`name`: 1 to 40 characters"
        pytest.param("END_TRIGGER_TOKENS", (6, 7), id="end-on-6th-en-or-7th-fr-token"),
        pytest.param("DEFAULT_END_TRIGGER_TOKEN", 7, id="end-trigger-default-7th"),  # "(default: 7th)"
        # the start form offers first the rule of the page's language's edition
        pytest.param(
            "END_TRIGGER_TOKEN_BY_LANGUAGE", {"en": 6, "fr": 7}, id="end-trigger-6th-in-english-7th-in-french"
        ),
    ],
)
def test_limits_of_a_game(name, value):
    assert getattr(categories, name) == value


@pytest.mark.parametrize(
    ("players", "spaces"),
    [
        pytest.param(2, 8, id="2-players"),
        pytest.param(3, 12, id="3-players"),
        pytest.param(4, 15, id="4-players"),
        pytest.param(5, 15, id="5-players"),
    ],
)
def test_comb_spaces_in_use_by_player_count(players, spaces):
    """SCORING.md: "2 players: 8 spaces, 3 players: 12, 4 or 5 players: 15, from the publisher's FAQ"."""
    assert categories.COMB_SPACES_BY_PLAYER_COUNT[players] == spaces


# --------------------------------------------------------------------------------------------
# Plain Python: no Django in the engine or the categories
# --------------------------------------------------------------------------------------------

PURE_MODULES = ["scoring/rules/engine.py", "scoring/rules/categories.py"]


def _imported_modules(path: Path) -> set[str]:
    """Every module named by an ``import`` or ``from ... import`` anywhere in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add("." * node.level + (node.module or ""))
    return names


@pytest.mark.parametrize("module", PURE_MODULES, ids=PURE_MODULES)
def test_module_source_imports_nothing_from_django(module):
    """The categories' docstring: "Plain Python, no Django import: the engine and the game file use
    it outside Django too."
    """
    imported = _imported_modules(PROJECT_ROOT / module)
    assert imported, "the AST walk found no import at all: the check is not looking at the module"
    assert not {name for name in imported if name == "django" or name.startswith("django.")}


def test_engine_imports_only_the_standard_library_and_the_categories():
    allowed = set(sys.stdlib_module_names) | {"__future__", "scoring.rules.categories"}
    imported = _imported_modules(PROJECT_ROOT / "scoring/rules/engine.py")
    assert {name for name in imported if name.split(".")[0] not in allowed and name not in allowed} == set()


def test_engine_and_categories_import_with_django_unavailable():
    """Importing the engine (and so the categories and the ``scoring`` package) works where Django
    cannot be imported at all.
    """
    code = (
        "import sys; sys.modules['django'] = None\n"
        "import scoring.rules.engine, scoring.rules.categories\n"
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules if sys.modules[m])\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60
    )
    assert completed.returncode == 0, completed.stderr
