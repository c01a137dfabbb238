"""Real-browser journeys on a phone (Pixel 7): start a game, score it, mistype, and check that
the pages fit the screen (losing the connection is in test_table.py).

The expected figures are worked out here from what the test types, with the rules of the
game (VP per farm, per frame, for a filled hive mat, the comb majorities), never read back
from the application.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Seat
from scoring.rules.categories import During, categories_of
from tests.browser.pad_helpers import (
    banner,
    error,
    expect_saved,
    field,
    make_game,
    no_sideways_scroll,
    plus,
    refused_save,
    shoot,
    start_game,
    status,
    total,
)

pytestmark = pytest.mark.browser

BRUNO_WINS_THE_TIE_BREAK = "Bruno wins the tie-break with 3 active workers, ahead of Alice (2)."

# -- The rules, as the test knows them --------------------------------------------------------

DURING_KEYS = (
    "starting_vp",
    "explore_tokens",
    "farm_income",
    "comb_pods",
    "hive_build_bonuses",
    "advance_strength4",
    "explore_strength4",
    "tile_abilities",
    "seed_card_benefits",
)
END_KEYS = (
    "planted_seed_cards",
    "farms",
    "recruits",
    "developments",
    "carvings",
    "queens_favor",
    "hive_mat_full",
    "frames_filled",
    "faction_ability",
)
VP_EACH = {"farms": 1, "frames_filled": 8, "hive_mat_full": 8}  # 1 VP per farm, 8 per frame, 8 for a full mat


def vp(key: str, value: int | bool) -> int:
    return int(value) * VP_EACH.get(key, 1)


def comb_majorities(sectors: list[tuple[int, int]], tokens: list[dict[str, int]], names: list[str]) -> dict[str, int]:
    """Each player's comb majority VP, by the rulebook: the most tokens take the 1st-place VP
    and the next most the 2nd-place VP (shared, rounded down, when tied); players tied for
    the most share 1st + 2nd and nobody scores 2nd."""
    award = dict.fromkeys(names, 0)
    for (first, second), counts in zip(sectors, tokens, strict=True):
        present = {name: count for name, count in counts.items() if count > 0}
        if not present:
            continue
        most = max(present.values())
        leaders = [name for name, count in present.items() if count == most]
        if len(leaders) > 1:
            for name in leaders:
                award[name] += (first + second) // len(leaders)
            continue
        award[leaders[0]] += first
        rest = {name: count for name, count in present.items() if count < most}
        if rest and second:
            next_most = max(rest.values())
            seconds = [name for name, count in rest.items() if count == next_most]
            for name in seconds:
                award[name] += second // len(seconds)
    return award


def eval_plain_sum(text: str) -> int:
    """The value of what was typed: a whole number or a sum such as 3+6+2 (the test's own reading)."""
    return sum(int(term) for term in re.findall(r"[+-]?\d+", text))


class Sheet:
    """What the test has typed so far for every player, and the figures that follow from it."""

    def __init__(self, names: list[str], sectors: list[tuple[int, int]]):
        self.names = names
        self.sectors = sectors
        self.values: dict[str, dict[str, int | bool]] = {name: {} for name in names}
        self.tokens: list[dict[str, int]] = [dict.fromkeys(names, 0) for _sector in sectors]
        self.workers = dict.fromkeys(names, 0)

    def during(self, name: str) -> int:
        return sum(vp(key, self.values[name].get(key, 0)) for key in DURING_KEYS)

    def majority(self, name: str) -> int:
        return comb_majorities(self.sectors, self.tokens, self.names)[name]

    def end(self, name: str) -> int:
        return sum(vp(key, self.values[name].get(key, 0)) for key in END_KEYS) + self.majority(name)

    def total(self, name: str) -> int:
        return self.during(name) + self.end(name)

    def ranking(self) -> list[str]:
        """Most VP first; equal VP: most active workers first; then seat order. Before anything is
        typed, nobody is ranked: seat order."""
        if not self.typed():
            return list(self.names)
        return sorted(self.names, key=lambda n: (-self.total(n), -self.workers[n], self.names.index(n)))

    def typed(self) -> bool:
        """Whether a value was typed (the starting VP are the game's own)."""
        entries = any(key != "starting_vp" for values in self.values.values() for key in values)
        return entries or any(any(tokens.values()) for tokens in self.tokens) or any(self.workers.values())


# -- The pages, as a player finds them ----------------------------------------------------------


def expect_figures(page: Page, sheet: Sheet) -> None:
    """The subtotals, totals and ranking of the pad agree with what was typed."""
    for name in sheet.names:
        expect(page.get_by_label(f"During the game, {name}", exact=True)).to_have_text(str(sheet.during(name)))
        expect(page.get_by_label(f"Comb majorities, {name}", exact=True)).to_have_text(str(sheet.majority(name)))
        expect(page.get_by_label(f"End of the game, {name}", exact=True)).to_have_text(str(sheet.end(name)))
        expect(page.get_by_label(f"Total, {name}", exact=True)).to_have_text(str(sheet.total(name)))
    expect(page.locator("#ranking .rank-name")).to_have_text(sheet.ranking())


# -- Journey 1: a whole game --------------------------------------------------------------------

PLAYERS = ["Alice", "Bruno", "Carla"]
COMB = [(9, 4), (8, 5)]

# What each player types into the plain VP fields (a sum, a negative carving, everything).
TYPED = {
    "Alice": {
        "starting_vp": "1",
        "explore_tokens": "3+6+2",
        "farm_income": "7",
        "comb_pods": "4",
        "hive_build_bonuses": "5",
        "advance_strength4": "2",
        "explore_strength4": "3",
        "tile_abilities": "6",
        "seed_card_benefits": "4",
        "planted_seed_cards": "12",
        "recruits": "6",
        "developments": "9",
        "carvings": "-3",
        "queens_favor": "8",
        "faction_ability": "5",
    },
    "Bruno": {
        "starting_vp": "2",
        "explore_tokens": "9",
        "farm_income": "10",
        "comb_pods": "2",
        "hive_build_bonuses": "6",
        "advance_strength4": "4",
        "explore_strength4": "1",
        "tile_abilities": "8",
        "seed_card_benefits": "3",
        "planted_seed_cards": "23",
        "recruits": "7",
        "developments": "8",
        "carvings": "4",
        "queens_favor": "10",
        "faction_ability": "6",
    },
    "Carla": {
        "starting_vp": "3",
        "explore_tokens": "5",
        "farm_income": "6",
        "comb_pods": "3",
        "hive_build_bonuses": "4",
        "advance_strength4": "2",
        "explore_strength4": "2",
        "tile_abilities": "5",
        "seed_card_benefits": "6",
        "planted_seed_cards": "9",
        "recruits": "5",
        "developments": "7",
        "carvings": "-1",
        "queens_favor": "6",
        "faction_ability": "4",
    },
}


def test_newcomer_scores_a_whole_game(page: Page, live_server, screenshots):
    base = live_server.url
    breakdown = categories_of(During.BREAKDOWN)
    assert {c.key for c in breakdown} == set(DURING_KEYS) | set(END_KEYS), "the test must fill every category"
    assert len(breakdown) == 18

    game_id = start_game(
        page,
        base,
        PLAYERS,
        COMB,
        factions=["Ana", "Iber", "Nica"],
        layout_name="Kitchen table",
        during=During.BREAKDOWN,
    )
    sheet = Sheet(PLAYERS, COMB)
    seat = {name: number for number, name in enumerate(PLAYERS, start=1)}
    # The pad starts with each seat's starting VP (1, 2, 3) already filled in.
    for name in PLAYERS:
        sheet.values[name]["starting_vp"] = seat[name]
    expect_figures(page, sheet)

    # During the game, one player at a time; the sum shows its result beside the field.
    for name in PLAYERS:
        for key in DURING_KEYS:
            text = TYPED[name][key]
            field(page, key, name).fill(text)
            sheet.values[name][key] = eval_plain_sum(text)
        if name == "Alice":
            expect(status(page, "s1-explore_tokens")).to_contain_text("= 11")
        expect_figures(page, sheet)
        if name == "Alice":
            assert sheet.ranking()[0] == "Alice"
        if name == "Bruno":  # 45 against Alice's 43: Bruno takes the lead
            assert sheet.ranking()[0] == "Bruno"

    # End of the game: plain VP typed; farms and frames typed or counted with "Add one";
    # the hive mat ticked (Bruno ticks it by mistake and unticks it).
    for name in PLAYERS:
        s = seat[name]
        for key in END_KEYS:
            if key in TYPED[name]:
                field(page, key, name).fill(TYPED[name][key])
                sheet.values[name][key] = eval_plain_sum(TYPED[name][key])
        if name == "Alice":
            field(page, "farms", name).fill("5")
            for _click in range(2):
                plus(page, f"f-s{s}-frames_filled").click()
            field(page, "hive_mat_full", name).check()
            sheet.values[name].update(farms=5, frames_filled=2, hive_mat_full=True)
        elif name == "Bruno":
            for _click in range(3):
                plus(page, f"f-s{s}-farms").click()
            field(page, "frames_filled", name).fill("1")
            field(page, "hive_mat_full", name).check()
            sheet.values[name].update(farms=3, frames_filled=1, hive_mat_full=True)
            expect_figures(page, sheet)
            field(page, "hive_mat_full", name).uncheck()
            sheet.values[name]["hive_mat_full"] = False
        else:
            field(page, "farms", name).fill("4")
            plus(page, f"f-s{s}-farms").click()
            plus(page, f"f-s{s}-frames_filled").click()
            field(page, "hive_mat_full", name).check()
            sheet.values[name].update(farms=5, frames_filled=1, hive_mat_full=True)
        expect_figures(page, sheet)
    expect(field(page, "farms", "Bruno")).to_have_value("3")
    expect(field(page, "frames_filled", "Alice")).to_have_value("2")
    expect(status(page, "s1-frames_filled")).to_contain_text("16 VP")

    # The comb: tokens placed one at a time with "Add one"; the sentences follow.
    sector1 = page.locator("#sector-0-summary")
    expect(sector1).to_contain_text("No tokens yet")
    # (who, sector, +1 or -1, the sentence that follows); Bruno drops a token in sector 2 by
    # mistake and takes it back with "Remove one".
    steps = [
        ("Alice", 0, +1, "Alice leads with 1 token: 9 VP."),
        ("Bruno", 0, +1, "Alice and Bruno tie for 1st with 1 token: 13 VP shared, 6 each, rounded down."),
        ("Alice", 0, +1, "Alice leads with 2 tokens: 9 VP. Bruno is 2nd with 1 token: 4 VP."),
        ("Bruno", 0, +1, "Alice and Bruno tie for 1st with 2 tokens: 13 VP shared, 6 each, rounded down."),
        ("Carla", 0, +1, "Alice and Bruno tie for 1st with 2 tokens"),
        ("Carla", 1, +1, "Carla leads with 1 token: 8 VP."),
        ("Carla", 1, +1, "Carla leads with 2 tokens: 8 VP."),
        ("Carla", 1, +1, "Carla leads with 3 tokens: 8 VP."),
        ("Alice", 1, +1, "Carla leads with 3 tokens: 8 VP. Alice is 2nd with 1 token: 5 VP."),
        ("Bruno", 1, +1, "Alice and Bruno tie for 2nd with 1 token: 5 VP shared, 2 each, rounded down."),
        ("Bruno", 1, -1, "Carla leads with 3 tokens: 8 VP. Alice is 2nd with 1 token: 5 VP."),
    ]
    # Three players' token cells are narrow on a phone: the count is stepped with the keyboard's
    # arrows (or typed); the comb's + and - buttons show where a cell is wide enough.
    for name, sector, delta, sentence in steps:
        input_id = f"f-s{seat[name]}-t{sector}"
        page.locator(f"#{input_id}").press("ArrowUp" if delta > 0 else "ArrowDown")
        sheet.tokens[sector][name] += delta
        expect(page.locator(f"#{input_id}")).to_have_value(str(sheet.tokens[sector][name]))
        expect(page.locator(f"#sector-{sector}-summary")).to_contain_text(sentence)
        for who in PLAYERS:
            expect(page.get_by_label(f"Comb majorities, {who}", exact=True)).to_have_text(str(sheet.majority(who)))
    expect(sector1).to_contain_text("Nobody scores 2nd place.")
    expect_figures(page, sheet)
    assert [sheet.total(n) for n in PLAYERS] == [120, 120, 95]  # the story: Alice and Bruno tie on VP
    expect(page.locator("#ranking")).to_contain_text(
        "Alice and Bruno share the victory: 120 VP and 0 active workers each."
    )

    # Active workers break the tie.
    for _click in range(2):
        plus(page, "f-s1-active_workers").click()
    for _click in range(3):
        plus(page, "f-s2-active_workers").click()
    page.get_by_role("textbox", name="Active workers, Carla", exact=True).fill("1")
    sheet.workers.update(Alice=2, Bruno=3, Carla=1)
    expect_figures(page, sheet)
    assert sheet.ranking() == ["Bruno", "Alice", "Carla"]
    expect(page.locator("#ranking")).to_contain_text(BRUNO_WINS_THE_TIE_BREAK)

    # Every field says it is saved (but the starting VP: retyping the number it already held
    # changes nothing, so nothing is sent; the reload below shows it kept).
    keys = [key for key in (*DURING_KEYS, *END_KEYS, "active_workers") if key != "starting_vp"]
    names = [f"s{s}-{key}" for s in seat.values() for key in keys]
    names += [f"s{s}-t{t}" for s in seat.values() for t in range(len(COMB))]
    for name in names:
        expect_saved(page, name)
    expect(banner(page)).to_be_hidden()

    page.evaluate("() => window.scrollTo(0, 0)")
    shoot(page, screenshots, "pad")
    page.evaluate("() => document.getElementById('comb').scrollIntoView({block: 'start'})")
    shoot(page, screenshots, "comb")

    # Everything is still there after a reload, the sum as it was typed.
    page.reload()
    for name in PLAYERS:
        for key, text in TYPED[name].items():
            expect(field(page, key, name)).to_have_value(text)
        expect(field(page, "farms", name)).to_have_value(str(sheet.values[name]["farms"]))
        expect(field(page, "frames_filled", name)).to_have_value(str(sheet.values[name]["frames_filled"]))
        if sheet.values[name]["hive_mat_full"]:
            expect(field(page, "hive_mat_full", name)).to_be_checked()
        else:
            expect(field(page, "hive_mat_full", name)).not_to_be_checked()
        for sector in range(len(COMB)):
            expect(page.locator(f"#f-s{seat[name]}-t{sector}")).to_have_value(str(sheet.tokens[sector][name]))
        expect(page.locator(f"#f-s{seat[name]}-active_workers")).to_have_value(str(sheet.workers[name]))
    expect(field(page, "explore_tokens", "Alice")).to_have_value("3+6+2")
    expect(status(page, "s1-explore_tokens")).to_contain_text("= 11")
    expect_figures(page, sheet)

    # Finish: the results name the winner and explain the tie.
    page.get_by_role("button", name="Finish the game").click()
    expect(page).to_have_url(re.compile(rf"/games/{game_id}/results/$"))
    expect(page.locator(".winner-line")).to_have_text("Bruno wins")
    ranking = page.get_by_role("list", name="Ranking")
    expect(ranking.locator(".rank-name")).to_have_text([re.compile(rf"^{n}\b") for n in sheet.ranking()])
    expect(ranking.locator(".rank-total")).to_have_text([f"{sheet.total(n)} VP" for n in sheet.ranking()])
    expect(page.locator(".results .tie")).to_contain_text(BRUNO_WINS_THE_TIE_BREAK)
    total_row = page.locator("table.breakdown tr.total td")
    expect(total_row).to_have_text([str(sheet.total(n)) for n in PLAYERS])
    expect(page.locator(".bars .bar-svg")).to_have_count(len(PLAYERS))
    expect(page.locator(".bars .bar-svg").first).to_be_visible()
    no_sideways_scroll(page)
    shoot(page, screenshots, "results")

    # The history lists the game with its winner.
    page.goto(f"{base}/")
    game_link = page.locator(f'a.history-link[href$="/games/{game_id}/results/"]')
    expect(game_link).to_be_visible()
    expect(game_link.locator(".history-player.winner")).to_have_count(1)
    expect(game_link.locator(".history-player.winner")).to_contain_text("Bruno (winner) 120")
    expect(game_link).not_to_contain_text("in progress")


# -- Journey 3: a mistyped value ---------------------------------------------------------------


def test_invalid_input_is_explained_and_kept_until_corrected(page: Page, live_server, browser_watch):
    browser_watch.expect_console_error(refused_save(422))  # each mistyped value is refused
    game_id = make_game(["Alice", "Bruno"])
    page.goto(f"{live_server.url}/games/{game_id}/")
    farms = field(page, "farms", "Alice")
    farms_error = error(page, "s1-farms")

    farms.fill("3")
    expect_saved(page, "s1-farms")
    assert Seat.objects.get(game__public_id=game_id, number=1).farms == 3

    for typed, message in (
        ("abc", "Type a whole number, such as 12, or a sum, such as 3+6+2."),
        ("120", "The value must be from 0 to 99 (not 120)."),
        ("١٢", "Type the digits 0 to 9 (not ١٢)."),
    ):
        farms.fill(typed)
        # The message sits under the row, names the player and the category, and stays.
        expect(farms_error).to_have_text(f"Farms built, Alice: {message[0].lower()}{message[1:]}")
        expect(status(page, "s1-farms")).not_to_contain_text("Saved")
        expect(farms).to_have_value(typed)
        expect(farms).to_have_attribute("aria-invalid", "true")
        expect(total(page, "Alice")).to_have_text("4")  # 1 starting VP + 3 farms
        assert Seat.objects.get(game__public_id=game_id, number=1).farms == 3

    # Two refused fields of one row: two messages, one under the other, each naming its player.
    field(page, "farms", "Bruno").fill("xyz")
    expect(error(page, "s2-farms")).to_have_text(
        "Farms built, Bruno: type a whole number, such as 12, or a sum, such as 3+6+2."
    )
    first, second = farms_error.bounding_box(), error(page, "s2-farms").bounding_box()
    assert first["y"] + first["height"] <= second["y"], "the two messages overlap"
    # (a row's messages are written only when there is one: the later one for an earlier seat
    # takes its place above, as the page without JavaScript writes them)
    field(page, "recruits", "Bruno").fill("x")
    expect(error(page, "s2-recruits")).to_be_visible()
    field(page, "recruits", "Alice").fill("y")
    expect(error(page, "s1-recruits")).to_have_text(
        "Recruits built, Alice: type a whole number, such as 12, or a sum, such as 3+6+2."
    )
    first, second = error(page, "s1-recruits").bounding_box(), error(page, "s2-recruits").bounding_box()
    assert first["y"] + first["height"] <= second["y"], "Alice's message is not above Bruno's"

    farms.fill("7")
    expect_saved(page, "s1-farms")
    expect(farms_error).to_be_hidden()
    expect(farms).not_to_have_attribute("aria-invalid", "true")
    expect(total(page, "Alice")).to_have_text("8")
    assert Seat.objects.get(game__public_id=game_id, number=1).farms == 7


# -- Journey 4: five players on a phone --------------------------------------------------------

TAP_TARGETS_JS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('#pad input:not([type=hidden]), #pad button, #pad select')) {
    if (!el.getClientRects().length) continue;          // not shown (e.g. the no-JavaScript "Save all")
    const style = getComputedStyle(el);                 // clipped away and hidden from everyone: not a target
    if (style.visibility === 'hidden' || (el.closest('[aria-hidden="true"]') && style.clip !== 'auto')) continue;
    const target = el.closest('label') || el;           // a checkbox is tapped through its label
    const box = target.getBoundingClientRect();
    out.push({what: el.getAttribute('aria-label') || el.id || el.textContent.trim(),
              id: el.id, height: Math.round(box.height * 10) / 10, width: Math.round(box.width * 10) / 10});
  }
  return out;
}"""


def test_five_players_fit_a_phone_screen(page: Page, live_server, screenshots, browser_watch):
    browser_watch.expect_console_error(refused_save(422))  # the error message: "abc" in a farms field
    names = ["Alice", "Bruno", "Carla", "Dmitri", "Emmanuelle"]
    page.goto(f"{live_server.url}/games/new/")
    no_sideways_scroll(page)
    game_id = start_game(page, live_server.url, names, [(9, 4), (8, 5), (7, 3)], during=During.BREAKDOWN)

    # Some realistic content: a sum, a count, a token, an error message.
    field(page, "explore_tokens", "Emmanuelle").fill("12+15+9")
    page.locator("#f-s3-t0").press("ArrowUp")
    field(page, "farms", "Dmitri").fill("abc")
    expect(error(page, "s4-farms")).to_be_visible()
    expect(status(page, "s5-explore_tokens")).to_contain_text("= 36")
    expect_saved(page, "s3-t0")
    no_sideways_scroll(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    shoot(page, screenshots, "pad-5-players")

    targets = page.evaluate(TAP_TARGETS_JS)
    assert len(targets) > 5 * 20, f"expected every field of 5 players, found {len(targets)} tap targets"
    small = [t for t in targets if t["height"] < 44 or t["width"] < 24]
    assert not small, "tap targets under 44 px tall or 24 px wide:\n" + "\n".join(
        f"  {t['what']} (#{t['id']}): {t['width']} x {t['height']} px" for t in small
    )

    # The hive mat checkbox itself is small; its label is the tap target: a tap on the label's
    # corner, away from the box, ticks it.
    mat = field(page, "hive_mat_full", "Carla")
    toggle = page.locator("label.toggle").filter(has=mat)
    size = toggle.bounding_box()
    toggle.tap(position={"x": size["width"] - 4, "y": 4})
    expect(mat).to_be_checked()
    expect_saved(page, "s3-hive_mat_full")

    page.goto(f"{live_server.url}/games/{game_id}/results/")
    expect(page.locator("table.breakdown")).to_be_visible()
    no_sideways_scroll(page)
    shoot(page, screenshots, "results-5-players")


# -- Journey 5: a solo game --------------------------------------------------------------------


def test_solo_game_puts_the_automa_first(page: Page, live_server):
    game_id = start_game(page, live_server.url, ["Alice"], [(9, 4)], solo=True, during=During.BREAKDOWN)

    expect(field(page, "starting_vp", "Automa")).to_have_value("1")
    expect(field(page, "starting_vp", "Alice")).to_have_value("2")
    expect(total(page, "Automa")).to_have_text("1")
    expect(total(page, "Alice")).to_have_text("2")
    expect(page.locator("#f-s1-starting_vp")).to_have_accessible_name("Starting VP, Automa")
    expect(page.locator("#f-s2-starting_vp")).to_have_accessible_name("Starting VP, Alice")

    seats = list(Seat.objects.filter(game__public_id=game_id).order_by("number"))
    assert [(s.number, s.name, s.is_automa, s.starting_vp) for s in seats] == [
        (1, "Automa", True, 1),
        (2, "Alice", False, 2),
    ]


def test_choosing_a_saved_layout_fills_the_comb_and_keeps_what_was_typed(page: Page, live_server):
    """The start form offers the latest saved layout filled in; choosing another fills the comb
    in from it (htmx brings the comb alone), "New layout" empties it, and the names already typed
    stay. The game then starts with the comb on screen."""
    from scoring.models import Game
    from scoring.services.games import comb_layout_save
    from tests.browser.pad_helpers import host

    comb_layout_save(name="Small comb", sectors=[(5, 2), (4, 0)], owner=host())
    comb_layout_save(name="Big comb", sectors=[(12, 6), (7, 0), (9, 3)], owner=host())
    page.goto(f"{live_server.url}/games/new/")
    first_vp = page.get_by_label("Sector 1, 1st place VP", exact=True)
    layout = page.get_by_label("Saved comb layout", exact=True)
    expect(first_vp).to_have_value("12")  # the latest layout, filled in
    page.get_by_label("Player 1 name", exact=True).fill("Alice")

    layout.select_option(label="Small comb")
    expect(first_vp).to_have_value("5")
    expect(page.get_by_label("Sector 2, 2nd place VP", exact=True)).to_have_value("0")
    expect(page.get_by_label("Sector 3, 1st place VP", exact=True)).to_have_value("")
    expect(page.get_by_label("Save this comb as", exact=True)).to_have_value("Small comb")
    expect(page.get_by_label("Player 1 name", exact=True)).to_have_value("Alice")

    layout.select_option(label="New layout")
    expect(first_vp).to_have_value("")
    layout.select_option(label="Big comb")
    expect(page.get_by_label("Sector 3, 2nd place VP", exact=True)).to_have_value("3")

    page.get_by_role("button", name="Start scoring").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+/$"))
    game = Game.objects.get(public_id=re.search(r"/games/([\w-]+)/$", page.url).group(1))
    assert [(s.first_vp, s.second_vp) for s in game.sectors.order_by("position")] == [(12, 6), (7, 0), (9, 3)]
