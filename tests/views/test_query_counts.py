"""How many SQL statements the table's requests cost (counts can be asserted; times never are).

Every figure is the same for 1 and for 5 players and for a few or many stored games: nothing on
the pad's path reads a statement per player, per field or per game. The statements counted leave
out BEGIN/COMMIT and the session and account look-ups that every signed-in request makes."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring.models import Game
from scoring.services.finishing import game_finish
from tests.support.factories import game_started, save_value

pytestmark = pytest.mark.django_db
SCRIPT = {"Accept": "text/plain, text/html;q=0.9"}  # what the pad's script sends (no HX-Request)
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve")

# The budget: a save (a value typed, or a stepper's tap) costs at most 8 statements, the same for
# 1 or 5 players and for 10 or 100,000 stored games. What a save costs now (docs/performance.md):
#   1. the rate limit's count (INSERT ... ON CONFLICT on scoring_ratecounter);
#   2. the access's read of the game's row (by its public id);
#   3. the lock: the game's revision moved on (UPDATE scoring_game, ``locking.game_lock``);
#   4. the seats, each with the game's row (``selectors.games.game_state``);
#   5. the comb as rows: the sectors LEFT JOIN the tokens placed there;
#   6. the seats written: the field and every outcome that changed, at once (one UPDATE);
#   7. the change recorded (INSERT scoring_change).
# A comb step (or a token count typed) writes the tokens' row too, before the seats (INSERT the
# first time, UPDATE after, DELETE when cleared). A page that shows its recent changes
# (``changes=1``) reads them for the answer: two more, the changes and the game's finishing and
# reopening among them (``selectors.changes.recent_changes``).
SAVE_BUDGET = 8
FIELD_SAVE_STATEMENTS = 7
STEP_STATEMENTS = 8


def counted(queries) -> list[str]:
    return [
        query["sql"].strip()
        for query in queries.captured_queries
        if query["sql"].split(None, 1)[0] not in ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")
        and '"django_session"' not in query["sql"]
        and 'FROM "auth_user"' not in query["sql"]
    ]


def statements(client, game, data) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("scoring:save", args=[game.public_id]), data, headers=SCRIPT)
    assert response.status_code == 200, response.content
    return counted(queries)


def assert_a_save(found: list[str], *, tokens: str = "") -> None:
    """The statements of one save, in their order (``tokens``: the tokens' row written, how)."""
    expected = [
        ("INSERT", '"scoring_ratecounter"'),
        ("SELECT", 'FROM "scoring_game"'),
        ("UPDATE", '"scoring_game" SET "revision" = ("scoring_game"."revision" + 1)'),
        ("SELECT", 'FROM "scoring_seat" INNER JOIN "scoring_game"'),
        ("SELECT", 'FROM "scoring_gamesector" LEFT OUTER JOIN "scoring_hibernationtokens"'),
        *([(tokens, '"scoring_hibernationtokens"')] if tokens else []),
        ("UPDATE", '"scoring_seat"'),
        ("INSERT", '"scoring_change"'),
    ]
    assert len(found) == len(expected), found
    for sql, (verb, words) in zip(found, expected, strict=True):
        assert sql.startswith(verb) and words in sql, (verb, words, sql)


@pytest.mark.parametrize("players", [1, 5])
def test_a_field_save_costs_the_same_for_one_or_five_players(owner_client, owner, players):
    game = game_started(*NAMES[:players], owner=owner)
    statements(
        owner_client, game, {"field": "s1-farm_income", "value": "1", "version": "0", "page": "p", "seq": "1"}
    )  # warm
    found = statements(
        owner_client, game, {"field": "s1-farm_income", "value": "3+4", "version": "1", "page": "p", "seq": "2"}
    )
    assert len(found) == FIELD_SAVE_STATEMENTS <= SAVE_BUDGET, found
    assert_a_save(found)


@pytest.mark.parametrize("players", [1, 5])
def test_a_comb_step_costs_the_same_for_one_or_five_players(owner_client, owner, players):
    game = game_started(*NAMES[:players], owner=owner)
    first = statements(owner_client, game, {"field": "s1-t0", "step": "1", "version": "0", "page": "p", "seq": "1"})
    found = statements(owner_client, game, {"field": "s1-t0", "step": "1", "version": "1", "page": "p", "seq": "2"})
    assert len(first) == len(found) == STEP_STATEMENTS <= SAVE_BUDGET, found
    assert_a_save(first, tokens="INSERT")  # the sector's first token: its row made
    assert_a_save(found, tokens="UPDATE")


def test_a_page_showing_its_recent_changes_reads_them_in_two_more_statements(owner_client, owner):
    game = game_started(*NAMES[:3], owner=owner)
    statements(owner_client, game, {"field": "s1-farms", "value": "1", "version": "0", "page": "p", "seq": "1"})
    found = statements(
        owner_client, game, {"field": "s1-farms", "value": "2", "version": "1", "page": "p", "seq": "2", "changes": "1"}
    )
    assert len(found) == FIELD_SAVE_STATEMENTS + 2, found
    assert '"scoring_change"' in found[-2] and '"scoring_gameevent"' in found[-1]
    assert_a_save(found[:-2])


def test_a_save_costs_the_same_with_10_or_100000_games_stored(owner_client, owner):
    game = game_started(*NAMES[:5], owner=owner)
    for _ in range(9):
        game_finish(game=game_started(*NAMES[:3], owner=owner))
    assert Game.objects.count() == 10

    def both(seq: int) -> tuple[list[str], list[str]]:
        save = statements(
            owner_client,
            game,
            {"field": "s2-recruits", "value": str(seq), "version": str(seq - 1), "page": "p", "seq": str(seq)},
        )
        step = statements(
            owner_client, game, {"field": "s2-t1", "step": "1", "version": str(seq - 1), "page": "p", "seq": str(seq)}
        )
        return save, step

    both(1)  # warm (the step's first token row made)
    few = both(2)
    games_add(owner, 99_990)
    assert Game.objects.count() == 100_000
    many = both(3)
    assert [len(found) for found in few] == [len(found) for found in many] == [FIELD_SAVE_STATEMENTS, STEP_STATEMENTS]


def games_add(owner, count: int) -> None:
    """``count`` more finished games of the owner, their rows only (one statement: no statement of
    a save reads another game's seats)."""
    now = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %s) "
            "INSERT INTO scoring_game (public_id, owner_id, played_on, notes, end_trigger_token, during_mode,"
            " created_at,"
            " revision, finished_at) SELECT 'stored-' || i, %s, %s, '', 7, 'breakdown', %s, 0, %s FROM n",
            [count, owner.pk, now.date(), now, now],
        )


@pytest.mark.parametrize("players", [1, 5])
def test_the_pad_page_costs_the_same_for_one_or_five_players(owner_client, owner, players):
    game = game_started(*NAMES[:players], owner=owner)
    owner_client.get(reverse("scoring:pad", args=[game.public_id]))
    with CaptureQueriesContext(connection) as queries:
        assert owner_client.get(reverse("scoring:pad", args=[game.public_id])).status_code == 200
    found = counted(queries)
    # the game (access), its seats with the game, the comb's rows, its share links, its recent
    # changes, and its finishing and reopening (shown among them)
    assert len(found) == 6, found


def test_a_poll_that_finds_nothing_new_is_one_query_and_no_body(owner_client, owner):
    game = game_started("Ann", "Bob", owner=owner)
    etag = owner_client.get(reverse("scoring:live", args=[game.public_id]))["ETag"]
    with CaptureQueriesContext(connection) as queries:
        response = owner_client.get(reverse("scoring:live", args=[game.public_id]), headers={"If-None-Match": etag})
    assert response.status_code == 304 and response.content == b""
    assert len(counted(queries)) == 1  # the game's row (its revision: the ETag), besides the session and the account


@pytest.mark.parametrize("players", [1, 5])
def test_a_poll_that_finds_something_new_reads_the_game_and_its_seats_with_the_comb(owner_client, owner, players):
    game = game_started(*NAMES[:players], owner=owner)
    etag = owner_client.get(reverse("scoring:live", args=[game.public_id]))["ETag"]
    save_value(seat=game.seats.get(number=1), key="farms", value=3)  # another phone's save
    with CaptureQueriesContext(connection) as queries:
        response = owner_client.get(reverse("scoring:live", args=[game.public_id]), headers={"If-None-Match": etag})
    assert response.status_code == 200 and response["ETag"] != etag
    found = counted(queries)
    assert len(found) == 3, found  # the game's row (access and ETag), its seats with the game, the comb's rows
    assert '"scoring_gamesector"' in found[2] and '"scoring_hibernationtokens"' in found[2]


def test_the_tables_other_phones_polling_the_same_revision_read_the_games_row_alone(owner_client, owner):
    """The four phones of a table ask for the same revision: its answer is made for the first to
    ask, and the others get it as it was made (the game's row read, for the access and the ETag)."""
    game = game_started("Ann", "Bob", owner=owner)
    etag = owner_client.get(reverse("scoring:live", args=[game.public_id]))["ETag"]
    save_value(seat=game.seats.get(number=1), key="farms", value=3)
    first = owner_client.get(reverse("scoring:live", args=[game.public_id]), headers={"If-None-Match": etag})
    other = Client()
    other.force_login(owner)  # another phone of the table
    with CaptureQueriesContext(connection) as queries:
        response = other.get(reverse("scoring:live", args=[game.public_id]), headers={"If-None-Match": etag})
    assert response.status_code == 200 and response.content == first.content
    assert len(counted(queries)) == 1, counted(queries)
    assert response["ETag"] == first["ETag"] and response["X-Pad-Revision"] == first["X-Pad-Revision"] == "1"


def test_a_poll_sent_back_a_compressed_answers_weak_tag_is_still_304(owner_client, owner):
    game = game_started("Ann", owner=owner)
    first = owner_client.get(reverse("scoring:live", args=[game.public_id]), HTTP_ACCEPT_ENCODING="gzip")
    assert first["ETag"].startswith('W/"rev-')  # compression weakens the tag on the way
    again = owner_client.get(
        reverse("scoring:live", args=[game.public_id]),
        HTTP_ACCEPT_ENCODING="gzip",
        headers={"If-None-Match": first["ETag"]},
    )
    assert again.status_code == 304 and again.content == b""


def test_a_save_sends_no_cookie_back(owner_client, owner):
    """The answer's forms take the CSRF token from the page (the script sends it), so a save does
    not renew the CSRF cookie: no Set-Cookie on the phone's every save."""
    game = game_started("Ann", "Bob", owner=owner)
    save_value(seat=game.seats.get(number=1), key="farms", value=1)  # a change to undo: a form
    response = owner_client.post(
        reverse("scoring:save", args=[game.public_id]),
        {"field": "s2-farms", "value": "2", "version": "0", "page": "p", "seq": "1", "changes": "1"},
        headers=SCRIPT,
    )
    assert response.status_code == 200 and "Undo" in response.content.decode()
    assert not response.cookies
