"""A French-speaking newcomer's whole game, in a real browser on a phone whose language is French:
start a game from the home page (no account needed), score it, finish it, read the results and
make the account that keeps it without meeting one English word; then one tap on the switch and
the same page is in English, at the same address.

The expected figures are worked out here from what the test types (1 VP per farm, 8 per frame, the
comb's majorities), never read back from the application.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pad_helpers import refused_save
from tests.i18n.helpers import english_in

pytestmark = pytest.mark.browser


@pytest.fixture
def french_phone(browser, phone, live_server) -> Page:
    """A phone whose browser speaks French (Accept-Language: fr-FR), signed in as nobody."""
    from scoring.web.limits import counters_clear

    counters_clear()
    return browser.new_page(**phone, locale="fr-FR")


def expect_french(page: Page) -> None:
    """The page is in French: its language, and no English word in its text or its accessible
    attributes (the switch's "English", marked lang="en", aside)."""
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    english = english_in(page.content())
    assert not english, f"English words on {page.url}:\n" + "\n".join(english)


def textbox(page: Page, name: str):
    return page.get_by_role("textbox", name=name, exact=True)


def test_a_french_newcomer_scores_a_whole_game_in_french_and_switches_to_english_in_one_tap(
    french_phone, live_server, browser_watch
):
    page = french_phone
    browser_watch.expect_console_error(refused_save(422))  # 120 farms, refused in French
    page.goto(live_server.url + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Comptez les points de vos parties d’Apiary")
    expect_french(page)

    # The start form, on the home page itself.
    page.get_by_label("Nom du joueur 1", exact=True).fill("Amélie")
    page.get_by_label("Nom du joueur 2", exact=True).fill("Bastien")
    page.get_by_label("Secteur 1, PV de la 1re place", exact=True).fill("9")
    page.get_by_label("Secteur 1, PV de la 2e place", exact=True).fill("4")
    page.get_by_role("button", name="Ajouter un secteur").click()
    page.get_by_label("Secteur 2, PV de la 1re place", exact=True).fill("6")
    page.get_by_label("Secteur 2, PV de la 2e place", exact=True).fill("0")
    page.get_by_role("button", name="Commencer la saisie").click()
    expect(page).to_have_url(re.compile(r"/games/(?!new/)[\w-]+/$"))
    pad_url = page.url

    # The pad, in the French edition's words: a new game counts the VP track (one number each).
    expect_french(page)
    expect(page.get_by_role("link", name="Utiliser le détail")).to_be_visible()
    typed = {
        "PV sur la piste à la fin de la partie, Amélie": "13",
        "Fermes construites, Amélie": "3",
        "Cadres remplis, Amélie": "1",
        "PV sur la piste à la fin de la partie, Bastien": "2+4+6",
        "Recrues, Bastien": "5",
        "Pions dans le secteur 1, Amélie": "2",
        "Pions dans le secteur 1, Bastien": "1",
        "Pions dans le secteur 2, Bastien": "1",
        "Ouvriers actifs, Amélie": "2",
        "Ouvriers actifs, Bastien": "1",
    }
    for name, value in typed.items():
        textbox(page, name).fill(value)
        textbox(page, name).press("Tab")
    expect(page.locator("#pad .unsaved")).to_have_count(0)
    expect(page.locator("#status-s1-vp_track")).to_contain_text("Enregistré")
    # Amélie: 13 on the track + 3 farms + 1 frame (8) + sector 1 (9) = 33;
    # Bastien: 12 on the track + 5 + sector 1's 2nd place (4) + sector 2 alone (6) = 27.
    expect(page.get_by_label("Total, Amélie", exact=True)).to_have_text("33")
    expect(page.get_by_label("Total, Bastien", exact=True)).to_have_text("27")
    expect(page.locator("#sector-0-summary")).to_have_text(
        "Amélie est majoritaire avec 2 pions\u202f: 9\u00a0PV. Bastien est 2e avec 1 pion\u202f: 4\u00a0PV."
    )
    expect(page.locator("#sector-1-summary")).to_have_text("Bastien est majoritaire avec 1 pion\u202f: 6\u00a0PV.")
    expect(page.locator("#ranking .rank").first).to_have_text("1er")

    # A mistyped value is refused in French, under its row.
    textbox(page, "Fermes construites, Bastien").fill("120")
    textbox(page, "Fermes construites, Bastien").press("Tab")
    expect(page.locator("#error-s2-farms")).to_have_text(
        "Fermes construites, Bastien\u202f: la valeur doit être comprise entre 0 et 99 (et non 120)."
    )
    # Finish is held back by it, and the banner says why, in agreement with « valeur »: refused,
    # then a sum not complete yet.
    page.get_by_role("button", name="Terminer la partie").click()
    expect(page.locator("#banner p")).to_have_text(
        "Fermes construites, Bastien\u202f: cette valeur n’a pas été enregistrée. Lisez le message sous le champ, "
        "puis terminez la partie."
    )
    expect(textbox(page, "Fermes construites, Bastien")).to_be_focused()
    textbox(page, "Fermes construites, Bastien").fill("7+")
    page.get_by_role("button", name="Terminer la partie").click()
    expect(page.locator("#banner p")).to_have_text(
        "Fermes construites, Bastien\u202f: cette valeur n’est pas encore complète. Terminez la saisie (une somme "
        "ne peut pas finir par + ou −), puis terminez la partie."
    )
    textbox(page, "Fermes construites, Bastien").fill("0")
    textbox(page, "Fermes construites, Bastien").press("Tab")
    expect(page.locator("#error-s2-farms")).to_be_hidden()
    expect(page.locator("#pad .unsaved")).to_have_count(0)
    expect_french(page)

    # Finishing: what nobody entered is listed, in French, before the game is finished.
    page.get_by_role("button", name="Terminer la partie").click()
    expect(page.get_by_text("Rien n’a encore été saisi pour\u202f:")).to_be_visible()
    expect_french(page)
    page.get_by_role("button", name="Terminer quand même").click()

    # The results.
    expect(page).to_have_url(re.compile(r"/results/$"))
    results_url = page.url
    expect(page.get_by_role("heading", level=2, name="Amélie gagne")).to_be_visible()
    expect(page.locator(".ranking-list .rank")).to_have_text(["1er", "2e"])
    expect(page.get_by_role("heading", name="Points par catégorie")).to_be_visible()
    expect(page.locator(".breakdown summary").first).to_have_text("PV sur la piste")  # (its full words a tap away)
    expect(page.get_by_text("Secteur 1\u202f: Amélie est majoritaire avec 2 pions\u202f: 9\u00a0PV.")).to_be_visible()
    expect_french(page)

    # The history (of this browser).
    page.get_by_role("link", name="Toutes les parties").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Parties")
    expect_french(page)

    # Signing up, from this browser, keeps the game: Django's own labels and messages are French too.
    page.get_by_role("link", name="Créez un compte pour les garder sur tous vos appareils").click()
    expect(
        page.get_by_text("La partie commencée dans ce navigateur sera gardée dans votre nouveau compte.")
    ).to_be_visible()
    expect_french(page)
    page.locator("#id_username").fill("amelie")
    page.locator("#id_password1").fill("un-long-mot-de-passe-de-jeu")
    page.locator("#id_password2").fill("un-long-mot-de-passe-de-jeu")
    page.get_by_role("button", name="S’inscrire et garder ces parties").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Parties")
    expect(page.locator("a.history-link")).to_have_count(1)
    expect_french(page)

    # One tap: English, at the same address, and it stays English.
    page.goto(results_url)
    page.get_by_role("button", name="English").click()
    expect(page).to_have_url(results_url)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Results")
    expect(page.get_by_role("heading", level=2, name="Amélie wins")).to_be_visible()
    expect(page.locator(".ranking-list .rank")).to_have_text(["1st", "2nd"])
    page.goto(pad_url)
    expect(page.get_by_role("textbox", name="VP on the track at the end, Amélie", exact=True)).to_have_value("13")
    # And back to French in one tap.
    page.get_by_role("button", name="Français").click()
    expect(page).to_have_url(pad_url)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
