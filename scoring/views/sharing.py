"""Share links: the owner makes and revokes them, a table-mate opens one (typed, tapped or
scanned from its QR code) and may then say who they are, for the change history."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring import services
from scoring.access import GameAccess, Role, link_name_set, link_open
from scoring.forms import LinkHolderNameForm
from scoring.limits import rate_limit
from scoring.models import Game, GameLink
from scoring.qr import qr_svg
from scoring.refusals import sentence
from scoring.views.common import with_game


def share_links(request: HttpRequest, game: Game) -> list[dict]:
    """The game's live links, each with its address and QR code (SVG drawn here), for its owner."""
    shown = []
    for link in game.links.filter(revoked_at__isnull=True).order_by("access"):
        address = request.build_absolute_uri(reverse("scoring:join", args=[link.token]))
        shown.append({"link": link, "url": address, "qr": qr_svg(address)})
    return shown


@rate_limit("join")
@require_safe
def join(request: HttpRequest, token: str) -> HttpResponse:
    """A share link, opened: its holder may now reach the game."""
    link = GameLink.objects.select_related("game").filter(token=token, revoked_at__isnull=True).first()
    if link is None:
        raise Http404(_("This link does not work (any more): ask the game's owner for a new one."))
    link_open(request, link)
    return redirect("scoring:pad", game_id=link.game.public_id)


@require_POST
@with_game(Role.OWNER)
def link_change(request: HttpRequest, access: GameAccess, kind: str, action: str) -> HttpResponse:
    """The owner makes a new link (the old one stops working) or revokes the link of a kind.
    Revoking asks first: the post of the pad's *Revoke* answers the question, whose own form
    confirms (``confirm=1``)."""
    if kind not in GameLink.Access.values or action not in ("new", "revoke"):
        raise Http404
    if action == "new":
        services.link_renew(game=access.game, access=kind)
    elif request.POST.get("confirm") != "1":
        return render(request, "scoring/revoke.html", {"access": access, "game": access.game, "kind": kind})
    else:
        services.link_revoke(game=access.game, access=kind)
    return redirect(reverse("scoring:pad", args=[access.game.public_id]) + "?shared=1#share")


@require_POST
@with_game(Role.EDIT)
def link_name(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """A link's holder (no account) says who they are: their changes then carry that name, always
    shown as a link holder's (``templatetags.pad.change_author``)."""
    form = LinkHolderNameForm(request.POST)
    if not form.is_valid():  # (the page's field takes at most 40 characters: only a forged post)
        return sentence(form.errors["name"][0], 400)
    if access.asks_name:
        link_name_set(request, access, form.cleaned_data["name"])
    return redirect(reverse("scoring:pad", args=[access.game.public_id]) + "#changes-box")
