"""Specification of the sentences of ``scoring/wording/``: who took each comb sector and why,
and how a tie on VP was broken, in plain English words (``docs/scoring-rules.md``).

The sentences are built from the engine's own results, so each case states the situation (the
sector's awards, each player's tokens or totals and active workers) and the exact sentence, as a
page shows it (``text_of``). A sentence is HTML: each name in its own <bdi>, every word escaped
(the last part).
"""

from __future__ import annotations

from html import unescape

import pytest
from django.utils import translation
from django.utils.html import strip_tags

from scoring.rules.engine import PlayerSheet, Sector, score_game, score_sector
from scoring.wording.explanations import sector_sentence, tie_sentence
from scoring.wording.numbers_and_dates import tokens_words
from scoring.wording.sentences import AUTOMA, isolated, names_list, plain_text, words
from tests.support.pages import EVIL, EVIL_ESCAPED, OVERRIDE, text_of

NAMES = ("Alice", "Bruno", "Carla", "Dana", "Eve")


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
    return [_words_of(tie_sentence(tie, NAMES[: len(totals)])) for tie in result.ties]


def _words_of(sentence: str) -> str:
    """A sentence's words, its no-break spaces kept (French typography's, checked here too)."""
    return unescape(strip_tags(sentence))


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
            "Alice and Bruno tie for 1st with 2 tokens: 13 VP shared, 6 each, rounded down. Nobody scores 2nd place.",
            id="two-tie-for-1st-share-1st-and-2nd-rounded-down",
        ),
        pytest.param(
            9,
            0,
            [0, 3, 3],
            "Bruno and Carla tie for 1st with 3 tokens: 9 VP shared, 4 each, rounded down. Nobody scores 2nd place.",
            id="english-example-9-vp-shared-by-two",
        ),
        pytest.param(
            9,
            4,
            [1, 1, 1],
            "Alice, Bruno and Carla tie for 1st with 1 token: 13 VP shared, 4 each, rounded down. "
            "Nobody scores 2nd place.",
            id="three-tie-for-1st-with-1-token",
        ),
        pytest.param(
            9,
            4,
            [4, 4, 1],
            "Alice and Bruno tie for 1st with 4 tokens: 13 VP shared, 6 each, rounded down. Nobody scores 2nd place.",
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
            "Alice leads with 3 tokens: 13 VP. This sector awards nothing for 2nd place.",
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
            "Alice leads with 3 tokens: 9 VP. Bruno and Carla tie for 2nd with 1 token: 5 VP shared, 2 each, "
            "rounded down.",
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
        "Alice and Bruno tie for 1st with 2 tokens: 13 VP shared, 6 each, rounded down. Nobody scores 2nd place."
    )


# ---------------------------------------------------------------------------------------------
# Ties on VP


# Every shape of a tie (2 to 5 players; broken, shared, and still tied at the top or below the first),
# in both languages: one sentence per situation, naming the place, each group once, each figure with its
# players. (The Automa's: ``test_the_automa_is_named_as_the_edition_names_it``.)
TIE_CASES = [
    pytest.param(
        [80, 80],
        [1, 3],
        [("Bruno wins the tie-break with 3 active workers, ahead of Alice (1).",)],
        [("Bruno l’emporte au départage avec 3\u00a0ouvriers actifs, devant Alice (1).",)],
        id="two-for-1st-broken",
    ),
    pytest.param(
        [80, 80],
        [3, 1],
        [("Alice wins the tie-break with 3 active workers, ahead of Bruno (1).",)],
        [("Alice l’emporte au départage avec 3\u00a0ouvriers actifs, devant Bruno (1).",)],
        id="seat-order-irrelevant",
    ),
    pytest.param(
        [80, 80],
        [0, 1],
        [("Bruno wins the tie-break with 1 active worker, ahead of Alice (0).",)],
        [("Bruno l’emporte au départage avec 1\u00a0ouvrier actif, devant Alice (0).",)],
        id="one-worker-said-in-the-singular",
    ),
    pytest.param(
        [80, 80],
        [2, 2],
        [("Alice and Bruno share the victory: 80 VP and 2 active workers each.",)],
        [("Alice et Bruno se partagent la victoire\u202f: 80\xa0PV et 2\u00a0ouvriers actifs chacun.",)],
        id="two-share-the-victory",
    ),
    pytest.param(
        [80, 80, 80],
        [0, 0, 0],
        [("Alice, Bruno and Carla share the victory: 80 VP and 0 active workers each.",)],
        [("Alice, Bruno et Carla se partagent la victoire\u202f: 80\xa0PV et 0\u00a0ouvrier actif chacun.",)],
        id="three-share-the-victory-with-none",
    ),
    pytest.param(
        [90, 80, 80],
        [0, 1, 3],
        [("Carla takes 2nd place on the tie-break with 3 active workers, ahead of Bruno (1).",)],
        [("Carla prend la 2e place au départage avec 3\u00a0ouvriers actifs, devant Bruno (1).",)],
        id="two-for-2nd-broken",
    ),
    pytest.param(
        [90, 80, 80],
        [0, 2, 2],
        [("Bruno and Carla share 2nd place: 80 VP and 2 active workers each.",)],
        [("Bruno et Carla se partagent la 2e place\u202f: 80\xa0PV et 2\u00a0ouvriers actifs chacun.",)],
        id="two-share-2nd-place",
    ),
    pytest.param(
        [90, 95, 70, 70],
        [0, 0, 4, 1],
        [("Carla takes 3rd place on the tie-break with 4 active workers, ahead of Dana (1).",)],
        [("Carla prend la 3e place au départage avec 4\u00a0ouvriers actifs, devant Dana (1).",)],
        id="two-for-3rd-broken",
    ),
    pytest.param(
        [80, 80, 80],
        [1, 3, 2],
        [("Bruno wins the tie-break with 3 active workers, ahead of Carla (2) and Alice (1).",)],
        [("Bruno l’emporte au départage avec 3\u00a0ouvriers actifs, devant Carla (2) et Alice (1).",)],
        id="three-for-1st-each-their-figure",
    ),
    pytest.param(
        [90, 80, 80, 80],
        [0, 1, 3, 2],
        [("Carla takes 2nd place on the tie-break with 3 active workers, ahead of Dana (2) and Bruno (1).",)],
        [("Carla prend la 2e place au départage avec 3\u00a0ouvriers actifs, devant Dana (2) et Bruno (1).",)],
        id="three-for-2nd-each-their-figure",
    ),
    pytest.param(
        [80, 80, 80, 80],
        [3, 4, 2, 1],
        [("Bruno wins the tie-break with 4 active workers, ahead of Alice (3), Carla (2) and Dana (1).",)],
        [("Bruno l’emporte au départage avec 4\u00a0ouvriers actifs, devant Alice (3), Carla (2) et Dana (1).",)],
        id="four-for-1st-each-their-figure",
    ),
    pytest.param(
        [80, 80, 80, 80, 80],
        [1, 2, 3, 4, 5],
        [("Eve wins the tie-break with 5 active workers, ahead of Dana (4), Carla (3), Bruno (2) and Alice (1).",)],
        [
            (
                "Eve l’emporte au départage avec 5\u00a0ouvriers actifs, "
                "devant Dana (4), Carla (3), Bruno (2) et Alice (1).",
            )
        ],
        id="five-for-1st-each-their-figure",
    ),
    pytest.param(
        [80, 80, 80, 80, 80],
        [2, 2, 2, 2, 2],
        [("Alice, Bruno, Carla, Dana and Eve share the victory: 80 VP and 2 active workers each.",)],
        [
            (
                "Alice, Bruno, Carla, Dana et Eve se partagent la victoire\u202f: "
                "80\xa0PV et 2\u00a0ouvriers actifs chacun.",
            )
        ],
        id="five-share-the-victory",
    ),
    pytest.param(
        [80, 80, 80],
        [1, 3, 1],
        [
            (
                "Bruno wins the tie-break with 3 active workers.",
                "Alice and Carla share 2nd place with 1 active worker each.",
            )
        ],
        [
            (
                "Bruno l’emporte au départage avec 3\u00a0ouvriers actifs.",
                "Alice et Carla se partagent la 2e place avec 1\u00a0ouvrier actif chacun.",
            )
        ],
        id="three-for-1st-two-still-tied-behind",
    ),
    pytest.param(
        [80, 80, 80],
        [3, 3, 1],
        [
            (
                "Alice and Bruno share the victory with 3 active workers each.",
                "Carla takes 3rd place on the tie-break with 1 active worker.",
            )
        ],
        [
            (
                "Alice et Bruno se partagent la victoire avec 3\u00a0ouvriers actifs chacun.",
                "Carla prend la 3e place au départage avec 1\u00a0ouvrier actif.",
            )
        ],
        id="three-for-1st-two-still-tied-ahead",
    ),
    pytest.param(
        [80, 80, 80, 80],
        [2, 1, 2, 1],
        [
            (
                "Alice and Carla share the victory with 2 active workers each.",
                "Bruno and Dana share 3rd place with 1 active worker each.",
            )
        ],
        [
            (
                "Alice et Carla se partagent la victoire avec 2\u00a0ouvriers actifs chacun.",
                "Bruno et Dana se partagent la 3e place avec 1\u00a0ouvrier actif chacun.",
            )
        ],
        id="four-for-1st-tied-by-two-twice",
    ),
    pytest.param(
        [90, 80, 80, 80],
        [0, 1, 3, 1],
        [
            (
                "Carla takes 2nd place on the tie-break with 3 active workers.",
                "Bruno and Dana share 3rd place with 1 active worker each.",
            )
        ],
        [
            (
                "Carla prend la 2e place au départage avec 3\u00a0ouvriers actifs.",
                "Bruno et Dana se partagent la 3e place avec 1\u00a0ouvrier actif chacun.",
            )
        ],
        id="four-for-2nd-two-still-tied-behind",
    ),
    pytest.param(
        [80, 80, 80, 80, 80],
        [3, 2, 2, 1, 0],
        [
            (
                "Alice wins the tie-break with 3 active workers.",
                "Bruno and Carla share 2nd place with 2 active workers each.",
                "Dana takes 4th place on the tie-break with 1 active worker.",
                "Eve takes 5th place on the tie-break with 0 active workers.",
            )
        ],
        [
            (
                "Alice l’emporte au départage avec 3\u00a0ouvriers actifs.",
                "Bruno et Carla se partagent la 2e place avec 2\u00a0ouvriers actifs chacun.",
                "Dana prend la 4e place au départage avec 1\u00a0ouvrier actif.",
                "Eve prend la 5e place au départage avec 0\u00a0ouvrier actif.",
            )
        ],
        id="five-for-1st-one-ahead-one-tied-pair-one-last",
    ),
    pytest.param(
        [80, 80, 60, 60],
        [1, 2, 2, 2],
        [
            ("Bruno wins the tie-break with 2 active workers, ahead of Alice (1).",),
            ("Carla and Dana share 3rd place: 60 VP and 2 active workers each.",),
        ],
        [
            ("Bruno l’emporte au départage avec 2\u00a0ouvriers actifs, devant Alice (1).",),
            ("Carla et Dana se partagent la 3e place\u202f: 60\xa0PV et 2\u00a0ouvriers actifs chacun.",),
        ],
        id="two-ties-in-one-game-best-first",
    ),
    pytest.param([80, 70, 60], [0, 0, 0], [], [], id="no-tie"),
]


@pytest.mark.parametrize(("totals", "workers", "english", "french"), TIE_CASES)
def test_tie_sentences(totals, workers, english, french):
    """Each tie's sentences (a tuple: one per group of players) as the page shows them."""
    assert tie_sentences(totals, workers) == [" ".join(sentences) for sentences in english]
    with translation.override("fr"):
        assert tie_sentences(totals, workers) == [" ".join(sentences) for sentences in french]


# ---------------------------------------------------------------------------------------------
# Names in sentences: each isolated, never markup, never reordering the words around it


def test_each_name_of_a_sentence_is_escaped_in_its_own_bdi():
    result = score_sector(0, Sector(9, 4), [3, 1, 1])

    assert sector_sentence(result, [OVERRIDE, EVIL, "Carla"]) == (
        f"<bdi>{OVERRIDE}</bdi> leads with 3 tokens: 9 VP. <bdi>{EVIL_ESCAPED}</bdi> and <bdi>Carla</bdi> tie for 2nd "
        "with 1 token: 4 VP shared, 2 each."
    )


@pytest.mark.parametrize(
    ("workers", "english", "french"),
    [
        pytest.param(
            [3, 1],
            "The Automa wins the tie-break with 3 active workers, ahead of Alice (1).",
            "L’Automa l’emporte au départage avec 3\u00a0ouvriers actifs, devant Alice (1).",
            id="the-automa-first",
        ),
        pytest.param(
            [1, 3],
            "Alice wins the tie-break with 3 active workers, ahead of the Automa (1).",
            "Alice l’emporte au départage avec 3\u00a0ouvriers actifs, devant l’Automa (1).",
            id="the-automa-behind",
        ),
    ],
)
def test_the_automa_is_named_as_the_edition_names_it(workers, english, french):
    """Not a name anyone typed: the game's word, with its article, capitalised where it starts a
    sentence; its sectors' sentences too ("The Automa leads", « L’Automa est 2e »)."""
    result = score_game([], [PlayerSheet(entries={"farm_income": 80}, active_workers=w) for w in workers])
    sector = score_sector(0, Sector(9, 4), [2, 1])

    assert _words_of(tie_sentence(result.ties[0], [AUTOMA, "Alice"])) == english
    assert _words_of(sector_sentence(sector, [AUTOMA, "Alice"])) == (
        "The Automa leads with 2 tokens: 9 VP. Alice is 2nd with 1 token: 4 VP."
    )
    with translation.override("fr"):
        assert _words_of(tie_sentence(result.ties[0], [AUTOMA, "Alice"])) == french
        assert _words_of(sector_sentence(score_sector(0, Sector(9, 4), [2, 1]), ["Alice", AUTOMA])).endswith(
            "L’Automa est 2e avec 1\u00a0pion\u202f: 4\u00a0PV."
        )


def test_a_tie_sentence_isolates_each_name_too():
    result = score_game([], [PlayerSheet(entries={"farm_income": 80}, active_workers=w) for w in (1, 3)])

    assert tie_sentence(result.ties[0], [OVERRIDE, "Bruno"]) == (
        f"<bdi>Bruno</bdi> wins the tie-break with 3 active workers, ahead of <bdi>{OVERRIDE}</bdi> (1)."
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
