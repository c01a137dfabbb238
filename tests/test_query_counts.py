"""How many SQL statements the table's requests cost (counts can be asserted; times never are).

Every figure is the same for 1 and for 5 players and for a few or many stored games: nothing on
the pad's path reads a statement per player, per field or per game. The statements counted leave
out BEGIN/COMMIT and the session and account look-ups that every signed-in request makes."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services
from tests.factories import game_started

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve")

# What a save costs today (docs/performance.md explains each statement): the rate limit's
# count, the game, the field's seat, the lock, the write, the game's seats, sectors and tokens
# for its new outcome, the outcome, the revision, the change, then the figures it answers with.
FIELD_SAVE_STATEMENTS = 18
STEP_STATEMENTS = 20


def counted(queries) -> list[str]:
    return [query["sql"] for query in queries.captured_queries
            if query["sql"].split(" ", 1)[0] not in ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")
            and '"django_session"' not in query["sql"] and 'FROM "auth_user"' not in query["sql"]]


def statements(client, game, data) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("scoring:save", args=[game.public_id]), data, headers=HTMX)
    assert response.status_code == 200, response.content
    return counted(queries)


@pytest.mark.parametrize("players", [1, 5])
def test_a_field_save_costs_the_same_for_one_or_five_players(owner_client, owner, players):
    game = game_started(*NAMES[:players], owner=owner)
    statements(owner_client, game, {"field": "s1-farm_income", "value": "1", "page": "p", "seq": "1"})  # warm
    found = statements(owner_client, game, {"field": "s1-farm_income", "value": "3+4", "page": "p", "seq": "2"})
    assert len(found) == FIELD_SAVE_STATEMENTS, found


@pytest.mark.parametrize("players", [1, 5])
def test_a_comb_step_costs_the_same_for_one_or_five_players(owner_client, owner, players):
    game = game_started(*NAMES[:players], owner=owner)
    statements(owner_client, game, {"field": "s1-t0", "step": "1", "page": "p", "seq": "1"})
    found = statements(owner_client, game, {"field": "s1-t0", "step": "1", "page": "p", "seq": "2"})
    assert len(found) == STEP_STATEMENTS, found


def test_a_save_costs_the_same_with_many_games_stored(owner_client, owner):
    game = game_started(*NAMES[:4], owner=owner)
    statements(owner_client, game, {"field": "s2-recruits", "value": "1", "page": "p", "seq": "1"})
    few = statements(owner_client, game, {"field": "s2-recruits", "value": "2", "page": "p", "seq": "2"})
    for _ in range(30):
        services.game_finish(game=game_started(*NAMES[:3], owner=owner))
    many = statements(owner_client, game, {"field": "s2-recruits", "value": "3", "page": "p", "seq": "3"})
    assert len(many) == len(few)


@pytest.mark.parametrize("players", [1, 5])
def test_the_pad_page_costs_the_same_for_one_or_five_players(owner_client, owner, players):
    game = game_started(*NAMES[:players], owner=owner)
    owner_client.get(reverse("scoring:pad", args=[game.public_id]))
    with CaptureQueriesContext(connection) as queries:
        assert owner_client.get(reverse("scoring:pad", args=[game.public_id])).status_code == 200
    assert len(counted(queries)) == 6, counted(queries)  # the game, its sectors, seats, tokens, links, changes


def test_a_poll_that_finds_nothing_new_is_one_query_and_no_body(owner_client, owner):
    game = game_started("Ann", "Bob", owner=owner)
    etag = owner_client.get(reverse("scoring:live", args=[game.public_id]))["ETag"]
    with CaptureQueriesContext(connection) as queries:
        response = owner_client.get(reverse("scoring:live", args=[game.public_id]), headers={"If-None-Match": etag})
    assert response.status_code == 304 and response.content == b""
    assert len(counted(queries)) == 1  # the game's revision (besides the session and the account)
