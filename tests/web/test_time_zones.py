"""Specification of the phone's own time zone (``scoring/web/time_zones.py``): the zone its
browser names in the ``tz`` cookie is the one the pages write times in; an unknown or forged one
leaves the site's (``settings.TIME_ZONE``)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from scoring.models import Game
from scoring.services.finishing import game_finish
from scoring.web.time_zones import TIME_ZONE_COOKIE, known_zone
from tests.support.factories import game_started
from tests.support.pages import page, url

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("name", "known"),
    [
        ("Europe/Paris", True),
        ("America/Argentina/Buenos_Aires", True),
        ("UTC", True),
        ("Mars/Olympus_Mons", False),
        ("../../etc/passwd", False),
        ("/etc/localtime", False),
        ("", False),
        ("Europe/" + "x" * 100, False),
    ],
)
def test_only_a_zone_of_the_time_zone_database_is_taken(name, known):
    assert (known_zone(name) is not None) is known


def finished_note(phone: Client, game: Game, zone: str | None) -> str:
    if zone is not None:
        phone.cookies[TIME_ZONE_COOKIE] = zone
    return page(phone.get(url("pad", game))).by_id("finished-note").text


@pytest.mark.parametrize(
    ("zone", "shown"),
    [
        ("Europe%2FParis", "12:49"),  # (as the head script writes it: its "/" encoded)
        ("America/New_York", "06:49"),
        ("Nowhere/Else", "11:49"),  # (an unknown zone: the site's, UTC in the tests)
        (None, "11:49"),
    ],
)
def test_the_finished_note_is_written_in_the_phones_own_time_zone(owner_client, zone, shown, settings):
    settings.TIME_ZONE = "UTC"
    game = game_started("Ann", "Ben")
    game_finish(game=game)
    at = timezone.now().replace(hour=11, minute=49, second=0, microsecond=0, month=12, day=5, year=2026)
    Game.objects.filter(pk=game.pk).update(finished_at=at)

    assert f" at {shown}." in finished_note(owner_client, game, zone)
