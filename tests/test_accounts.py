"""Accounts: signing up straight into the start form, signing in and out,
changing and resetting a password (by a link sent by mail), the site's nav for either, and the
friendly 404 and 403 pages."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import User
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.services.games import PlayerSetup, game_create
from scoring.services.sharing import link_renew, link_revoke
from scoring.web.limits import counters_clear
from tests.support.pages import OVERRIDE, OVERRIDE_REFUSED, Element, markup, page

PASSWORD = "a-long-pass-phrase-for-ann"
NEW_PASSWORD = "another-long-pass-phrase"


@pytest.fixture(autouse=True)
def fresh_limits(db):
    """The abuse limits' counters (a table of the database) start from nothing."""
    counters_clear()
    yield
    counters_clear()


@pytest.fixture
def ann(db):
    return User.objects.create_user("ann", email="ann@example.com", password=PASSWORD)


def signed_in_user(client):
    return client.get(reverse("scoring:history")).wsgi_request.user


# ---------------------------------------------------------------------------------------------
# Signing up


def test_the_home_page_welcomes_a_newcomer_with_the_start_form_and_an_optional_account(client, db):
    """No sign-up wall: a newcomer starts a game at once (``tests/views/test_visitors.py``); making
    an account is offered, to keep the games on every device."""
    response = client.get("/")
    assert response.status_code == 200
    html = markup(response)
    assert f'action="{reverse("scoring:start")}"' in html and 'name="player-0-name"' in html
    assert f'href="{reverse("signup")}"' in html and "Make an account to keep them on every device" in html
    assert reverse("login") in html


def test_the_sign_up_form_is_one_short_form(client, db):
    html = markup(client.get(reverse("signup")))
    for name in ("username", "password1", "password2"):
        assert f'name="{name}"' in html
    # One short form: a name and a password, twice; the email is optional (for a password reset).
    assert 'name="email"' in html and 'name="email" required' not in html
    assert reverse("login") in html


def test_signing_up_signs_in_and_lands_on_the_start_form(client, db):
    response = client.post(reverse("signup"), {"username": "ann", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:start")
    assert User.objects.filter(username="ann").exists()
    assert signed_in_user(client).username == "ann"
    assert client.get(response["Location"]).status_code == 200


def test_a_refused_sign_up_says_why_and_signs_nobody_in(client, db):
    response = client.post(reverse("signup"), {"username": "ann", "password1": PASSWORD, "password2": "other"})
    assert response.status_code == 422
    assert page(response).find(class_="error")
    assert not User.objects.exists()
    assert not signed_in_user(client).is_authenticated


def test_sign_up_refuses_a_weak_password(client, db):
    response = client.post(reverse("signup"), {"username": "ann", "password1": "1234", "password2": "1234"})
    assert response.status_code == 422
    assert not User.objects.exists()


def test_sign_up_never_sends_the_newcomer_to_another_site(client, db):
    response = client.post(
        reverse("signup"),
        {"username": "ann", "password1": PASSWORD, "password2": PASSWORD, "next": "https://elsewhere.example/"},
    )
    assert response["Location"] == reverse("scoring:start")


def test_sign_up_goes_on_to_a_page_of_this_site(client, db):
    response = client.post(
        reverse("signup"),
        {"username": "ann", "password1": PASSWORD, "password2": PASSWORD, "next": reverse("scoring:players")},
    )
    assert response["Location"] == reverse("scoring:players")


# ---------------------------------------------------------------------------------------------
# The name an account is shown by to the people it shares games with (never its user name)


def test_sign_up_asks_for_the_name_others_see_and_keeps_it(client, db):
    form = markup(client.get(reverse("signup")))
    assert 'name="first_name"' in form and 'name="first_name" required' not in form  # optional

    client.post(
        reverse("signup"), {"username": "ann-42", "first_name": "  Ann  ", "password1": PASSWORD, "password2": PASSWORD}
    )

    assert User.objects.get(username="ann-42").get_full_name() == "Ann"


def test_your_name_page_changes_the_name_others_see(client, ann):
    assert client.get(reverse("account_name")).status_code == 302  # signed in only
    client.force_login(ann)
    assert nav_of(client.get(reverse("scoring:history"))).find("a", href=reverse("account_name"))

    response = client.post(reverse("account_name"), {"first_name": "Ann\nthe first"})

    assert response.status_code == 302
    assert response["Location"] == reverse("account_name") + "?saved=1"
    ann.refresh_from_db()
    assert (ann.username, ann.first_name) == ("ann", "Ann the first")  # one line; the login unchanged
    page = markup(client.get(response["Location"]))
    assert 'role="status"' in page and 'value="Ann the first"' in page


def test_your_name_page_refuses_a_name_longer_than_40_characters(client, ann):
    client.force_login(ann)

    response = client.post(reverse("account_name"), {"first_name": "A" * 41})

    assert response.status_code == 422
    assert page(response).find(class_="error")
    ann.refresh_from_db()
    assert ann.first_name == ""


def test_sign_up_refuses_a_name_that_could_hide_or_reorder_text_under_its_field_keeping_the_rest(client, db):
    """(``scoring/rules/names.py``; the user name takes letters, digits and @ . + - _ only: Django's own rule.)"""
    response = client.post(
        reverse("signup"),
        {
            "username": "ann-42",
            "first_name": OVERRIDE,
            "email": "ann@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert response.status_code == 422
    html = page(response)
    assert html.by_id("id_first_name_error").text == OVERRIDE_REFUSED
    assert [html.one("input", name=name)["value"] for name in ("username", "first_name", "email")] == [
        "ann-42",
        OVERRIDE,
        "ann@example.com",
    ]
    assert not User.objects.exists()


def test_your_name_page_refuses_a_name_that_could_hide_or_reorder_text_under_its_field(client, ann):
    client.force_login(ann)

    response = client.post(reverse("account_name"), {"first_name": f"Ann{OVERRIDE}"})

    assert response.status_code == 422
    html = page(response)
    assert html.by_id("id_first_name_error").text == OVERRIDE_REFUSED
    assert html.one("input", name="first_name")["value"] == f"Ann{OVERRIDE}"
    ann.refresh_from_db()
    assert ann.first_name == ""


# ---------------------------------------------------------------------------------------------
# Signing in and out


def test_sign_in_page_and_signing_in(client, ann):
    page = client.get(reverse("login"))
    assert page.status_code == 200
    assert reverse("password_reset") in markup(page)
    response = client.post(reverse("login"), {"username": "ann", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:history")
    assert signed_in_user(client) == ann


def test_a_wrong_password_does_not_sign_in(client, ann):
    response = client.post(reverse("login"), {"username": "ann", "password": "wrong"})
    assert response.status_code == 200
    assert "form-errors" in markup(response)
    assert not signed_in_user(client).is_authenticated


def test_signing_in_goes_back_to_the_page_asked_for(client, ann):
    asked = client.get(reverse("scoring:players"))
    assert asked.status_code == 302 and asked["Location"].startswith(reverse("login"))
    response = client.post(
        reverse("login"), {"username": "ann", "password": PASSWORD, "next": reverse("scoring:players")}
    )
    assert response["Location"] == reverse("scoring:players")


def test_signing_out_is_a_post(client, ann):
    client.force_login(ann)
    assert client.get(reverse("logout")).status_code == 405  # a link cannot sign anyone out
    assert signed_in_user(client).is_authenticated
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert not signed_in_user(client).is_authenticated


def test_signing_out_ends_the_session_for_every_copy_of_its_cookie(client, ann):
    """Sessions live on the server (settings.SESSION_ENGINE): signing out ends the session itself,
    not only this browser's cookie."""
    client.post(reverse("login"), {"username": "ann", "password": PASSWORD})
    copy = Client()
    copy.cookies[settings.SESSION_COOKIE_NAME] = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert signed_in_user(copy) == ann
    client.post(reverse("logout"))
    assert not signed_in_user(copy).is_authenticated


def test_a_deactivated_account_is_signed_out(client, ann):
    client.force_login(ann)
    assert signed_in_user(client) == ann
    User.objects.filter(pk=ann.pk).update(is_active=False)
    assert not signed_in_user(client).is_authenticated


# ---------------------------------------------------------------------------------------------
# The site's nav


def nav_of(response) -> Element:
    return page(response).one("nav", class_="site-nav")


def test_the_nav_names_an_account_by_its_name_when_it_has_one(client, ann):
    """Issue 49, point 7: the header showed the user name where the account has a name."""
    ann.first_name = "Ann Lee"
    ann.save()
    client.force_login(ann)

    assert nav_of(client.get(reverse("scoring:history"))).one("span", class_="nav-user").text.startswith("Ann Lee")


def test_the_nav_of_a_signed_in_user(client, ann):
    client.force_login(ann)
    nav = nav_of(client.get(reverse("scoring:history")))
    assert nav.one("span", class_="nav-user").one("bdi").text == "ann"
    links = {link["href"]: link.text for link in nav.find_all("a")}
    assert reverse("password_change") in links
    assert links[reverse("scoring:start")] == "New game" and links[reverse("scoring:players")] == "Players"
    sign_out = nav.one("form", action=reverse("logout"))
    assert sign_out["method"] == "post" and sign_out.one("input", type="hidden", name="csrfmiddlewaretoken")
    assert sign_out.one("button", type="submit").text == "Sign out"
    assert "Sign in" not in nav.text and "Sign up" not in nav.text
    assert not nav.find_all("script") and not nav.find_all(style=True)  # CSP-safe
    assert not [name for element in nav.iter() for name in element.attrs if name.startswith("on")]


def test_the_nav_of_a_visitor(client, db):
    nav = nav_of(client.get("/"))
    assert nav.one("a", href=reverse("login")).text == "Sign in"
    assert nav.one("a", href=reverse("signup")).text == "Sign up"
    assert "Sign out" not in nav.text and "New game" not in nav.text and "Players" not in nav.text


# ---------------------------------------------------------------------------------------------
# Passwords


def test_changing_the_password(client, ann):
    assert client.get(reverse("password_change")).status_code == 302  # signed in only
    elsewhere = Client()
    elsewhere.force_login(ann)
    client.force_login(ann)
    assert client.get(reverse("password_change")).status_code == 200
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("password_change_done")
    assert client.get(response["Location"]).status_code == 200
    ann.refresh_from_db()
    assert ann.check_password(NEW_PASSWORD)
    assert signed_in_user(client) == ann  # still signed in on this phone
    assert not signed_in_user(elsewhere).is_authenticated  # and nowhere else


def test_a_password_change_with_the_wrong_old_password_changes_nothing(client, ann):
    client.force_login(ann)
    response = client.post(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 200
    assert page(response).find(class_="error")
    ann.refresh_from_db()
    assert ann.check_password(PASSWORD)


def test_a_password_reset_mails_a_link_that_sets_a_new_password(client, ann, mailoutbox):
    assert client.get(reverse("password_reset")).status_code == 200
    response = client.post(reverse("password_reset"), {"email": "ann@example.com"})
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert client.get(response["Location"]).status_code == 200

    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["ann@example.com"]
    assert "\n" not in mail.subject and "Apiary Scorepad" in mail.subject
    assert "Hello ann," in mail.body
    assert "&" not in mail.body and "<" not in mail.body  # plain text, nothing escaped as HTML
    link = re.search(r"https?://testserver(/accounts/reset/\S+/)", mail.body)[1]

    confirm = client.get(link, follow=True)  # Django moves the token into the session first
    assert confirm.status_code == 200
    assert 'name="new_password1"' in markup(confirm)
    form_address = confirm.redirect_chain[-1][0]
    done = client.post(form_address, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302
    assert done["Location"] == reverse("password_reset_complete")
    assert client.get(done["Location"]).status_code == 200
    ann.refresh_from_db()
    assert ann.check_password(NEW_PASSWORD)

    used = client.get(link, follow=True)  # the link works once
    assert "This link does not work" in markup(used)


@pytest.mark.parametrize(
    ("language", "subject", "greeting", "sender"),
    [
        ("en", "Choose a new password for the Apiary Scorepad", "Hello Élodie,", "Apiary Scorepad"),
        (
            "fr",
            "Choisissez un nouveau mot de passe pour le bloc de score Apiary",
            "Bonjour Élodie,",
            "Bloc de score Apiary",
        ),
    ],
)
def test_the_reset_mail_offers_to_choose_a_password_greets_by_name_and_comes_from_the_app(
    client, db, mailoutbox, language, subject, greeting, sender
):
    """Issue 50: "Your new password for…" promised a password the mail does not hold; it greeted
    the login (« Bonjour elodie_fr »); its sender's name stayed English in French."""
    User.objects.create_user("elodie_fr", email="elodie@example.com", password=PASSWORD, first_name="Élodie")

    client.post(reverse("password_reset"), {"email": "elodie@example.com"}, HTTP_ACCEPT_LANGUAGE=language)

    (sent,) = mailoutbox
    assert sent.subject.startswith(subject)
    assert sent.body.startswith(greeting) and "elodie_fr" not in sent.body
    assert sent.from_email.startswith(f"{sender} <")


def test_a_password_reset_for_an_unknown_address_sends_nothing_and_tells_nothing(client, ann, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert mailoutbox == []


class AnswerWatch:
    """The outermost middleware of a test: what the site did to make each answer, as the answer
    leaves it for the server (which then sends it, and closes it)."""

    seen: list[dict] = []

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        mails = len(mail.outbox)
        with CaptureQueriesContext(connection) as queries:
            response = self.get_response(request)
        statements = [re.sub(r"'[^']*'|\b\d+(\.\d+)?\b", "?", query["sql"]) for query in queries]
        self.seen.append({"statements": statements, "mails": len(mail.outbox) - mails})
        return response


@pytest.fixture
def answer_watch(settings):
    settings.MIDDLEWARE = ["tests.test_accounts.AnswerWatch", *settings.MIDDLEWARE]
    AnswerWatch.seen = []
    return AnswerWatch.seen


def test_a_password_resets_answer_takes_as_long_for_an_unknown_address_as_for_an_accounts(
    client, ann, mailoutbox, answer_watch
):
    """How long the answer takes cannot tell which addresses have an account: either answer is
    made by the same statements and sends nothing; the mail is looked for and sent after the
    answer has left (when the server closes it, as Django's test client does too), to an
    account's address only."""
    for email in ("ann@example.com", "nobody@example.com"):
        response = client.post(reverse("password_reset"), {"email": email})
        assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")

    for_ann, for_nobody = answer_watch
    assert for_ann["mails"] == for_nobody["mails"] == 0
    assert for_ann["statements"] == for_nobody["statements"]
    assert [sent.to for sent in mailoutbox] == [["ann@example.com"]]


def test_a_password_reset_mail_that_cannot_be_sent_is_logged_after_the_same_answer(client, ann, monkeypatch, caplog):
    def refused(*args, **kwargs):
        raise ConnectionRefusedError("no mail server")

    monkeypatch.setattr(PasswordResetForm, "send_mail", refused)
    response = client.post(reverse("password_reset"), {"email": "ann@example.com"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert "The password reset mail could not be sent" in caplog.text and "no mail server" in caplog.text


# ---------------------------------------------------------------------------------------------
# Friendly error pages


def test_a_revoked_link_says_so_on_a_404_page(client, ann):
    game = game_create(players=[PlayerSetup("Ann")], sectors=[(9, 4)], owner=ann)
    link = link_renew(game=game, access="edit")
    opened = client.get(reverse("scoring:join", args=[link.token]))
    assert opened.status_code == 302
    pad_address = reverse("scoring:pad", args=[game.public_id])
    assert client.get(pad_address).status_code == 200
    link_revoke(game=game, access="edit")

    response = client.get(pad_address)
    assert response.status_code == 404
    html = markup(response)
    assert "The link you opened this game with was revoked by its owner" in html
    assert 'href="/"' in html  # a way home
    assert "app.css" in html  # the site's own page


def test_a_404_without_a_sentence_says_it_in_general_words(client, db):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    html = markup(response)
    assert "There is no page at this address" in html
    assert "Resolver404" not in html and "Http404" not in html


def test_a_view_link_that_writes_gets_a_403_page_with_the_reason(client, ann):
    game = game_create(players=[PlayerSetup("Ann")], sectors=[(9, 4)], owner=ann)
    link = link_renew(game=game, access="view")
    client.get(reverse("scoring:join", args=[link.token]))
    response = client.post(reverse("scoring:pad", args=[game.public_id]), {})
    assert response.status_code == 403
    html = markup(response)
    assert "This link only lets you watch the game" in html
    assert 'href="/"' in html


def test_signing_up_with_an_email_lets_the_player_reset_a_forgotten_password(client, db, mailoutbox):
    response = client.post(
        reverse("signup"),
        {
            "username": "zoe",
            "email": "zoe@example.org",
            "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9",
        },
    )
    assert response.status_code == 302
    client.post(reverse("logout"))
    client.post(reverse("password_reset"), {"email": "zoe@example.org"})
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["zoe@example.org"]
