"""Issue 50: a reader of either language meets the app's own words where the table's records add
up past a thousand and where Django would otherwise speak: the history (a winner said without a
gendered word), a player's records and the statistics (every number over 999 with its thousands
separator), the play length's refusal, and the password reset's mail (offering to choose a
password, greeting the account by its name, sent from the app's name in that language)."""

from __future__ import annotations

from datetime import date

import pytest
from django.core import mail
from playwright.sync_api import expect

from scoring.models import Game, Player
from tests.browser.pad_helpers import HOST_NAME, host, sign_in
from tests.i18n.helpers import ungrouped_numbers
from tests.support.factories import game_scored, player

pytestmark = pytest.mark.browser

# What each language says, by what it is said of.
SAID = {
    "en-GB": {
        "winner": "Élodie (winner)",
        "farm income": "2,715",  # (Élodie 41 + … + 70, Bruno 35 × 30)
        "records": "from 30 finished games",
        "too long": "Type the minutes played: at most a day.",
        "subject": "Choose a new password for the Apiary Scorepad",
        "greeting": f"Hello {HOST_NAME},",
        "sender": "Apiary Scorepad <",
    },
    "fr-FR": {
        "winner": "Élodie (victoire)",
        "farm income": "2\u202f715",
        "records": "sur 30\u00a0parties terminées",
        "too long": "Saisissez la durée en minutes\u202f: au plus une journée.",
        "subject": "Choisissez un nouveau mot de passe pour le bloc de score Apiary",
        "greeting": f"Bonjour {HOST_NAME},",
        "sender": "Bloc de score Apiary <",
    },
}


@pytest.mark.parametrize("locale", list(SAID))
def test_the_records_past_a_thousand_a_refusal_and_the_reset_mail_in_the_apps_words(
    browser, phone, live_server, browser_watch, locale
):
    said = SAID[locale]
    owner = host()
    owner.email = "hana@example.com"
    owner.save()
    for day in range(1, 31):
        game_scored(
            player("Élodie", farm_income=40 + day),
            player("Bruno", farm_income=35),
            owner=owner,
            played_on=date(2024, 1, day),
            sectors=[],
            finished=True,
        )
    base = live_server.url
    context = browser.new_context(**phone, locale=locale)
    sign_in(context, base)
    page = context.new_page()

    page.goto(f"{base}/")
    expect(page.locator(".history-game").first).to_contain_text(said["winner"])

    page.goto(f"{base}/statistics/")
    expect(page.locator("main")).to_contain_text(said["farm income"])
    assert not ungrouped_numbers(page.content())

    page.goto(f"{base}/players/{Player.objects.get(owner=owner, name='Élodie').pk}/")
    expect(page.locator("#figures-heading")).to_contain_text(said["records"])
    assert not ungrouped_numbers(page.content())

    page.goto(f"{base}/games/{Game.objects.filter(owner=owner).first().public_id}/results/")
    browser_watch.expect_console_error(r"status of 422 \(Unprocessable Content\)$")  # (the page itself: no script)
    page.locator("#id_minutes").fill("2000")
    page.locator("#play-length button").click()
    expect(page.locator("#id_minutes_error")).to_have_text(said["too long"])
    expect(page.locator("#id_minutes")).to_have_value("2000")  # (what was typed stays)

    visitor = browser.new_context(**phone, locale=locale).new_page()
    visitor.goto(f"{base}/accounts/password_reset/")
    visitor.locator("#id_email").fill("hana@example.com")
    visitor.locator("main form button").click()
    expect(visitor).to_have_url(f"{base}/accounts/password_reset/done/")
    for _ in range(200):  # (the mail goes once the answer has left)
        if mail.outbox:
            break
        visitor.wait_for_timeout(25)
    (sent,) = mail.outbox
    assert sent.subject.startswith(said["subject"])
    assert sent.body.startswith(said["greeting"])
    assert sent.from_email.startswith(said["sender"])
