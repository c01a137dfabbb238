"""Specification of what the pad says of the game as it stands: the end-of-game hints of the
comb, and the values far from what games record (saved, and marked beside their field on every
phone)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.support.factories import (
    game_scored,
    game_started,
    player,
)
from tests.support.pages import (
    Element,
    entry,
    page,
    save,
    url,
)
from tests.views.pad_cases import QUEENS_999, hints, status_of

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# End-of-game hints on the pad


@pytest.mark.parametrize(
    ("players", "spaces"),
    [
        pytest.param(2, 8, id="2-players-8-spaces"),
        pytest.param(3, 12, id="3-players-12-spaces"),
        pytest.param(4, 15, id="4-players-15-spaces"),
        pytest.param(5, 15, id="5-players-15-spaces"),
    ],
)
def test_pad_says_the_comb_is_full_when_every_space_for_the_player_count_holds_a_token(client, players, spaces):
    names = ["Alice", "Bruno", "Carla", "Dana", "Emil"][:players]
    per_player = [spaces // players + (1 if i < spaces % players else 0) for i in range(players)]
    counts = list(zip(names, per_player, strict=True))
    full = game_scored(*(player(name, tokens=[count, 0, 0]) for name, count in counts))
    almost = game_scored(*(player(name, tokens=[count - (i == 0), 0, 0]) for i, (name, count) in enumerate(counts)))

    assert hints(client, full) == [
        (
            f"The comb is full ({spaces} spaces for {players} players): the end of the game is triggered. "
            "Everyone takes one more turn, then scoring begins."
        )
    ]
    assert hints(client, almost) == []


@pytest.mark.parametrize(
    ("trigger", "placed", "expected"),
    [
        pytest.param(7, 6, [], id="7th-rule-6-placed"),
        pytest.param(
            7,
            7,
            [
                (
                    "Alice has placed their 7th hibernation token: the end of the game is triggered. "
                    "Everyone takes one more turn, then scoring begins."
                )
            ],
            id="7th-rule-7-placed",
        ),
        pytest.param(6, 5, [], id="6th-rule-5-placed"),
        pytest.param(
            6,
            6,
            [
                (
                    "Alice has placed their 6th hibernation token: the end of the game is triggered. "
                    "Everyone takes one more turn, then scoring begins."
                )
            ],
            id="6th-rule-6-placed",
        ),
    ],
)
def test_pad_says_a_players_end_trigger_token_ends_the_game(client, trigger, placed, expected):
    game = game_scored(
        player("Alice", tokens=[placed - 2, 1, 1]),
        player("Bruno", tokens=[1, 0, 0]),
        player("Carla"),
        player("Dana"),
        end_trigger_token=trigger,
    )

    assert hints(client, game) == expected


def test_pad_warns_when_a_player_has_more_than_7_tokens(client):
    game = game_scored(player("Alice", tokens=[4, 4, 0]), player("Bruno"), player("Carla"), player("Dana"))

    assert hints(client, game) == ["Alice has 8 tokens on the comb, but each player owns only 7: check the counts."]


def test_save_of_the_7th_token_sends_the_end_of_game_hint(client):
    game = game_scored(player("Alice", tokens=[3, 3, 0]), player("Bruno"), player("Carla"), player("Dana"))

    html = page(save(client, game, "s1-t2", "1"))

    assert [p.text for p in html.by_id("comb-hints").find_all("p")] == [
        (
            "Alice has placed their 7th hibernation token: the end of the game is triggered. "
            "Everyone takes one more turn, then scoring begins."
        )
    ]
    assert html.by_id("comb-hints")["hx-swap-oob"] == "true"


# ---------------------------------------------------------------------------------------------
# Values far from what games record: saved, and marked beside their field on every phone


def warnings_of(html: Element, key: str) -> list[str]:
    """The sentences under a category's row: its values to check."""
    return [p.text for p in html.by_id(f"warnings-{key}").find_all("p", class_="field-warning")]


def another_phone(owner) -> Client:
    other = Client()
    other.force_login(owner)
    return other


def test_a_value_far_above_its_category_is_saved_and_marked_beside_its_field_in_words(client):
    game = game_started("Alice", "Bruno")

    response = save(client, game, "s2-queens_favor", "999", version=0, page="a", seq=1)

    assert response.status_code == 200
    assert entry(game, 2, "queens_favor") == 999  # saved: only marked, never refused
    html = page(response)
    mark = status_of(response).one(class_="unusual-mark")
    assert mark.one(aria_hidden="true").children == ["check"]  # beside the field; read out in full:
    assert mark.text == "999 is far above what this category usually scores (0 to 25)."
    assert warnings_of(html, "queens_favor") == [QUEENS_999]
    assert html.by_id("warnings-queens_favor")["hx-swap-oob"] == "true"
    assert html.by_id("warning-s2-queens_favor").text == QUEENS_999


def test_a_value_far_from_its_category_is_marked_on_another_phones_page_and_poll(client, owner):
    game = game_started("Alice", "Bruno")
    etag = client.get(url("live", game))["ETag"]
    save(client, game, "s2-queens_favor", "999", version=0, page="a", seq=1)
    other = another_phone(owner)

    pad = page(other.get(url("pad", game)))
    live = page(other.get(url("live", game), headers={"If-None-Match": etag}))

    assert warnings_of(pad, "queens_favor") == [QUEENS_999]
    assert pad.by_id("status-s2-queens_favor").find(class_="unusual-mark") is not None
    assert "status-s2-queens_favor" in pad.by_id("f-s2-queens_favor")["aria-describedby"].split()
    assert warnings_of(live, "queens_favor") == [QUEENS_999]
    assert live.by_id("warnings-queens_favor")["hx-swap-oob"] == "true"
    item = live.by_id("live-values").one("i", data_name="s2-queens_favor")
    assert item.find(class_="unusual-mark") is not None


@pytest.mark.parametrize(
    ("key", "value", "sentence"),
    [
        pytest.param(
            "frames_filled",
            "9",
            "Frames filled, Alice: 9 is far more than usual here (usually 0 to 4).",
            id="9-frames",
        ),
        pytest.param(
            "farm_income",
            "80+5",
            ("Farm income, Alice: 85 is far above what this category usually scores (0 to 40)."),
            id="the-track-typed-into-one-source-as-a-sum",
        ),
        pytest.param(
            "carvings",
            "-20",
            (
                "Conditions on carvings built, Alice: \u221220 is below what this category usually "
                "scores (\u221210 to 50)."
            ),
            id="carvings-far-below-0",
        ),  # (true minus signs)
        pytest.param(
            "starting_vp",
            "0",
            ("Starting VP, Alice: 0 is below what this category usually scores (1 to 5)."),
            id="no-seat-starts-with-0",
        ),
    ],
)
def test_each_kind_of_unusual_value_is_said_in_words(client, key, value, sentence):
    game = game_started("Alice", "Bruno")

    html = page(save(client, game, f"s1-{key}", value))

    assert warnings_of(html, key) == [sentence]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("queens_favor", "25"),
        ("frames_filled", "4"),
        ("carvings", "-10"),
        ("starting_vp", "5"),
        ("farm_income", ""),
    ],
)
def test_a_value_within_what_games_record_is_not_marked(client, key, value):
    game = game_started("Alice", "Bruno")

    response = save(client, game, f"s1-{key}", value)

    assert warnings_of(page(response), key) == []
    assert status_of(response).find(class_="unusual-mark") is None
    assert page(client.get(url("pad", game))).find(class_="field-warning") is None


def test_a_marked_value_corrected_on_one_phone_is_no_longer_marked_on_another(client, owner):
    game = game_started("Alice", "Bruno")
    save(client, game, "s2-queens_favor", "999")
    etag = client.get(url("live", game))["ETag"]
    save(client, game, "s2-queens_favor", "9")

    live = page(another_phone(owner).get(url("live", game), headers={"If-None-Match": etag}))

    assert warnings_of(live, "queens_favor") == []
    assert live.by_id("live-values").one("i", data_name="s2-queens_favor").find(class_="unusual-mark") is None


def test_the_one_player_view_marks_only_that_players_values(client):
    game = game_scored(player("Alice", queens_favor=999), player("Bruno", queens_favor=500))

    html = page(client.get(url("pad", game) + "?player=2"))

    assert warnings_of(html, "queens_favor") == [QUEENS_999.replace("999", "500")]


def test_more_tokens_than_the_combs_spaces_are_marked_to_check(client):
    """18 tokens on the 15 spaces of a 4-player comb: saved, and said to check (not only "full")."""
    game = game_scored(
        player("Alice", tokens=[5, 0, 0]),
        player("Bruno", tokens=[0, 5, 0]),
        player("Carla", tokens=[0, 0, 4]),
        player("Dana", tokens=[2, 1, 1]),
    )

    assert hints(client, game) == [
        "18 tokens are on the comb, but it has only 15 spaces for 4 players: check the counts."
    ]
