"""What every game view shares: the one access helper (``with_game``), and partials of a page
template sent in one answer."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.template import Engine, RequestContext
from django_htmx.http import HttpResponseStopPolling
from django_htmx.middleware import HtmxDetails

from scoring.access import NoAccess, NotAllowed, Role, game_access
from scoring.views.protocol import say_session
from scoring.web.refusals import sentence, wants_sentence


class HtmxHttpRequest(HttpRequest):
    """A request as the views are handed it: django-htmx's middleware says whether htmx sent it,
    and what for (``request.htmx``)."""

    htmx: HtmxDetails


class AccountRequest(HtmxHttpRequest):
    """A request of a signed-in account: a view behind ``login_required`` is handed one."""

    user: User


def with_game(need: Role, *, polled: bool = False):
    """The view's game as the request may reach it (``access.game_access``): the view gets the
    GameAccess instead of the game's address. A game it may not reach is a 404 (as a game that
    does not exist) and a view-only link that writes a 403; to the pad's script these answers
    are one sentence of plain text (``refusals.wants_sentence``), which it shows as it is. A
    ``polled`` view (htmx polls it) answers a game out of reach with htmx's 286, which stops the poll."""

    def decorate(view):
        @wraps(view)
        def wrapper(request: HttpRequest, game_id: str, *args, **kwargs):
            try:
                access = game_access(request, game_id, need)
            except (NoAccess, NotAllowed) as refusal:
                if not wants_sentence(request):
                    raise
                words = str(refusal.args[0]) if refusal.args else ""
                answer: HttpResponse
                if polled:
                    answer = HttpResponseStopPolling(words, content_type="text/plain; charset=utf-8")
                else:
                    answer = sentence(words, 403 if isinstance(refusal, NotAllowed) else 404)
                # (a game out of reach because the session ended, signed out: the script tells the two apart)
                return say_session(answer, request)
            return view(request, access, *args, **kwargs)

        return wrapper

    return decorate


def render_partials(
    request: HttpRequest, template: str, names: list[str], context: dict, status: int = 200
) -> HttpResponse:
    """Several partials of ``template`` in one answer: the first is the swap target, the rest
    carry ``hx-swap-oob`` (they read ``oob`` from the context). One context for them all, so the
    context processors run once."""
    first, *rest = [Engine.get_default().get_template(f"{template}#{name}") for name in names]
    # (a partial's forms need no CSRF input: the script sends the token)
    bound = RequestContext(request, {**context, "partial": True})
    with bound.bind_template(first):
        html: str = first.render(bound)
        with bound.push(oob=True):
            html += "".join(partial.render(bound) for partial in rest)
    return HttpResponse(html, status=status)
