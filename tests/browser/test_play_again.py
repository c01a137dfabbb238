"""The end of a game as a table lives it (issue 26), in a real browser on a small phone (360 x 780
CSS px): the results' first screen holds the winner, the ranking, *Log this play in BG Stats* and
*Play again*, in English and French, light and dark, with nothing for axe-core to find; and *Play
again* takes the table to the next game, the same players moved on one seat, the same comb and
way of counting, with *Score together* in the new pad's first screen, with JavaScript and without;
and the table's other phones follow it with one tap each (issue 36).
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from scoring.models import Game, Seat
from scoring.rules.categories import During
from scoring.services.sharing import link_renew
from tests.browser.pad_helpers import (
    ANOTHER_PHONE_TIMEOUT_MS,
    SMALL_PHONE,
    axe_violations,
    expect_saved,
    field,
    host,
    no_sideways_scroll,
    pad_ready,
    shoot,
    sign_in,
)
from tests.support.factories import game_scored, player

pytestmark = pytest.mark.browser

COMB = [(9, 4), (13, 0), (6, 3)]


def a_finished_game(names=("Alice", "Bruno", "Carla"), *, during: During = During.BREAKDOWN) -> Game:
    """A finished game of the host's: Alice wins, Bruno and Carla tie on VP (a tie-break sentence
    under the ranking), each with a faction."""
    factions = ["Saha", "Capen", "Iber", "Nica", "Ana"]
    players = [
        player(
            name,
            faction=factions[position],
            workers=1 + position % 3,
            farm_income=30 - 5 * min(position, 1),
            tokens=[1 if position == 0 else 0, 0, 0],
        )
        for position, name in enumerate(names)
    ]
    return game_scored(*players, sectors=COMB, finished=True, during=during, end_trigger_token=7, owner=host())


@pytest.fixture
def small_phone(browser, live_server):
    """The host's small phone, in a language and a colour scheme, with or without JavaScript."""

    def open_(locale: str = "en-GB", color_scheme: str = "light", javascript: bool = True) -> Page:
        context = browser.new_context(
            **SMALL_PHONE, locale=locale, color_scheme=color_scheme, java_script_enabled=javascript
        )
        sign_in(context, live_server.url)
        return context.new_page()

    return open_


FIVE_LONG_NAMES = (
    "Alexandrine-Marguerite",
    "Bartholomew Fitzgerald",
    "Cunégonde de la Roche",
    "Dimitrios Papadakis",
    "Evangeline Whitmore",
)


@pytest.mark.parametrize(
    ("locale", "color_scheme", "log", "again", "wins"),
    # (each language once, each scheme once: the words set what fits the first screen, the scheme
    # only the colours axe-core checks, the same elements in either language)
    [
        pytest.param("en-GB", "light", "Log this play in BG Stats", "Play again", "wins", id="english-light"),
        pytest.param("fr-FR", "dark", "Enregistrer cette partie dans BG Stats", "Rejouer", "gagne", id="french-dark"),
    ],
)
def test_the_results_first_screen_holds_the_winner_the_ranking_and_what_to_do_next(
    small_phone, live_server, screenshots, locale, color_scheme, log, again, wins
):
    game = a_finished_game(FIVE_LONG_NAMES)  # the longest ranking: five players, long names, a tie-break
    page = small_phone(locale, color_scheme)

    page.goto(f"{live_server.url}/games/{game.public_id}/results/")

    first_screen = [
        page.get_by_role("heading", level=2, name=re.compile(rf"{wins}$")),
        *[page.locator(".ranking-list li").nth(position) for position in range(5)],
        page.locator(".tie").first,
        page.get_by_role("link", name=log, exact=True),
        page.get_by_role("link", name=again, exact=True),
    ]
    for element in first_screen:
        expect(element).to_be_in_viewport(ratio=1)  # whole, without scrolling
    assert page.evaluate("window.scrollY") == 0
    expect(page.locator("#chart-heading")).to_be_attached()  # the chart, breakdown and comb follow below
    no_sideways_scroll(page)
    shoot(page, screenshots, f"results-first-screen-{locale}-{color_scheme}")
    assert axe_violations(page, f"results {locale} {color_scheme}") == []


@pytest.mark.parametrize("javascript", [True, False], ids=["javascript", "no-javascript"])
def test_play_again_starts_the_next_game_with_the_same_table_moved_on_one_seat(small_phone, live_server, javascript):
    game = a_finished_game(during=During.TRACK)
    page = small_phone(javascript=javascript)
    page.goto(f"{live_server.url}/games/{game.public_id}/results/")

    page.get_by_role("link", name="Play again", exact=True).click()

    # The start form, filled in: Bruno first, Alice (first last time) last, factions cleared, the same comb
    # and way of counting.
    expect(page.get_by_role("heading", level=1)).to_have_text("Play again")
    expect(page.locator("#play-again-note")).to_contain_text(
        "Everyone moves up one seat: Bruno plays first this time, and Alice, who played first, plays last."
    )
    for number, name in enumerate(["Bruno", "Carla", "Alice", "", ""], start=1):
        expect(page.get_by_label(f"Player {number} name", exact=True)).to_have_value(name)
        expect(page.get_by_label(f"Player {number} faction", exact=True)).to_have_value("")
    for number, (first, second) in enumerate(COMB, start=1):
        expect(page.get_by_label(f"Sector {number}, 1st place VP", exact=True)).to_have_value(str(first))
        expect(page.get_by_label(f"Sector {number}, 2nd place VP", exact=True)).to_have_value(str(second))
    expect(page.get_by_role("radio", name="VP track")).to_be_checked()
    expect(page.get_by_role("radio", name=re.compile(r"7th hibernation token"))).to_be_checked()
    if javascript:  # (axe-core runs in the page: not on a phone without JavaScript)
        assert axe_violations(page, "play again's start form") == []
    page.get_by_label("Player 2 name", exact=True).fill("Carlotta")  # a name changed before starting

    page.get_by_role("button", name="Start scoring").click()

    expect(page).to_have_url(re.compile(r"/games/[\w-]+/$"))
    upcoming = Game.objects.get(public_id=re.search(r"/games/([\w-]+)/$", page.url).group(1))
    assert upcoming.pk != game.pk and upcoming.owner == host() and not upcoming.is_finished
    assert [(s.number, s.name, s.faction) for s in Seat.objects.filter(game=upcoming).order_by("number")] == [
        (1, "Bruno", ""),
        (2, "Carlotta", ""),
        (3, "Alice", ""),
    ]
    assert [(s.first_vp, s.second_vp) for s in upcoming.sectors.order_by("position")] == COMB
    assert (upcoming.during, upcoming.end_trigger_token) == (During.TRACK, 7)
    # The new game's link is one tap away: Score together, in the new pad's first screen.
    expect(page.get_by_role("button", name="Score together")).to_be_in_viewport(ratio=1)


def join_as(page: Page, base: str, link, name: str | None) -> None:
    """A table-mate's phone opens the link and, for an edit link, says which player it is."""
    page.goto(base + reverse("scoring:join", args=[link.token]))
    if name is not None:
        page.get_by_role("button", name=name, exact=True).click()
    pad_ready(page)


def test_play_again_takes_the_whole_table_to_the_next_game_one_tap_each(page: Page, open_phone, live_server):
    """The table of issue 49: four players, four phones and two tablets on one game. The owner's
    phone; Bruno's and Dana's (the edit link, each on their own sheet); Carla's in French, gone to
    the results; a tablet upright and one on its side (the view link, on the table view). The owner
    plays again; within one poll every other screen is offered the next game where it is (the
    results heard of it only after a reload) and, with one tap each, the players score it in their
    new seats and both tablets show its standings."""
    game = a_finished_game(("Alice", "Bruno", "Carla", "Dana"))
    base = live_server.url
    edit = link_renew(game=game, access="edit")
    view = link_renew(game=game, access="view")
    bruno, dana = open_phone(signed_in=False), open_phone(signed_in=False)
    carla = open_phone(signed_in=False, locale="fr-FR")  # (a table of two languages: each phone its own)
    upright = open_phone(signed_in=False, viewport={"width": 820, "height": 1180})
    lying = open_phone(signed_in=False, viewport={"width": 1180, "height": 820})
    tablets = (upright, lying)
    join_as(bruno, base, edit, "Bruno")
    join_as(carla, base, edit, "Carla")
    join_as(dana, base, edit, "Dana")
    for tablet in tablets:
        join_as(tablet, base, view, None)
        tablet.get_by_role("link", name="Table view").click()
    carla.locator("#finished-note").get_by_role("link", name="Voir les résultats").click()
    expect(carla).to_have_url(f"{base}/games/{game.public_id}/results/")
    follow = dict.fromkeys((bruno, dana, *tablets), "Go to the next game") | {carla: "Aller à la partie suivante"}
    expect(bruno.locator("#finished-note")).to_be_visible()
    for waiting in follow:
        expect(waiting.get_by_role("button", name=follow[waiting])).to_have_count(0)

    page.goto(f"{base}/games/{game.public_id}/results/")
    page.get_by_role("link", name="Play again", exact=True).click()
    expect(page.locator("#play-again-note")).to_contain_text("The phones that hold this game’s links are offered")
    page.get_by_role("button", name="Start scoring").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+/$"))
    upcoming = Game.objects.get(played_after=game)
    # Score together on the new pad (its links carried over): the codes come in the first screen,
    # where the host tapped (issue 49: the page jumped to the bottom), one at a time, each named.
    page.get_by_role("link", name="Score together").click()
    shown = page.locator(".share-link[open]")
    expect(shown).to_have_count(1)
    expect(shown.get_by_role("img", name="QR code of the edit link")).to_be_in_viewport(ratio=1)
    page.locator(".share-link").nth(1).locator("summary").click()
    expect(page.locator(".share-link[open]").get_by_role("img", name="QR code of the view link")).to_be_visible()
    expect(page.locator(".share-link[open]")).to_have_count(1)

    # Bruno (seat 2 last time) plays first now; Carla (seat 3) second, Dana third; Alice last.
    for phone, name, seat in ((bruno, "Bruno", 1), (carla, "Carla", 2), (dana, "Dana", 3)):
        button = phone.get_by_role("button", name=follow[phone])
        expect(button).to_be_visible(timeout=ANOTHER_PHONE_TIMEOUT_MS)
        button.click()
        expect(phone).to_have_url(f"{base}/games/{upcoming.public_id}/?player={seat}")
        pad_ready(phone)
        expect(phone.locator("nav.pad-views [aria-current=page]")).to_have_text(name)
    for tablet in tablets:
        tablet.get_by_role("button", name=follow[tablet]).click(timeout=ANOTHER_PHONE_TIMEOUT_MS)
        expect(tablet).to_have_url(f"{base}/games/{upcoming.public_id}/table/")
        expect(tablet.locator(".standing-name")).to_have_text(["Bruno", "Carla", "Dana", "Alice"])

    field(bruno, "farm_income", "Bruno").fill("30")
    carla.get_by_role("textbox", name="Revenus des Fermes, Carla", exact=True).fill("35")
    field(dana, "farm_income", "Dana").fill("32")
    expect_saved(bruno, "s1-farm_income")
    expect(carla.locator("#status-s2-farm_income")).to_contain_text("Enregistré")
    expect_saved(dana, "s3-farm_income")
    for tablet in tablets:
        expect(tablet.locator(".standing-name")).to_have_text(
            ["Carla", "Dana", "Bruno", "Alice"], timeout=ANOTHER_PHONE_TIMEOUT_MS
        )
        expect(tablet.locator(".standing-list")).to_be_in_viewport(ratio=1)  # (the whole table, no scrolling)
    assert [
        (seat.number, seat.name, seat.farm_income) for seat in Seat.objects.filter(game=upcoming).order_by("number")
    ] == [(1, "Bruno", 30), (2, "Carla", 35), (3, "Dana", 32), (4, "Alice", None)]
    assert axe_violations(bruno, "the next game, followed") == []
