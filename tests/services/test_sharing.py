"""Specification of share links (``scoring/services/sharing.py``), called directly: a link made
anew replaces the live one, revoking stops it at once, and the games a browser joined through
links come with the account it makes or signs in to (``links_join``)."""

from __future__ import annotations

import pytest

from scoring.models import GameLink, GameMember
from scoring.services.sharing import link_renew, link_revoke, links_join
from tests.support.factories import game_started, user

pytestmark = pytest.mark.django_db


def test_a_new_link_replaces_the_live_one_of_its_access_and_revoking_stops_it():
    game = game_started("Ann", "Ben")
    first = link_renew(game=game, access="edit")
    view = link_renew(game=game, access="view")

    second = link_renew(game=game, access="edit")
    link_revoke(game=game, access="view")

    live = set(GameLink.objects.filter(game=game, revoked_at__isnull=True))
    assert live == {second} and first.token != second.token and view not in live


def test_an_account_joins_the_games_of_the_live_links_its_browser_opened_once():
    vera = user("vera")
    theirs, revoked, own = game_started("Ann"), game_started("Ben"), game_started("Vera", owner=vera)
    links = [link_renew(game=game, access="edit").pk for game in (theirs, revoked, own)]
    link_revoke(game=revoked, access="edit")

    assert links_join(user=vera, links=links) == 1
    assert links_join(user=vera, links=links) == 0  # (joined already)
    assert [member.game for member in GameMember.objects.filter(user=vera)] == [theirs]
