"""Real-browser journeys of a private game shared at the table: the owner taps *Score together* in
the first screen of the pad and shows its QR code (or copies the link, or hands it to the phone's
share sheet), a table-mate's phone opens its link (as scanning it would), says which player it is
and scores that player’s sheet without an account, every change says who made it and can be
undone, and a revoked link (once the owner has confirmed) stops at once, keeping on screen what its
holder had typed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Seat
from tests.browser.pad_helpers import (
    ANOTHER_PHONE_TIMEOUT_MS,
    SMALL_PHONE,
    axe_violations,
    banner,
    expect_saved,
    field,
    make_game,
    pad_ready,
    refused_save,
    sign_in,
    status,
    total,
)

pytestmark = pytest.mark.browser


@pytest.fixture
def mate(browser, phone):
    """A table-mate's phone: its own browser, no account, no cookie."""
    return browser.new_page(**phone)


def share_link(owner: Page, kind: str) -> str:
    """The owner taps *Score together* (which makes the edit link and opens on its QR code), makes
    the view link there when that is the one wanted, and reads its address under its QR code."""
    owner.get_by_role("button", name="Score together").click()
    if kind == "view":
        owner.get_by_role("button", name="Make a view link").click()
    card = owner.locator(".share-link").filter(has_text="Edit link" if kind == "edit" else "View link")
    expect(card.get_by_role("img", name=re.compile("QR code"))).to_be_visible()
    return card.locator(".share-url a").inner_text()


def test_a_table_mate_scans_the_edit_link_scores_and_is_cut_off_when_it_is_revoked(
    page: Page, mate: Page, live_server, browser_watch
):
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    owner = page
    owner.goto(f"{live_server.url}/games/{game_id}/")
    address = share_link(owner, "edit")
    assert re.fullmatch(rf"{re.escape(live_server.url)}/join/[\w-]{{32}}/", address)

    # Where the browser has no share sheet, there is no Share button (the link and Copy are there).
    share = owner.get_by_role("button", name="Share…")
    if owner.evaluate("typeof navigator.share === 'function'"):
        expect(share).to_be_visible()
    else:
        expect(share).to_be_hidden()

    # The table-mate's phone opens the link, with no account, and takes every sheet.
    mate.goto(address)
    mate.get_by_role("button", name="Everyone").click()
    expect(mate).to_have_url(f"{live_server.url}/games/{game_id}/")
    pad_ready(mate)
    field(mate, "farm_income", "Bruno").fill("7")
    expect_saved(mate, "s2-farm_income")
    field(owner, "farm_income", "Alice").fill("5")
    expect_saved(owner, "s1-farm_income")

    # Each sees the other's number arrive, and the owner sees who changed what.
    expect(field(owner, "farm_income", "Bruno")).to_have_value("7", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(field(mate, "farm_income", "Alice")).to_have_value("5", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    owner.get_by_text("Recent changes").click()
    changes = owner.locator("#changes")
    expect(changes).to_contain_text("Farm income, Bruno: — → 7")
    expect(changes).to_contain_text("by the edit link")
    expect(changes).to_contain_text("Farm income, Alice: — → 5")
    expect(changes).to_contain_text("by Hana")  # the name the owner gave, never their login

    # The owner revokes the link (once they have confirmed): the mate's next save, or its next poll
    # if that comes first, is refused and says so, and what they typed stays on screen.
    browser_watch.allow_console_error(refused_save(404))  # the mate's save after the link is revoked
    browser_watch.expect_console_error(r"status of 404 \(Not Found\)$")  # the mate's reload of the pad
    browser_watch.allow_console_error(r"status of 404 \(Not Found\) \(\S+/live/\)$")  # a poll, if one comes first
    browser_watch.allow_console_error(r"^htmx:responseError,")  # htmx's own line for that poll
    browser_watch.allow_console_error(r"^Response Status Error Code 404 from \S+/live/")  # (or in these words)
    owner.get_by_role("button", name="Revoke").click()
    expect(owner.get_by_role("heading", level=1)).to_have_text("Revoke the edit link?")  # nothing cut off yet
    owner.get_by_role("button", name="Revoke the link").click()
    expect(owner.locator(".share-link")).to_have_count(0)
    field(mate, "farm_income", "Bruno").fill("9")
    expect(banner(mate)).to_contain_text("revoked")
    expect(field(mate, "farm_income", "Bruno")).to_have_value("9")
    assert Seat.objects.get(game__public_id=game_id, number=2).farm_income == 7
    mate.reload()
    expect(mate.locator("main")).to_contain_text("revoked")


# A phone's share sheet (the Web Share API), as the test sees it: what it was handed is kept.
SHARE_SHEET = """
Object.defineProperty(Navigator.prototype, "share", {configurable: true, value: function (data) {
  window.__sharedWith = {title: data.title, url: data.url};
  return Promise.resolve();
}});
"""

# The words of the journey, in each language (the phone's language: Accept-Language); French puts
# a (narrow) no-break space before "?".
WORDS = {
    "en": {
        "together": "Score together",
        "qr": "QR code of the edit link",
        "copy": "Copy the link",
        "copied": "Link copied.",
        "share": "Share…",
        "who": re.compile(r"^Which player are you\?$"),
        "changes": "Recent changes",
        "by": "by Bruno (edit link)",
        "farm income": "Farm income",
        "saved": "Saved",
    },
    "fr": {
        "together": "Compter les points ensemble",
        "qr": "QR code du lien de saisie",
        "copy": "Copier le lien",
        "copied": "Lien copié.",
        "share": "Partager…",
        "who": re.compile(r"^Quel joueur êtes-vous\s\?$"),
        "changes": "Modifications récentes",
        "by": "par Bruno (lien de saisie)",
        "farm income": "Revenus des Fermes",
        "saved": "Enregistré",
    },
}


# In French and dark: this module's other journeys share a game in English and light.
@pytest.mark.parametrize(("language", "scheme"), [("fr", "dark")], ids=["french-dark"])
def test_a_table_mate_joins_as_a_player_scores_their_own_sheet_and_is_credited_by_name(
    browser, live_server, language, scheme
):
    """On a small phone (360 x 780): *Score together* is in the first screen of a new pad, one tap
    shows the QR code there, the link copies and goes to the share sheet; the table-mate's phone
    opens the link, says it is Bruno, gets Bruno's sheet, and the host sees Bruno's value arrive,
    credited to Bruno as made through the link. axe-core finds nothing on either page."""
    from scoring.web.limits import counters_clear

    counters_clear()
    words = WORDS[language]
    locale = "fr-FR" if language == "fr" else "en-US"
    host_context = browser.new_context(**SMALL_PHONE, locale=locale, color_scheme=scheme)
    sign_in(host_context, live_server.url)
    host_context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    host_context.add_init_script(SHARE_SHEET)
    host = host_context.new_page()
    game_id = make_game(["Alice", "Bruno", "Carla"], [(9, 4)])
    host.goto(f"{live_server.url}/games/{game_id}/")

    together = host.get_by_role("button", name=words["together"])
    expect(together).to_be_in_viewport(ratio=1)  # in the first screen, nothing scrolled
    together.click()
    card = host.locator(".share-link").first
    expect(card.get_by_role("img", name=words["qr"])).to_be_in_viewport(ratio=1)
    address = card.locator(".share-url a").inner_text()
    card.get_by_role("button", name=words["copy"]).click()
    expect(card.get_by_role("status")).to_have_text(words["copied"])
    assert host.evaluate("navigator.clipboard.readText()") == address
    card.get_by_role("button", name=words["share"]).click()
    assert host.evaluate("window.__sharedWith") == {"title": words["together"], "url": address}
    problems = axe_violations(host, "the pad, Score together open")

    mate = browser.new_page(**SMALL_PHONE, locale=locale, color_scheme=scheme)
    mate.goto(address)
    expect(mate.get_by_role("heading", level=1)).to_have_text(words["who"])
    problems += axe_violations(mate, "which player are you")
    mate.get_by_role("button", name="Bruno", exact=True).click()
    expect(mate).to_have_url(f"{live_server.url}/games/{game_id}/?player=2")
    expect(mate.locator(".pad-views [aria-current=page]")).to_have_text("Bruno")
    mate_field = mate.get_by_role("textbox", name=f"{words['farm income']}, Bruno", exact=True)
    expect(mate_field).to_be_visible()
    expect(mate.get_by_role("textbox", name=f"{words['farm income']}, Alice", exact=True)).to_have_count(0)
    mate_field.fill("7")
    expect(status(mate, "s2-farm_income")).to_contain_text(words["saved"])

    host_field = host.get_by_role("textbox", name=f"{words['farm income']}, Bruno", exact=True)
    expect(host_field).to_have_value("7", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    host.get_by_text(words["changes"]).click()
    expect(host.locator("#changes")).to_contain_text(words["by"])
    assert problems == []


def test_a_view_link_watches_the_game_and_cannot_change_it(page: Page, mate: Page, live_server):
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    owner = page
    owner.goto(f"{live_server.url}/games/{game_id}/")
    address = share_link(owner, "view")
    mate.goto(address)
    expect(mate.locator(".view-only")).to_be_visible()
    expect(field(mate, "farm_income", "Alice")).to_be_disabled()
    expect(mate.get_by_role("button", name="Finish the game")).to_have_count(0)

    field(owner, "farm_income", "Alice").fill("12")
    expect_saved(owner, "s1-farm_income")
    expect(field(mate, "farm_income", "Alice")).to_have_value("12", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(total(mate, "Alice")).to_have_text("13")


def test_undo_puts_back_another_phones_change_on_every_phone(page: Page, mate: Page, live_server):
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    owner = page
    owner.goto(f"{live_server.url}/games/{game_id}/")
    mate.goto(share_link(owner, "edit"))
    mate.get_by_role("button", name="Bruno").click()  # their own sheet
    pad_ready(mate)
    field(mate, "farms", "Bruno").fill("4")
    field(mate, "farms", "Bruno").press("Enter")  # on to the next field: this one may follow others now
    expect_saved(mate, "s2-farms")
    expect(field(owner, "farms", "Bruno")).to_have_value("4", timeout=ANOTHER_PHONE_TIMEOUT_MS)

    owner.get_by_text("Recent changes").click()
    owner.get_by_role("button", name="Undo: Farms built, Bruno: — → 4").click()
    expect(field(owner, "farms", "Bruno")).to_have_value("", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(field(mate, "farms", "Bruno")).to_have_value("", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(total(mate, "Bruno")).to_have_text("2")
    expect(owner.locator("#changes")).to_contain_text("Farms built, Bruno: 4 → —")
    assert Seat.objects.get(game__public_id=game_id, number=2).farms is None
    expect(status(owner, "s2-farms")).not_to_contain_text("VP 4")


class Held:
    """The requests of ``page`` to ``address`` held on their way until ``release``."""

    def __init__(self, page: Page, address: str) -> None:
        self.page, self.address, self.routes, self.holding = page, address, [], True
        page.route(address, self._route)

    def _route(self, route) -> None:
        if self.holding:
            self.routes.append(route)
        else:
            route.continue_()

    def wait(self) -> None:
        """Lets the page run until a request is held."""
        Held.until(self.page, lambda: self.routes)

    @staticmethod
    def until(page: Page, check) -> None:
        """Lets the page run (its events read, the routes' handlers called) until ``check()``."""
        for _ in range(200):
            if check():
                return
            page.wait_for_timeout(25)
        raise AssertionError("never came")

    def release(self) -> None:
        self.holding = False
        for route in self.routes:
            route.continue_()
        self.page.unroute(self.address, self._route)


def test_an_undo_refused_is_said_even_when_a_poll_swapped_the_list_while_it_was_on_its_way(
    page: Page, mate: Page, live_server, browser_watch
):
    """Issue 49: the undo's answer was swapped within the recent changes it was tapped in; a poll
    that swapped that list meanwhile left it nowhere to land, and a refusal was never said. Here
    the owner's polls are held while Bruno changes his farms again and the owner taps Undo; the
    poll is answered first (not swapped: an undo is on its way), then the undo's 409."""
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    owner = page
    owner.goto(f"{live_server.url}/games/{game_id}/")
    mate.goto(share_link(owner, "edit"))
    mate.get_by_role("button", name="Bruno").click()
    pad_ready(mate)
    field(mate, "farms", "Bruno").fill("4")
    field(mate, "farms", "Bruno").press("Enter")
    expect_saved(mate, "s2-farms")
    owner.get_by_text("Recent changes").click()
    undo = owner.get_by_role("button", name="Undo: Farms built, Bruno: — → 4")
    expect(undo).to_be_visible(timeout=ANOTHER_PHONE_TIMEOUT_MS)

    polls, undos = Held(owner, "**/live/**"), Held(owner, "**/undo/**")
    polls.wait()  # a poll on its way, held
    field(mate, "farms", "Bruno").fill("5")
    field(mate, "farms", "Bruno").press("Enter")
    expect_saved(mate, "s2-farms")
    undo.click()
    undos.wait()
    owner.evaluate("""() => document.addEventListener("htmx:afterRequest", (event) => {
      if (event.detail.elt.id === "live") window.pollAnswered = true;
    })""")
    polls.release()
    Held.until(owner, lambda: owner.evaluate("() => window.pollAnswered === true"))  # (answered while the undo waits)
    browser_watch.expect_console_error(r"status of 409 \(Conflict\) \(\S+/undo/\)$")
    undos.release()

    refusal = owner.locator("#undo-message .field-error")
    expect(refusal).to_have_text(
        "Farms built, Bruno: changed again since, to 5. Undoing would overwrite that, so nothing was changed."
    )
    expect(owner.locator("#changes")).to_contain_text("Farms built, Bruno: 4 → 5")
    owner.evaluate("() => { window.pollAnswered = false; }")  # the next poll brings the list again ...
    Held.until(owner, lambda: owner.evaluate("() => window.pollAnswered === true"))
    expect(refusal).to_be_visible()  # ... and the refusal stays until the next undo
    expect(field(owner, "farms", "Bruno")).to_have_value("5")
    assert Seat.objects.get(game__public_id=game_id, number=2).farms == 5
