"""Accounts: signing up, the name an account is shown by (*Your name*), and Django's own views
for the rest (sign in and out, password change and reset), with the abuse limits of
``scoring.web.limits`` on signing in, signing up and asking for a password reset.

Signing up or in from a browser that scored without an account (a visitor) gives the account
every game that browser started (``services.visitors.visitor_games_claim``), before Django's ``login``
(which keeps the session's data as it changes its key); the browser's visitor id then goes."""

from __future__ import annotations

import logging
from collections.abc import Callable
from email.utils import formataddr, parseaddr

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.views import LoginView, PasswordChangeView, PasswordResetConfirmView, PasswordResetView
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_http_methods

from scoring.access import browser_games_claim, keeper_of, links_opened, visitor_forget, visitor_name
from scoring.forms.accounts import (
    AccountNameForm,
    NewPasswordForm,
    PasswordNewForm,
    PasswordResetAskForm,
    SignInForm,
    SignUpForm,
)
from scoring.selectors.games import games_kept_count, games_of_links_count
from scoring.services.accounts import account_language_set
from scoring.services.sharing import links_join
from scoring.services.visitors import visitor_games_claim
from scoring.views.preferences import with_account_language
from scoring.web import limits

logger = logging.getLogger(__name__)


@limits.rate_limit("signup", methods=("POST",))
@require_http_methods(["GET", "HEAD", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    """One short form (a name and a password, twice), then back to the page *Sign up* was tapped
    on (``next``: a pad in progress, whose game the account now keeps), else straight to starting
    a game, or, from a browser that has scored games without an account, to the history that now
    keeps them. The account keeps the language it was made in (scoring/views/preferences.py)."""
    if request.user.is_authenticated:
        return redirect("scoring:history")
    # (a visitor who gave the table a name is offered it as the account's)
    form = SignUpForm(request.POST or None, initial={"first_name": visitor_name(request)})
    back_to = _safe_next(request)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        account_language_set(user, get_language())
        kept = _browser_games_keep(request, user)
        return redirect(back_to or ("scoring:history" if kept else "scoring:start"))
    return render(
        request,
        "registration/signup.html",
        {
            "form": form,
            "browser_games": _browser_games(request),
            "joined_games": _joined_games(request),
            "next": back_to,
        },
        status=422 if request.method == "POST" else 200,
    )


def _browser_games(request: HttpRequest) -> int:
    """How many games this browser started without an account (0 for a signed-in request)."""
    keeper = keeper_of(request)
    return games_kept_count(keeper) if keeper.is_visitor and keeper.visitor else 0


def _joined_games(request: HttpRequest) -> int:
    """How many games this browser joined through a share link still live (0 signed in: those are
    the account's already)."""
    if request.user.is_authenticated:
        return 0
    return games_of_links_count(links_opened(request))


def _browser_games_keep(request: HttpRequest, user) -> int:
    """The account signs in on this browser and keeps the games it started without one, and those
    it joined through a share link: how many."""
    kept = browser_games_claim(request, user, claim=visitor_games_claim)
    joined = links_join(user=user, links=links_opened(request))
    login(request, user)
    visitor_forget(request)
    return kept + joined


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def account_name(request: HttpRequest) -> HttpResponse:
    """*Your name*: the name the people you share a game with see beside your changes, in place
    of your user name (which they never see)."""
    form = AccountNameForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        return redirect(reverse("account_name") + "?saved=1")
    return render(
        request,
        "registration/account_name.html",
        {"form": form, "saved": "saved" in request.GET},
        status=422 if request.method == "POST" else 200,
    )


def _safe_next(request: HttpRequest) -> str:
    """The ``next`` address (posted, or in the address of the form: the page the nav's *Sign up*
    was tapped on) when it is one of this site's, else ""."""
    target = request.POST.get("next", "") if request.method == "POST" else request.GET.get("next", "")
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else ""


@method_decorator(with_account_language, name="dispatch")
class SignInView(LoginView):
    """Django's sign-in, each attempt counted per client address and per user name typed from
    that address: a stranger guessing an account's password from elsewhere never locks its owner
    out of their own phone. A sign-in brings the account's language to this device
    (scoring/views/preferences.py)."""

    authentication_form = SignInForm

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        attempt = f"{request.POST.get('username', '').strip()} from {limits.client(request)}"
        refusal = limits.check(request, "login", account=attempt)
        return refusal or super().post(request, *args, **kwargs)

    def get_context_data(self, **kwargs) -> dict:
        return {
            **super().get_context_data(**kwargs),
            "browser_games": _browser_games(self.request),
            "joined_games": _joined_games(self.request),
        }

    def form_valid(self, form) -> HttpResponse:
        """Django's (``login``, then the page asked for), the account keeping the games this
        browser started without one."""
        _browser_games_keep(self.request, form.get_user())
        return HttpResponseRedirect(self.get_success_url())


class PasswordResetLater(PasswordResetAskForm):
    """Django's form, except that ``save()`` (which Django's view calls with what the mail needs)
    only notes it: ``send()`` then looks for the email's accounts and mails each its link."""

    def save(self, **options) -> None:  # type: ignore[override]  # (Django's options, kept whole)
        self.options = options
        self.language = get_language()

    def send(self) -> None:
        """The mail, in the language of the page it was asked on, from the app's name in that
        language (the address the site's: settings.DEFAULT_FROM_EMAIL)."""
        with translation.override(self.language):
            _name, address = parseaddr(self.options.get("from_email") or settings.DEFAULT_FROM_EMAIL)
            super().save(**{**self.options, "from_email": formataddr((gettext("Apiary Scorepad"), address))})


class SendAfterAnswer(HttpResponseRedirect):
    """A redirect that sends mail once it has been sent itself: the WSGI server calls a response's
    ``close()`` when it has sent the answer's last byte (PEP 3333; Django's own
    ``HttpResponse.close()``, which then ends the request), on the worker's time, not the
    answer's. Django's tasks framework would need a worker process to run its tasks (its own
    backends run them at once, or never), and a thread of our own could be cut short when the server
    replaces its worker: this is the one way Django offers to act after an answer. A mail that
    cannot be sent is written to the log (nobody waits for it)."""

    def __init__(self, to: str, send: Callable[[], None]):
        super().__init__(to)
        self.send = send

    def close(self) -> None:
        try:
            self.send()
        except Exception:
            logger.exception("The password reset mail could not be sent")
        super().close()


class PasswordResetRequestView(PasswordResetView):
    """Django's password reset, each request counted per client address and per email typed. The
    answer says the same whether the email is an account's or not, and takes as long: either is
    made by the same work, and the accounts are looked for and mailed after it has left (a mail
    server takes milliseconds to seconds, which would tell the registered addresses apart)."""

    form_class = PasswordResetLater
    email_template_name = "registration/password_reset_email.txt"  # (a mail's plain text, not markup)

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        refusal = limits.check(request, "password_reset", account=request.POST.get("email", ""))
        return refusal or super().post(request, *args, **kwargs)

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        assert isinstance(form, PasswordResetLater)  # (form_class)
        super().form_valid(form)  # Django's: the form notes what to send (``save``), then the redirect
        return SendAfterAnswer(self.get_success_url(), form.send)


# Django's pages that set a new password (from the reset mail's link) and change it, with the help
# and refusals in the app's words (scoring/forms/accounts.py).
password_reset_confirm = PasswordResetConfirmView.as_view(form_class=NewPasswordForm)
password_change = PasswordChangeView.as_view(form_class=PasswordNewForm)
