"""Pages and htmx answers go minified (the templates' layout left out), then compressed to a phone
that accepts gzip, except a page that shows a secret beside what others typed (BREACH): the
owner's pad with its share links."""

from __future__ import annotations

import gzip
import re

import pytest
from django.urls import reverse

from scoring.services.sharing import link_renew
from tests.support.factories import game_started

pytestmark = pytest.mark.django_db
GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


def test_the_pad_and_a_save_go_compressed(owner_client, owner):
    game = game_started("Ann", "Bob", owner=owner)
    pad = owner_client.get(reverse("scoring:pad", args=[game.public_id]), **GZIP)
    assert pad["Content-Encoding"] == "gzip" and "Accept-Encoding" in pad["Vary"]
    assert b"</html>" in gzip.decompress(pad.content)
    save = owner_client.post(
        reverse("scoring:save", args=[game.public_id]),
        {"field": "s1-farm_income", "value": "12", "version": "0", "page": "p", "seq": "1"},
        headers={"Accept": "text/plain, text/html;q=0.9"},
        **GZIP,
    )  # as the pad's script
    assert save.status_code == 200 and save["Content-Encoding"] == "gzip"
    assert len(save.content) < 2048  # the answer as sent


def test_pages_and_htmx_answers_go_without_the_templates_layout(owner_client, owner):
    """The templates are laid out one element a line for people; a phone receives the markup
    minified (django-minify-html), every closing tag kept."""
    game = game_started("Ann", "Bob", owner=owner)
    pad = owner_client.get(reverse("scoring:pad", args=[game.public_id]))
    live = owner_client.get(reverse("scoring:live", args=[game.public_id]), headers={"HX-Request": "true"})

    for answer in (pad, live):
        assert answer.status_code == 200
        assert b"\n " not in answer.content and b"  " not in answer.content  # (no indentation, no runs of spaces)
    assert len(re.findall(rb"<li[ >]", pad.content)) == pad.content.count(b"</li>") > 0


def test_the_owners_pad_with_share_links_goes_uncompressed(owner_client, owner):
    game = game_started("Ann", "Bob", owner=owner)
    link = link_renew(game=game, access="edit")
    pad = owner_client.get(reverse("scoring:pad", args=[game.public_id]) + "?shared=1", **GZIP)  # (its links open)
    assert not pad.has_header("Content-Encoding")
    assert link.token in pad.content.decode()


def test_a_phone_that_does_not_accept_gzip_gets_it_plain(owner_client, owner):
    game = game_started("Ann", owner=owner)
    assert not owner_client.get(reverse("scoring:pad", args=[game.public_id])).has_header("Content-Encoding")
