"""The pages a French table reads most, at 360 px (issue 28): the pad, the results, *Which player
are you?*, the statistics and the history. No label is laid over more lines than it needs (over
two lines at all, or over two where one line of its row would hold it), and nothing is wrapped
mid-number: a figure, its sign and its unit ("−7 PV", "1re : 10 PV", "50 %") stay on one line.

The game is the issue's own: five players with long names, a comb of two sectors (one with a
2nd-place award of its own), a three-way tie broken by active workers, a carving that cost VP and a
change by Dominique-Alexandre to the faction's endgame ability."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.actors import Actor
from scoring.models import Game, Seat
from scoring.services.sharing import link_renew
from tests.browser.pad_helpers import SMALL_PHONE, host, no_sideways_scroll, sign_in
from tests.support.factories import game_scored, player, save_value

pytestmark = pytest.mark.browser

FIVE = ["Dominique-Alexandre", "Emmanuelle", "Bo", "Marie-Charlotte", "Zoé"]

# Each label of a page: how many lines it takes, and whether it would hold on one line of its row
# (the width it would have on a line to itself). A label's lines are counted from its text's
# own boxes; its one-line width is a copy of it laid without wrapping, beside it. (The pad's and
# the results' heading is no label: the game's date is its second line when the links beside it
# leave no room.)
LABELS = """(selector) => Array.from(document.querySelectorAll(selector)).filter((el) => el.getClientRects().length)
  .map((el) => {
    const lines = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent.trim() || !node.parentElement.checkVisibility()) continue;  // (a closed details' help)
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const box of range.getClientRects()) {
        if (box.width < 0.5) continue;
        const middle = (box.top + box.bottom) / 2;
        const line = lines.find((seen) => middle >= seen.top && middle <= seen.bottom);
        if (line) { line.top = Math.min(line.top, box.top); line.bottom = Math.max(line.bottom, box.bottom); }
        else lines.push({top: box.top, bottom: box.bottom});
      }
    }
    // The line the label could have: a table cell's or a grid cell's own (the table or the grid
    // sets it), a flex item's or an inline element's block (the flex container's, the paragraph's).
    const inline = (node) => ["inline", "contents"].includes(getComputedStyle(node).display);
    const flexItem = ["flex", "inline-flex"].includes(getComputedStyle(el.parentElement).display);
    let block = el;
    if (inline(el) || flexItem) {
      block = el.parentElement;
      while (inline(block)) block = block.parentElement;
    }
    const style = getComputedStyle(block);
    const room = block.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const copy = el.cloneNode(true);
    copy.style.cssText = "position: absolute; visibility: hidden; white-space: nowrap; width: auto; max-width: none;";
    block.appendChild(copy);
    const oneLine = copy.getBoundingClientRect().width;
    copy.remove();
    return {text: el.innerText.replace(/\\s+/g, " ").trim(), lines: lines.length, oneLine: Math.ceil(oneLine),
            room: Math.floor(room)};
  })"""

# Every figure of the page's text with its sign and unit: each one line's boxes only.
FIGURES = r"""() => {
  const space = "[\u00a0\u202f ]";
  const figure = new RegExp(`[−-]?\\d+(?:[.,]\\d+)?(?:${space}(?:PV|VP|%|h${space}\\d\\d))?`
    + `|\\d+(?:re|er|e)${space}?:${space}\\d+${space}PV`, "g");
  const split = [];
  let checked = 0;
  const walker = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest("script, style, svg, .visually-hidden, [hidden], input, textarea")) continue;
    for (const match of node.textContent.matchAll(figure)) {
      checked += 1;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set(Array.from(range.getClientRects()).filter((box) => box.width > 0.5)
        .map((box) => Math.round(box.top)));
      if (tops.size > 1) split.push(match[0]);
    }
  }
  return {checked, split};
}"""


def label_problems(page, selector: str) -> list[str]:
    """The labels of ``selector`` over two lines, or over two where one line of their row holds them."""
    problems = []
    for label in page.evaluate(LABELS, selector):
        if label["lines"] > 2 or (label["lines"] == 2 and label["oneLine"] <= label["room"]):
            problems.append(f"{label['text']!r}: {label['lines']} lines ({label['oneLine']} px in {label['room']} px)")
    return problems


def read(page, selectors: list[str]) -> None:
    """The page's labels and figures, as the module says they read."""
    no_sideways_scroll(page)
    problems = [problem for selector in selectors for problem in label_problems(page, selector)]
    assert problems == [], f"{page.url}:\n" + "\n".join(problems)
    figures = page.evaluate(FIGURES)
    assert figures["checked"] and figures["split"] == [], f"figures wrapped mid-number on {page.url}"


def test_the_rules_find_a_label_squeezed_over_more_lines_than_it_needs_and_a_figure_parted(browser):
    page = browser.new_context(**SMALL_PHONE).new_page()
    page.set_content("""<main><ul style="width: 300px; padding: 0"><li class="change" style="display: flex; gap: 8px">
      <span class="what" style="flex: 1 1 4rem">Capacité de faction, Dominique : 4 → 8</span>
      <span class="when" style="flex: 0 0 5rem">à l’instant, par Hana</span></li></ul>
      <table style="width: 300px; table-layout: fixed"><tr><th class="full">Bonus des planètes pour les ouvriers de
      force 4 sur l’action Exploration</th><td>1</td><td>2</td><td>3</td><td>4</td><td>5</td></tr></table>
      <p style="width: 1px">Total 10 PV, 50 %, −7 PV; 12\u00a0PV, 21\u202fh\u202f14</p></main>""")

    found = label_problems(page, ".what, .when, .full")
    assert [problem.split("': ")[0] for problem in found] == [
        "'Capacité de faction, Dominique : 4 → 8",
        "'à l’instant, par Hana",
        "'Bonus des planètes pour les ouvriers de force 4 sur l’action Exploration",
    ], found
    assert page.evaluate(FIGURES)["split"] == ["10 PV", "50 %", "−7 PV"]  # (not "12 PV" nor "21 h 14": no-break spaces)


@pytest.fixture
def the_issues_game(db):
    """The issue's table, in play (its pad) and the same finished (its results, the statistics):
    Marie-Charlotte wins with 54 VP; Dominique-Alexandre, Emmanuelle and Bo tie on 41 VP, broken by
    their active workers, 3, 2 and 1."""
    owner = host()
    players = [
        player(
            "Dominique-Alexandre",
            workers=3,
            starting_vp=1,
            farm_income=30,
            farms=4,
            carvings=-7,
            faction_ability=4,
            tokens=[3, 0],
        ),
        player("Emmanuelle", workers=2, starting_vp=2, farm_income=19, queens_favor=6, tokens=[1, 2]),
        player("Bo", workers=1, starting_vp=3, farm_income=17, frames_filled=1, hive_mat_full=True, tokens=[0, 1]),
        player("Marie-Charlotte", workers=0, starting_vp=4, farm_income=50, tokens=[0, 0]),
        player("Zoé", workers=0, starting_vp=5, farm_income=10, recruits=3, tokens=[0, 0]),
    ]
    game = game_scored(*players, sectors=[(9, 4), (10, 5)], owner=owner)
    seat = Seat.objects.get(game=game, number=1)
    save_value(seat=seat, key="faction_ability", value=8, by=Actor(user=owner))
    finished = game_scored(*players, sectors=[(9, 4), (10, 5)], owner=owner, finished=True)
    return Game.objects.get(pk=game.pk), finished


def french_phone(browser, live_server, signed_in: bool = True):
    context = browser.new_context(**SMALL_PHONE, locale="fr-FR")
    if signed_in:
        sign_in(context, live_server.url)
    return context.new_page()


def test_the_pad_in_french_at_360_px(browser, live_server, the_issues_game):
    game, _finished = the_issues_game
    page = french_phone(browser, live_server)
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    date = page.locator("h1 small")
    assert re.fullmatch(r"\w+\.\u00a0\d+(er)?\u00a0\w+\.?\u00a0\d{4}", date.text_content()), date.text_content()
    assert date.evaluate("(element) => element.getClientRects().length") == 1, "the date is one unit, on one line"
    page.locator("#changes-box summary").click()
    expect(page.locator(".change-what").first).to_have_text("Capacité de faction, Dominique-Alexandre\u202f: 4 → 8")
    expect(page.locator(".change-when").first).to_contain_text("à l’instant, par")
    expect(page.locator("#sector-1 .row-label small")).to_have_text("1re\u202f: 10\u00a0PV · 2e\u202f: 5\u00a0PV")

    read(
        page,
        [
            ".row-help > summary",
            ".row-label .sector-name",
            ".row-tokens .row-label small",
            ".empty-mark",
            ".change-what",
            ".change-when",
            ".ranking-list li",
            ".pad-links a",
            ".pad-views a",
            "h2",
            ".actions .button",
        ],
    )


def test_the_results_in_french_at_360_px(browser, live_server, the_issues_game):
    _game, finished = the_issues_game
    page = french_phone(browser, live_server)
    page.goto(f"{live_server.url}/games/{finished.public_id}/results/")
    expect(page.locator(".tie").first).to_contain_text(
        re.compile(r"prend la 2e place au départage avec 3\souvriers actifs, devant Emmanuelle \(2\) et Bo \(1\)\.")
    )
    explore = page.locator(".breakdown details").filter(has_text="Force 4 sur Exploration")
    explore.locator("summary").click()
    expect(explore.locator(".help")).to_have_text(
        "Bonus des planètes pour les ouvriers de force 4 sur l’action Exploration"
    )  # (the full words, a tap away)
    explore.locator("summary").click()

    read(
        page,
        [
            ".breakdown tbody th summary",
            ".breakdown tbody th:not(:has(details))",
            ".ranking-list li",
            ".winner-line",
            ".bar-name",
            ".legend-item",
            "h2",
            ".actions .button",
            ".pad-links a",
        ],
    )


def test_which_player_are_you_in_french_at_360_px(browser, live_server, the_issues_game):
    game, _finished = the_issues_game
    link = link_renew(game=game, access="edit")
    page = french_phone(browser, live_server, signed_in=False)
    page.goto(f"{live_server.url}/join/{link.token}/")
    expect(page.locator("h1")).to_have_text("Quel joueur êtes-vous\u202f?")
    expect(page.locator(".hint").first).to_contain_text(re.compile(r"^La partie jouée le \w+\.\s\d+"))

    read(page, ["h1", ".who-choice .button"])


def test_the_statistics_and_the_history_in_french_at_360_px(browser, live_server, the_issues_game):
    page = french_phone(browser, live_server)
    page.goto(f"{live_server.url}/statistics/")
    expect(page.locator("h1")).to_have_text("Statistiques")
    read(page, [".stats th summary", ".stats th:not(:has(details))", ".stats td", "h1", "h2", ".big-figure"])

    page.goto(f"{live_server.url}/")
    expect(page.locator(".history-game")).to_have_count(2)
    read(page, [".history-date", ".history-player", ".actions .button", "h1", "h2"])
