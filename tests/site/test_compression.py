"""Pages and htmx answers go minified (the templates' layout left out), then compressed to a phone
that accepts gzip, except a page that shows a secret beside what others typed (BREACH): the
owner's pad with its share links."""

from __future__ import annotations

import gzip
import re

import brotli
import pytest
from django.urls import reverse

from scoring.services.sharing import link_renew
from tests.support.factories import game_started

pytestmark = pytest.mark.django_db
BROTLI = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br, zstd"}  # (a browser over HTTPS)


def test_the_pad_and_a_save_go_compressed_with_brotli_to_a_phone_that_accepts_it(owner_client, owner):
    """A browser asks for Brotli over HTTPS: about a fifth fewer bytes than gzip (issue 51)."""
    game = game_started("Ann", "Bob", owner=owner)
    pad = owner_client.get(reverse("scoring:pad", args=[game.public_id]), **BROTLI)
    assert pad["Content-Encoding"] == "br" and "Accept-Encoding" in pad["Vary"]
    page = brotli.decompress(pad.content)
    assert b"</html>" in page and int(pad["Content-Length"]) == len(pad.content)
    assert len(pad.content) < 0.9 * len(gzip.compress(page))
    save = owner_client.post(
        reverse("scoring:save", args=[game.public_id]),
        {"field": "s1-farm_income", "value": "12", "version": "0", "page": "p", "seq": "1"},
        headers={"Accept": "text/plain, text/html;q=0.9"},
        **BROTLI,
    )  # as the pad's script
    assert save.status_code == 200 and save["Content-Encoding"] == "br" and save["ETag"].startswith('W/"')
    assert len(save.content) < 2048  # the answer as sent


def test_a_phone_on_plain_http_gets_gzip(owner_client, owner):
    """Over a home network's plain HTTP a browser asks for gzip and deflate only."""
    game = game_started("Ann", "Bob", owner=owner)
    pad = owner_client.get(reverse("scoring:pad", args=[game.public_id]), HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert pad["Content-Encoding"] == "gzip" and "Accept-Encoding" in pad["Vary"]
    assert b"</html>" in gzip.decompress(pad.content)


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
    pad = owner_client.get(reverse("scoring:pad", args=[game.public_id]) + "?shared=1", **BROTLI)  # (its links open)
    assert not pad.has_header("Content-Encoding")
    assert link.token in pad.content.decode()


def test_a_phone_that_does_not_accept_gzip_gets_it_plain(owner_client, owner):
    game = game_started("Ann", owner=owner)
    assert not owner_client.get(reverse("scoring:pad", args=[game.public_id])).has_header("Content-Encoding")
