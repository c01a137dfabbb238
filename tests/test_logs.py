"""The request log (apiary_site/logs.py): a refusal is one line, and a share link's token is
never written down."""

from __future__ import annotations

import logging

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services
from tests.factories import game_started

pytestmark = pytest.mark.django_db


def test_a_view_link_holders_refused_save_is_one_line_without_a_traceback(caplog, owner):
    game = game_started("Ann", "Bob", owner=owner)
    link = services.link_renew(game=game, access="view")
    mate = Client()
    mate.get(reverse("scoring:join", args=[link.token]))

    with caplog.at_level(logging.WARNING, logger="django.request"):
        refused = mate.post(reverse("scoring:save", args=[game.public_id]),
                            {"field": "s1-farms", "value": "3", "version": "0"})

    assert refused.status_code == 403
    [record] = [record for record in caplog.records if record.name == "django.request"]
    assert record.exc_info is None and "Traceback" not in caplog.text
    assert "\n" not in record.getMessage()


def test_a_share_links_token_is_never_written_in_the_log(caplog, owner):
    game = game_started("Ann", owner=owner)
    link = services.link_renew(game=game, access="edit")
    services.link_revoke(game=game, access="edit")  # the link opened after it was revoked: a 404

    with caplog.at_level(logging.WARNING, logger="django.request"):
        gone = Client().get(reverse("scoring:join", args=[link.token]))
        unknown = Client().get("/join/a-token-that-never-was/")

    assert gone.status_code == unknown.status_code == 404
    assert caplog.records and link.token not in caplog.text and "a-token-that-never-was" not in caplog.text
    assert "/join/…" in caplog.text
