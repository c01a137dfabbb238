"""What every page of the games has in common, through Django's test client: an address of no
game is a 404 on every one, pages that show scores are never cached, names are text and never
markup, the security headers and scripts, and HEAD answered as GET.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoring.actors import Actor
from scoring.models import Game, Player
from scoring.services.finishing import game_finish
from scoring.services.sharing import link_renew
from tests.support.factories import game_scored, game_started, player, save_value, seat_of
from tests.support.pages import (
    EVIL,
    HTMX,
    OVERRIDE,
    WITH_AND_WITHOUT_HTMX,
    Element,
    evil_game,
    markup_only_as_text,
    page,
    save,
    shared_victory_game,
    unused_game_id,
    url,
)

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# Addresses of no game, and caching


@WITH_AND_WITHOUT_HTMX
@pytest.mark.parametrize("name", ["pad", "save", "live", "results", "finish", "during", "delete", "export"])
def test_an_unknown_game_is_404_on_every_address(client, headers, name):
    missing = unused_game_id()
    post_only = name in ("save", "finish")

    response = (client.post if post_only else client.get)(url(name, missing), headers=headers)

    # (a page's poll is told to stop: htmx's 286; the pad's and the results')
    polled = name in ("live", "results") and headers.get("HX-Request")
    assert response.status_code == (286 if polled else 404)


@WITH_AND_WITHOUT_HTMX
@pytest.mark.parametrize("name", ["pad", "results", "history", "players", "live"])
def test_pages_that_show_scores_are_never_kept_in_a_cache(client, headers, name):
    """A phone going back to a pad must not show the scores of an hour ago."""
    game = game_scored(player("Alice", farm_income=3), player("Bruno"), finished=True)

    response = client.get(url(name, game if name in ("pad", "results", "live") else None), headers=headers)

    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]


# ---------------------------------------------------------------------------------------------
# Names are text, never markup


@pytest.mark.parametrize("address", ["history", "players", "start", "pad", "results", "delete", "live"])
def test_a_players_name_is_escaped_on_every_page(client, address):
    game = evil_game(finished=True)
    game_started(EVIL, "Dana")  # a known name for the start form's suggestions
    needs_game = address in ("pad", "results", "delete", "live")

    response = client.get(url(address, game if needs_game else None), headers=HTMX if address == "live" else {})

    assert response.status_code == 200
    markup_only_as_text(response)


# ---------------------------------------------------------------------------------------------
# Names are isolated: whatever a name holds, it never reorders the words around it (issue 27)


def game_of_a_name_that_reorders_text() -> Game:
    """A finished game whose first player (and faction), and the edit link's holder who changed a
    value and finished the game, are named with a right-to-left override, as names were stored
    before the forms and the game file refused it (``scoring/rules/names.py``): a shared victory, a tie
    on VP and a shared comb sector, so that the name is in every kind of sentence."""
    game = game_scored(
        player(OVERRIDE, farm_income=20, workers=2, tokens=[2, 0, 0], faction=OVERRIDE),
        player("Bruno", farm_income=20, workers=2, tokens=[2, 0, 0]),
        player("Carla", farm_income=5, workers=4, tokens=[0, 1, 0]),
    )
    holder = Actor(link=link_renew(game=game, access="edit"), name=OVERRIDE)
    save_value(seat=seat_of(game, 3), key="farms", value=3, by=holder)
    game_finish(game=Game.objects.get(pk=game.pk), by=holder)
    return game


def outside_a_bdi(html: Element) -> list[str]:
    """Each text of the page that holds the name and is not, whole, the one text of a <bdi>
    (the places that hold text only aside: the title, an option, a text area, an attribute)."""
    found = []
    for element in html.iter():
        if element.tag in ("title", "option", "textarea"):
            continue
        for child in element.children:
            if (
                isinstance(child, str)
                and "aivilO" in child
                and not (element.tag == "bdi" and element.children == [OVERRIDE])
            ):
                found.append(f"{element!r}: {child!r}")
    return found


GAME_PAGES = ("pad", "results", "table", "delete", "again")


@pytest.mark.parametrize("address", [*GAME_PAGES, "changes", "who", "history", "players", "player", "statistics"])
def test_a_name_is_shown_in_its_own_bdi_on_every_page(client, address):
    game = game_of_a_name_that_reorders_text()
    person = Player.objects.get(name=OVERRIDE)
    holder = Client()
    holder.get(reverse("scoring:join", args=[game.links.get().token]))
    response = {
        "changes": lambda: client.get(url("live", game) + "?changes=1", headers=HTMX),
        "who": lambda: holder.get(url("who", game)),  # (which player are you?)
        "player": lambda: client.get(reverse("scoring:player", args=[person.pk])),
        "statistics": lambda: client.get(reverse("scoring:statistics")),
    }.get(address, lambda: client.get(url(address, game if address in GAME_PAGES else None)))()

    assert response.status_code == 200
    html = page(response)
    assert any(element.tag == "bdi" and element.children == [OVERRIDE] for element in html.iter())  # (it is shown)
    assert outside_a_bdi(html) == []


def test_a_link_holders_mark_stays_outside_their_name_however_it_reads(client):
    """A link holder named "\u202eaivilO" reads "Olivia": the "(edit link)" after the name stays
    after it ("by Olivia (edit link)", never "by (knil tide) Olivia")."""
    game = game_of_a_name_that_reorders_text()

    html = page(client.get(url("pad", game)))

    by = [when for when in html.by_id("changes").find_all(class_="change-when") if "aivilO" in when.text]
    assert [(when.one("bdi").children, when.children[-1]) for when in by] == [([OVERRIDE], " (edit link)")] * 2
    sentence = html.by_id("finished-note").one("span", **{"data-finished-sentence": True})
    before, name, after = sentence.children[:3]
    assert (before, name.tag, name.children, after.startswith(" (edit link) at ")) == (
        "Finished by ",
        "bdi",
        [OVERRIDE],
        True,
    )


def test_a_refusal_the_pads_script_shows_as_text_isolates_the_name_with_unicodes_isolates(client):
    """The text the pad's script shows in its banner (a save that reaches a finished game)."""
    game = game_of_a_name_that_reorders_text()

    refused = save(client, game, "s1-farms", "4", version=0, page="a", seq=1)

    assert refused.status_code == 409 and refused["Content-Type"].startswith("text/plain")
    assert refused.content.decode().startswith(f"Finished by \u2068{OVERRIDE}\u2069 (edit link) at ")


# ---------------------------------------------------------------------------------------------
# Security headers and scripts


def every_page() -> list[str]:
    game = shared_victory_game()
    return [url("history"), url("players"), url("start"), url("pad", game), url("results", game), url("delete", game)]


def test_every_page_has_a_content_security_policy_without_inline_script(client):
    for address in every_page():
        response = client.get(address)
        assert response.status_code == 200, address
        policy = {
            directive.split()[0]: directive.split()[1:]
            for directive in response["Content-Security-Policy"].split(";")
            if directive.strip()
        }
        assert "'unsafe-inline'" not in policy["script-src"], address
        assert "'unsafe-eval'" not in policy["script-src"], address
        assert policy["default-src"] == ["'self'"], address
        assert policy["frame-ancestors"] == ["'none'"], address
        assert response["X-Content-Type-Options"] == "nosniff"


def test_every_page_links_the_web_app_manifest_which_its_policy_allows(client):
    """The manifest makes the app installable from whichever page a phone is on (scoring/views/install.py)."""
    anonymous = Client()
    for address, phone in [
        *((address, client) for address in every_page()),
        (reverse("login"), anonymous),
        (reverse("signup"), anonymous),
        (url("history"), anonymous),
    ]:
        response = phone.get(address)
        # (its address names the page's language: a browser fetches a manifest without cookies)
        assert page(response).one("link", rel="manifest")["href"] == reverse("manifest") + "?lang=en", address
        assert "manifest-src 'self'" in response["Content-Security-Policy"], address


def test_every_page_loads_its_scripts_from_our_static_files_only(client):
    """Modules, each page loading those it uses: offline.js on every page, the pad's on the pad, the
    start form's on the start form; htmx only on the pages that use it (the pad, and the start form
    when it offers saved layouts to fill the comb from): a phone loads its 15 KB for no other page.
    Nothing else runs inline but the head's one line and, on the pad, its one classic script
    (first-paint.js, which puts the kept values back before the first paint, written into the page
    so that no request holds that paint), each by the page's nonce."""
    for address in every_page():
        response = client.get(address)
        assert response.status_code == 200, address
        html = page(response)
        scripts = html.find_all("script")
        sources = [script["src"] for script in scripts if script.get("src")]
        is_pad = html.find(data_pad=True) is not None
        uses_htmx = any(name.startswith("hx-") for element in html.iter() for name in element.attrs)
        classic = [script["src"] for script in scripts if script.get("src", "").startswith("/static/scoring/")]
        classic = [src for src in classic if html.find("script", src=src).get("type") != "module"]
        assert classic == [], address
        assert "/static/scoring/offline.js" in sources, address
        assert ("/static/scoring/pad.js" in sources) == is_pad, address
        assert ("/static/scoring/start-form.js" in sources) == (html.find(id="add-sector") is not None), address
        assert ("/static/django_htmx/htmx-2.min.js" in sources) == uses_htmx, address
        assert all(src.startswith("/static/") for src in sources), (address, sources)
        assert not re.search(r"https?://", " ".join(sources)), address
        # Inline, only data, and the head's script that says the page will be enhanced (templates/base.html),
        # allowed by the nonce the page's policy names.
        inline = [script for script in scripts if not script.get("src") and script.get("type") != "application/json"]
        assert [script.parent.tag for script in inline][:1] == ["head"], (address, inline)
        assert [script.get("data-script") for script in inline[1:]] == (["scoring/first-paint.js"] if is_pad else []), (
            address
        )
        assert all("".join(script.children).strip() for script in inline), address
        assert {script["nonce"] for script in inline} == {inline[0]["nonce"]}, address
        assert f"'nonce-{inline[0]['nonce']}'" in response["Content-Security-Policy"], address
    assert finders.find("django_htmx/htmx-2.min.js") is not None


def test_no_page_uses_inline_event_handlers_or_style_attributes(client):
    """The policy forbids them (script-src and style-src without 'unsafe-inline'): they would not run."""
    for address in every_page():
        response = client.get(address)
        assert response.status_code == 200, address
        for element in page(response).iter():
            assert "style" not in element.attrs, (address, element)
            assert not [name for name in element.attrs if name.startswith("on")], (address, element)


# ---------------------------------------------------------------------------------------------
# HEAD


def every_address(patterns=None, prefix: str = "", **values: str) -> list[str]:
    """Every address of the site, each of its parts filled from ``values`` (by the part's name)."""
    found = []
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            found += every_address(pattern.url_patterns, route, **values)
        elif isinstance(pattern, URLPattern):
            found.append("/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda part: str(values[part[1]]), route))
    return found


def test_every_address_answers_head_as_it_answers_get(client, owner):
    """A link checker, a chat app's preview or a monitor asks HEAD: the status and headers of GET
    (a page, a redirect, a 405 for an address that takes only POST), never a body. (Django's test
    client drops a HEAD answer's body itself: tests/site/test_health.py checks that the site sends
    none, whatever server runs it.)"""
    game = shared_victory_game()
    change = save_value(seat=seat_of(game, 1), key="farm_income", value=21).change
    link = link_renew(game=game, access="view")
    addresses = every_address(
        game_id=game.public_id,
        player_id=Player.objects.filter(owner=owner).first().pk,
        change_id=change.pk,
        kind="view",
        action="new",
        token=link.token,
        uidb64="MQ",
        path="scoring/app.css",
    )
    assert len(addresses) >= 30 and url("pad", game) in addresses

    for address in addresses:
        head = client.head(address)
        get = client.get(address)
        assert head.status_code == get.status_code, address
        assert head.get("Location") == get.get("Location"), address
        assert head.get("Content-Type") == get.get("Content-Type"), address
        assert head.get("Content-Length") == get.get("Content-Length"), address  # what GET sends
        assert head.content == b"", address
