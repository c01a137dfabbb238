"""Specification of a visitor's games (issue 19, item 3), called directly: a game started without
an account is its browser's (``Game.visitor``, the visitor id its session holds), counts in no
account's players or tallies, and becomes an account's with every other game of that browser when
the browser makes an account or signs in (``services.visitors.visitor_games_claim``).

Signing up and in call the claim (``tests/views/test_visitors.py``); who may reach a visitor's
game, ``tests/test_permissions.py``; the database's own rule (an account's or a visitor's, never
both), ``tests/test_models.py``.
"""

from __future__ import annotations

import pytest

from scoring.actors import Actor
from scoring.models import Change, CombLayout, Game, GameEvent, OwnerTally, Player, PlayerTally, Seat
from scoring.services.finishing import game_finish, game_reopen
from scoring.services.games import PlayerSetup, comb_layout_save, game_start
from scoring.services.sharing import link_renew
from scoring.services.tallies import tallies_rebuild
from scoring.services.visitors import visitor_games_claim
from tests.support.factories import game_scored, game_started, player, save_value, seat_of, user

pytestmark = pytest.mark.django_db

BROWSER = "b" * 32  # the visitor id of the browser that claims
ELSEWHERE = "e" * 32  # another browser's


def tallies() -> dict:
    """Every tally row, by whose (account or player name), scope and key: its measures."""
    found = {}
    for row in OwnerTally.objects.select_related("owner"):
        found["account", row.owner.username, row.scope, row.key] = (row.games, row.seats, row.wins, row.points)
    for row in PlayerTally.objects.select_related("player"):
        found["player", row.player.name, row.scope, row.key] = (row.games, row.seats, row.wins, row.points, row.best)
    return found


def test_a_visitors_game_counts_in_no_accounts_players_or_tallies():
    game = game_scored(player("Maya", farm_income=10), player("Tom", farm_income=4), finished=True, visitor=BROWSER)

    assert (game.owner, game.visitor) == (None, BROWSER)
    assert not Player.objects.exists() and tallies() == {}
    assert Seat.objects.filter(game=game, player__isnull=True, tallied__isnull=True).count() == 2


def test_claiming_gives_the_account_every_game_of_that_browser_and_no_other():
    ann = user("ann")
    mine = [
        game_started("Maya", "Tom", visitor=BROWSER),
        game_scored(player("Maya", farm_income=10), finished=True, visitor=BROWSER),
    ]
    elsewhere = game_started("Zelda", visitor=ELSEWHERE)
    nobodys = game_started("Old", owner=None)
    revisions = {game.pk: game.revision for game in mine}

    assert visitor_games_claim(visitor=BROWSER, user=ann) == 2

    for game in mine:
        game.refresh_from_db()
        assert (game.owner, game.visitor) == (ann, None)
        assert game.revision == revisions[game.pk] + 1  # each game locked: its open pads see it changed
    elsewhere.refresh_from_db()
    nobodys.refresh_from_db()
    assert (elsewhere.owner, elsewhere.visitor) == (None, ELSEWHERE)
    assert (nobodys.owner, nobodys.visitor) == (None, None)


def test_the_seats_join_the_accounts_players_by_name_ignoring_case_and_new_names_make_new_players():
    ann = user("ann")
    game_started("Maya", "Ines", owner=ann)
    maya = Player.objects.get(owner=ann, name="Maya")
    solo = game_start(players=[PlayerSetup("Tom")], solo=True, visitor=BROWSER)
    game = game_started("maya", "Tom", visitor=BROWSER)

    visitor_games_claim(visitor=BROWSER, user=ann)

    tom = Player.objects.get(owner=ann, name="Tom")
    assert [seat.player for seat in game.seats.order_by("number")] == [maya, tom]
    assert [(seat.player.name, seat.player.is_automa) for seat in solo.seats.order_by("number")] == [
        ("Automa", True),
        ("Tom", False),
    ]
    assert sorted(Player.objects.filter(owner=ann).values_list("name", flat=True)) == ["Automa", "Ines", "Maya", "Tom"]


def test_the_finished_games_join_the_accounts_tallies_as_if_they_had_always_been_its_own():
    ann = user("ann")
    game_scored(player("Maya", farm_income=20), player("Ines", farm_income=5), finished=True, owner=ann)
    game_scored(
        player("maya", farm_income=30, faction="Ria"), player("Tom", farm_income=8), finished=True, visitor=BROWSER
    )
    game_scored(player("Tom", farm_income=50), visitor=BROWSER)  # in progress: counts once finished

    visitor_games_claim(visitor=BROWSER, user=ann)

    kept = tallies()
    assert tallies_rebuild(ann) is False  # the same as computing them all again from the seats
    assert kept["account", "ann", "all", ""][:2] == (2, 4)  # two finished games, four seats
    assert kept["player", "Maya", "all", ""] == (2, 2, 2, 50, 30)  # both her wins; her best is the claimed 30
    assert kept["player", "Tom", "all", ""][:2] == (0, 1)


def test_claiming_again_moves_nothing():
    ann = user("ann")
    game_scored(player("Maya", farm_income=30), finished=True, visitor=BROWSER)
    visitor_games_claim(visitor=BROWSER, user=ann)
    before = (tallies(), list(Player.objects.values_list("pk", "name")), list(Game.objects.values_list("revision")))

    assert visitor_games_claim(visitor=BROWSER, user=ann) == 0
    assert visitor_games_claim(visitor=None, user=ann) == 0  # a browser that started nothing

    assert (
        tallies(),
        list(Player.objects.values_list("pk", "name")),
        list(Game.objects.values_list("revision")),
    ) == before


def test_the_browsers_layouts_follow_and_of_two_of_one_name_the_one_saved_last_stays():
    ann = user("ann")
    comb_layout_save(name="Kitchen", sectors=[(9, 4)], owner=ann)
    comb_layout_save(name="Club", sectors=[(5, 2)], visitor=BROWSER)
    comb_layout_save(name="Club", sectors=[(7, 3)], owner=ann)  # the account's is the later one
    comb_layout_save(name="Kitchen", sectors=[(12, 6)], visitor=BROWSER)  # the browser's is
    comb_layout_save(name="Garden", sectors=[(8, 0)], visitor=BROWSER)
    comb_layout_save(name="Elsewhere", sectors=[(1, 0)], visitor=ELSEWHERE)

    visitor_games_claim(visitor=BROWSER, user=ann)

    kept = {
        layout.name: [(s.first_vp, s.second_vp) for s in layout.sectors.order_by("position")]
        for layout in CombLayout.objects.filter(owner=ann)
    }
    assert kept == {"Kitchen": [(12, 6)], "Club": [(7, 3)], "Garden": [(8, 0)]}
    assert not CombLayout.objects.filter(visitor=BROWSER).exists()
    assert CombLayout.objects.filter(visitor=ELSEWHERE).count() == 1


def test_the_browsers_own_changes_become_the_accounts_and_a_link_holders_stay_theirs():
    ann = user("ann")
    game = game_started("Maya", "Tom", visitor=BROWSER)
    edit = link_renew(game=game, access="edit")
    own = save_value(seat=seat_of(game, 1), key="farms", value=4, by=Actor()).change  # the browser, the owner
    theirs = save_value(seat=seat_of(game, 2), key="farms", value=2, by=Actor(link=edit, name="Tom")).change

    visitor_games_claim(visitor=BROWSER, user=ann)

    own, theirs = Change.objects.get(pk=own.pk), Change.objects.get(pk=theirs.pk)
    assert own.by_user == ann
    assert (theirs.by_user, theirs.by_name, theirs.by_link_holder) == (None, "Tom", True)


def test_the_browsers_finishing_and_reopening_become_the_accounts_and_a_link_holders_stay_theirs():
    """Issue 37: a game the browser finished reads "Finished by the owner" once an account has
    claimed it, as the browser's own changes do, never "by someone"."""
    ann = user("ann")
    game = game_started("Maya", "Tom", visitor=BROWSER)
    edit = link_renew(game=game, access="edit")
    game_finish(game=game, by=Actor())  # the browser, the owner
    game_reopen(game=game, by=Actor())
    game_finish(game=game, by=Actor(link=edit, name="Tom"))

    visitor_games_claim(visitor=BROWSER, user=ann)

    events = GameEvent.objects.filter(game=game).order_by("pk")
    assert [(event.what, event.by_user, event.by_name, event.by_link_holder) for event in events] == [
        ("finished", ann, "", False),
        ("reopened", ann, "", False),
        ("finished", None, "Tom", True),
    ]
