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
from tests.factories import game_started, save_value

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve")

# What a save costs (docs/performance.md explains each statement): the rate limit's count; the
# game claimed (its revision one up, its lock, its row for the access); its seats, with its comb
# (the sectors and their tokens as one text); the seats written (the field and every outcome that
# changed, at once); the change recorded. A comb step writes the tokens' row too; a page that
# shows its recent changes (``changes=1``) reads them for the answer.
FIELD_SAVE_STATEMENTS = 5
STEP_STATEMENTS = 6
WRITE_STATEMENTS = 4  # of which the write itself: claim, seats with the comb, seats written, change


def counted(queries) -> list[str]:
    return [query["sql"] for query in queries.captured_queries
            if query["sql"].split(None, 1)[0] not in ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")
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


def test_a_page_showing_its_recent_changes_reads_them_in_one_more_statement(owner_client, owner):
    game = game_started(*NAMES[:3], owner=owner)
    statements(owner_client, game, {"field": "s1-farms", "value": "1", "page": "p", "seq": "1"})
    found = statements(owner_client, game, {"field": "s1-farms", "value": "2", "page": "p", "seq": "2", "changes": "1"})
    assert len(found) == FIELD_SAVE_STATEMENTS + 1 and '"scoring_change"' in found[-1]


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
    assert len(counted(queries)) == 4, counted(queries)  # the game, its seats with the comb, links, changes


def test_a_poll_that_finds_nothing_new_is_one_query_and_no_body(owner_client, owner):
    game = game_started("Ann", "Bob", owner=owner)
    etag = owner_client.get(reverse("scoring:live", args=[game.public_id]))["ETag"]
    with CaptureQueriesContext(connection) as queries:
        response = owner_client.get(reverse("scoring:live", args=[game.public_id]), headers={"If-None-Match": etag})
    assert response.status_code == 304 and response.content == b""
    assert len(counted(queries)) == 1  # the game's revision (besides the session and the account)


@pytest.mark.parametrize("players", [1, 5])
def test_a_poll_that_finds_something_new_reads_the_game_and_its_seats_with_the_comb(owner_client, owner, players):
    game = game_started(*NAMES[:players], owner=owner)
    etag = owner_client.get(reverse("scoring:live", args=[game.public_id]))["ETag"]
    save_value(seat=game.seats.get(number=1), key="farms", value=3)  # another phone's save
    with CaptureQueriesContext(connection) as queries:
        response = owner_client.get(reverse("scoring:live", args=[game.public_id]), headers={"If-None-Match": etag})
    assert response.status_code == 200
    assert len(counted(queries)) == 2, counted(queries)  # the game's row, its seats with the comb


def test_phones_polling_one_revision_share_one_rendering(owner_client, owner, client):
    """After a save, every phone of the table polls the new revision: the first poll in a worker
    renders the answer, the others at that revision read only the game's row. The answer is the
    same for each, but never shared across languages or one-player views, nor once the game moved
    on."""
    game = game_started(*NAMES[:4], owner=owner)
    url = reverse("scoring:live", args=[game.public_id])
    first = owner_client.get(url)
    with CaptureQueriesContext(connection) as queries:
        again = owner_client.get(url)
    assert len(counted(queries)) == 1 and again.content == first.content
    assert again["ETag"] == first["ETag"] and again["X-Pad-Revision"] == first["X-Pad-Revision"]

    french = owner_client.get(url, headers={"Accept-Language": "fr"})
    one_player = owner_client.get(url + "?player=2")
    assert french.content != first.content and "Classement".encode() in french.content
    assert one_player.content != first.content

    save_value(seat=game.seats.get(number=1), key="farms", value=3)
    with CaptureQueriesContext(connection) as queries:
        moved_on = owner_client.get(url)
    assert len(counted(queries)) == 2 and moved_on.content != first.content


def test_the_write_itself_is_four_statements(owner_client, owner):
    """Besides the rate limit's count (in the same transaction): the game claimed, its seats with
    its comb, the seats written, the change."""
    game = game_started(*NAMES[:4], owner=owner)
    statements(owner_client, game, {"field": "s3-farms", "value": "1", "page": "p", "seq": "1"})
    with CaptureQueriesContext(connection) as queries:
        owner_client.post(reverse("scoring:save", args=[game.public_id]),
                          {"field": "s3-farms", "value": "2", "page": "p", "seq": "2"}, headers=HTMX)
    found = counted(queries)
    assert '"scoring_ratecounter"' in found[0]
    write = found[1:]
    assert len(write) == WRITE_STATEMENTS, write
    assert write[0].startswith("UPDATE") and "revision = revision + 1" in write[0]
    assert write[1].startswith("SELECT") and '"scoring_seat"' in write[1] and '"scoring_hibernationtokens"' in write[1]
    assert write[-1].startswith("INSERT") and '"scoring_change"' in write[-1]


def test_a_poll_sent_back_a_compressed_answers_weak_tag_is_still_304(owner_client, owner):
    game = game_started("Ann", owner=owner)
    first = owner_client.get(reverse("scoring:live", args=[game.public_id]), HTTP_ACCEPT_ENCODING="gzip")
    assert first["ETag"].startswith('W/"rev-')  # compression weakens the tag on the way
    again = owner_client.get(reverse("scoring:live", args=[game.public_id]), HTTP_ACCEPT_ENCODING="gzip",
                             headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304 and again.content == b""


def test_a_save_sends_no_cookie_back(owner_client, owner):
    """The answer's forms take the CSRF token from the page (the script sends it), so a save does
    not renew the CSRF cookie: no Set-Cookie on the phone's every save."""
    game = game_started("Ann", "Bob", owner=owner)
    save_value(seat=game.seats.get(number=1), key="farms", value=1)  # a change to undo: a form
    response = owner_client.post(reverse("scoring:save", args=[game.public_id]),
                                 {"field": "s2-farms", "value": "2", "page": "p", "seq": "1", "changes": "1"},
                                 headers=HTMX)
    assert response.status_code == 200 and "Undo" in response.content.decode()
    assert not response.cookies
