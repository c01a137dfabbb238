"""Accounts: signing up (Django's own auth does the rest: sign in and out, password change and
reset)."""

from __future__ import annotations

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from scoring.forms import SignUpForm


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    """One short form (a name and a password, twice), then straight to starting a game."""
    if request.user.is_authenticated:
        return redirect("scoring:history")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(request.POST.get("next") or "scoring:start")
    return render(request, "registration/signup.html", {"form": form},
                  status=422 if request.method == "POST" else 200)
