"""Specification of the sentences of ``scoring/wording/``: who took each comb sector and why,
and how a tie on VP was broken, in plain English words (``docs/scoring-rules.md``).

The sentences are built from the engine's own results, so each case states the situation (the
sector's awards, each player's tokens or totals and active workers) and the exact sentence, as a
page shows it (``text_of``). A sentence is HTML: each name in its own <bdi>, every word escaped
(the last part).
"""

from __future__ import annotations

import pytest

from scoring.rules.engine import PlayerSheet, Sector, score_game, score_sector
from scoring.wording.explanations import sector_sentence, tie_sentence
from scoring.wording.numbers_and_dates import tokens_words
from scoring.wording.sentences import isolated, names_list, plain_text, words
from tests.views.helpers import EVIL, EVIL_ESCAPED, OVERRIDE, text_of

NAMES = ("Alice", "Bruno", "Carla", "Dana")


def sentence_for(first: int, second: int, tokens: list[int]) -> str:
    return text_of(sector_sentence(score_sector(0, Sector(first, second), tokens), NAMES[: len(tokens)]))


def tie_sentences(totals: list[int], workers: list[int]) -> list[str]:
    """The tie sentences of a game where each player scored ``totals`` with ``workers``."""
    result = score_game(
        [],
        [
            PlayerSheet(entries={"farm_income": total}, active_workers=count)
            for total, count in zip(totals, workers, strict=False)
        ],
    )
    return [text_of(tie_sentence(tie, NAMES[: len(totals)])) for tie in result.ties]


# ---------------------------------------------------------------------------------------------
# Words


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        pytest.param([], "", id="nobody"),
        pytest.param(["Alice"], "Alice", id="one"),
        pytest.param(["Alice", "Bruno"], "Alice and Bruno", id="two"),
        pytest.param(["Alice", "Bruno", "Carla"], "Alice, Bruno and Carla", id="three"),
        pytest.param(["Alice", "Bruno", "Carla", "Dana"], "Alice, Bruno, Carla and Dana", id="four"),
    ],
)
def test_names_list_joins_names_with_commas_and_a_final_and(names, expected):
    assert text_of(names_list(names)) == expected


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        pytest.param(0, "0 tokens", id="none"),
        pytest.param(1, "1 token", id="one"),
        pytest.param(2, "2 tokens", id="two"),
        pytest.param(7, "7 tokens", id="seven"),
    ],
)
def test_tokens_words_are_singular_for_one(count, expected):
    assert tokens_words(count) == expected


# ---------------------------------------------------------------------------------------------
# Comb sectors


@pytest.mark.parametrize(
    ("first", "second", "tokens", "expected"),
    [
        pytest.param(9, 4, [0, 0, 0], "No tokens yet: nobody scores.", id="empty"),
        pytest.param(
            9,
            4,
            [2, 2, 0],
            "Alice and Bruno tie for 1st with 2 tokens: 13 VP shared, 6 each. Nobody scores 2nd place.",
            id="two-tie-for-1st-share-1st-and-2nd-rounded-down",
        ),
        pytest.param(
            9,
            0,
            [0, 3, 3],
            "Bruno and Carla tie for 1st with 3 tokens: 9 VP shared, 4 each. Nobody scores 2nd place.",
            id="english-example-9-vp-shared-by-two",
        ),
        pytest.param(
            9,
            4,
            [1, 1, 1],
            "Alice, Bruno and Carla tie for 1st with 1 token: 13 VP shared, 4 each. Nobody scores 2nd place.",
            id="three-tie-for-1st-with-1-token",
        ),
        pytest.param(
            9,
            4,
            [4, 4, 1],
            "Alice and Bruno tie for 1st with 4 tokens: 13 VP shared, 6 each. Nobody scores 2nd place.",
            id="tie-for-1st-leaves-the-3rd-player-nothing",
        ),
        pytest.param(
            9,
            4,
            [0, 3, 0],
            "Bruno leads with 3 tokens: 9 VP. Nobody else has a token here, so 2nd place is not awarded.",
            id="alone-in-a-sector-with-a-2nd-award",
        ),
        pytest.param(13, 0, [0, 0, 1], "Carla leads with 1 token: 13 VP.", id="alone-in-a-sector-without-2nd-award"),
        pytest.param(
            13,
            0,
            [3, 1, 0],
            "Alice leads with 3 tokens: 13 VP. This sector has no 2nd-place award.",
            id="2nd-most-but-no-2nd-award",
        ),
        pytest.param(
            9,
            4,
            [3, 1, 0],
            "Alice leads with 3 tokens: 9 VP. Bruno is 2nd with 1 token: 4 VP.",
            id="1st-and-2nd",
        ),
        pytest.param(
            9,
            4,
            [3, 2, 1],
            "Alice leads with 3 tokens: 9 VP. Bruno is 2nd with 2 tokens: 4 VP.",
            id="3rd-most-scores-nothing",
        ),
        pytest.param(
            9,
            5,
            [3, 1, 1],
            "Alice leads with 3 tokens: 9 VP. Bruno and Carla tie for 2nd with 1 token: 5 VP shared, 2 each.",
            id="two-tie-for-2nd-rounded-down",
        ),
        pytest.param(
            6,
            3,
            [2, 2, 2, 4],
            "Dana leads with 4 tokens: 6 VP. Alice, Bruno and Carla tie for 2nd with 2 tokens: 3 VP shared, 1 each.",
            id="three-tie-for-2nd",
        ),
    ],
)
def test_sector_sentence(first, second, tokens, expected):
    assert sentence_for(first, second, tokens) == expected


def test_french_example_13_vp_shared_by_two_gives_6_each():
    result = score_sector(0, Sector(9, 4), [2, 2])

    assert (result.pool, result.first_each) == (13, 6)
    assert text_of(sector_sentence(result, ["Alice", "Bruno"])) == (
        "Alice and Bruno tie for 1st with 2 tokens: 13 VP shared, 6 each. Nobody scores 2nd place."
    )


# ---------------------------------------------------------------------------------------------
# Ties on VP


@pytest.mark.parametrize(
    ("totals", "workers", "expected"),
    [
        pytest.param([80, 80], [1, 3], ["Bruno wins the tie on active workers, 3 to 1."], id="two-for-1st-broken"),
        pytest.param([80, 80], [3, 1], ["Alice wins the tie on active workers, 3 to 1."], id="seat-order-irrelevant"),
        pytest.param(
            [80, 80],
            [2, 2],
            ["Alice and Bruno tie on 80 VP and on active workers (2 each): they share the victory."],
            id="two-share-the-victory",
        ),
        pytest.param(
            [80, 80, 80],
            [0, 0, 0],
            ["Alice, Bruno and Carla tie on 80 VP and on active workers (0 each): they share the victory."],
            id="three-share-the-victory",
        ),
        pytest.param(
            [90, 80, 80],
            [0, 1, 3],
            ["Carla takes 2nd place on active workers, 3 to 1."],
            id="two-for-2nd-broken",
        ),
        pytest.param(
            [90, 80, 80],
            [0, 2, 2],
            ["Bruno and Carla tie on 80 VP and on active workers (2 each): they share 2nd place."],
            id="two-share-2nd-place",
        ),
        pytest.param(
            [90, 95, 70, 70],
            [0, 0, 4, 1],
            ["Carla takes 3rd place on active workers, 4 to 1."],
            id="two-for-3rd-broken",
        ),
        pytest.param(
            [80, 80, 80],
            [1, 3, 2],
            ["Bruno, Carla and Alice tie on 80 VP. Bruno wins the tie on active workers (3, 2 and 1)."],
            id="three-for-1st-all-different-workers",
        ),
        pytest.param(
            [90, 80, 80, 80],
            [0, 1, 3, 2],
            ["Carla, Dana and Bruno tie on 80 VP. Carla takes 2nd place on active workers (3, 2 and 1)."],
            id="three-for-2nd-all-different-workers",
        ),
        pytest.param(
            [80, 80, 80],
            [1, 3, 1],
            [
                "Bruno, Alice and Carla tie on 80 VP. Bruno wins the tie on active workers, 3 to 1. "
                "Alice and Carla also tie on active workers and share their place."
            ],
            id="three-for-1st-two-still-tied-behind",
        ),
        pytest.param(
            [80, 80, 80],
            [3, 3, 1],
            [
                "Alice, Bruno and Carla tie on 80 VP. Alice and Bruno win the tie on active workers, 3 to 1. "
                "Alice and Bruno also tie on active workers and share their place."
            ],
            id="three-for-1st-two-still-tied-ahead",
        ),
        pytest.param(
            [80, 80, 60, 60],
            [1, 2, 2, 2],
            [
                "Bruno wins the tie on active workers, 2 to 1.",
                "Carla and Dana tie on 60 VP and on active workers (2 each): they share 3rd place.",
            ],
            id="two-ties-in-one-game-best-first",
        ),
        pytest.param([80, 70, 60], [0, 0, 0], [], id="no-tie"),
    ],
)
def test_tie_sentences(totals, workers, expected):
    assert tie_sentences(totals, workers) == expected


# ---------------------------------------------------------------------------------------------
# Names in sentences: each isolated, never markup, never reordering the words around it


def test_each_name_of_a_sentence_is_escaped_in_its_own_bdi():
    result = score_sector(0, Sector(9, 4), [3, 1, 1])

    assert sector_sentence(result, [OVERRIDE, EVIL, "Carla"]) == (
        f"<bdi>{OVERRIDE}</bdi> leads with 3 tokens: 9 VP. <bdi>{EVIL_ESCAPED}</bdi> and <bdi>Carla</bdi> tie for 2nd "
        "with 1 token: 4 VP shared, 2 each."
    )


def test_a_tie_sentence_isolates_each_name_too():
    result = score_game([], [PlayerSheet(entries={"farm_income": 80}, active_workers=w) for w in (1, 3)])

    assert tie_sentence(result.ties[0], [OVERRIDE, "Bruno"]) == (
        "<bdi>Bruno</bdi> wins the tie on active workers, 3 to 1."
    )


def test_a_sentences_own_words_are_escaped_so_a_translators_markup_is_shown_as_written():
    assert (
        words("<b>%(name)s</b> & co", name=isolated(EVIL)) == f"&lt;b&gt;<bdi>{EVIL_ESCAPED}</bdi>&lt;/b&gt; &amp; co"
    )
    assert words("%(name)s (edit link)", name=EVIL) == f"{EVIL_ESCAPED} (edit link)"  # a value is escaped too


def test_a_sentence_as_plain_text_isolates_each_name_with_unicodes_isolates():
    """For the pad's script, which shows a refusal as text (``refusals.sentence``)."""
    sentence = words("Finished by %(name)s at %(time)s.", name=isolated(f"{OVERRIDE} & <co>"), time="21:14")

    assert plain_text(sentence) == f"Finished by \u2068{OVERRIDE} & <co>\u2069 at 21:14."
