"""Share links: the owner makes and revokes them, a table-mate opens one (typed, tapped or
scanned from its QR code), says which player they are, and lands on that player's sheet."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from apiary_site.compression import keep_uncompressed
from scoring.access import (
    GameAccess,
    NotAllowed,
    Role,
    asks_to_join,
    game_access,
    link_open,
    link_seat_set,
    link_to_follow,
)
from scoring.forms.sharing import NextGameFollowForm, SeatChoiceForm
from scoring.models import Game, GameLink, Seat
from scoring.presenters.qr import qr_svg
from scoring.selectors.games import game_links_live, game_played_next, game_state, link_live, seat_of_same_player
from scoring.services.sharing import link_renew, link_revoke
from scoring.views.common import with_game
from scoring.web.addresses import address_for_phones
from scoring.web.limits import rate_limit
from scoring.web.refusals import sentence


def share_links(request: HttpRequest, game: Game, seats: list[Seat]) -> list[dict]:
    """The game's live links, each with its address and QR code (SVG drawn here), for its owner,
    and who is in the game by it: the phones that opened it or followed into the game through
    it from the last one (``carried``: whether it carries on a link of the last game), each named by
    the player it said it is (of ``seats``), else its account, else as a phone not yet said."""
    names = {seat.number: seat.name for seat in seats}
    shown = []
    for link in game_links_live(game):
        address = address_for_phones(request, reverse("scoring:join", args=[link.token]))
        holders = [
            {
                "name": names.get(holder.seat or 0, ""),
                "everyone": holder.seat == 0,
                "user": holder.user,
                "followed": holder.followed,
            }
            for holder in link.holders.all()
        ]
        shown.append(
            {
                "link": link,
                "url": address,
                "qr": qr_svg(address),
                "carried": link.carried_from_id is not None,
                "holders": holders,
            }
        )
    return shown


def sheet_address(game: Game, seat: int | None) -> str:
    """The pad as a link's holder opens it: on the sheet of the player at that seat, the one they
    said they are (the one-player view), or everyone's (0 or None)."""
    address = reverse("scoring:pad", args=[game.public_id])
    return f"{address}?player={seat}" if seat else address


@never_cache
@rate_limit("join")
@require_http_methods(["GET", "HEAD", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """A share link, opened: its holder may now reach the game. An edit link's holder is asked
    which player they are (once: then straight to that player's sheet); the owner never is.

    A signed-in user joins by consent: the link opened (a GET, which any page can make a browser
    send) only shows what they are about to join, and its button (a post) makes them a member,
    the game then in their history. Without an account, opening the link is joining: the session
    alone holds it, nothing is recorded for anyone."""
    link = link_live(token)
    if link is None:
        raise Http404(_("This link does not work (any more): ask the game’s owner for a new one."))
    if request.method != "POST" and asks_to_join(request, link):
        game = link.game
        asked = render(
            request,
            "scoring/join.html",
            {"game": game, "link": link, "names": [seat.name for seat in game_state(game).seats]},
        )
        return keep_uncompressed(asked)  # its address is the link: never compressed beside the names (BREACH)
    link_open(request, link)
    access = game_access(request, link.game.public_id)
    if access.asks_seat and access.seat is None:
        return redirect("scoring:who", game_id=link.game.public_id)
    return redirect(sheet_address(access.game, access.seat))


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@rate_limit("save", methods=("POST",))
@with_game(Role.EDIT)
def who(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """Which player are you? An edit link's holder picks one of the game's players (or everyone),
    with one button each (a plain form); their pad then opens on that player's sheet and, without
    an account, their changes carry that player's name, shown as a link holder's. The owner is
    never asked (to the pad)."""
    if not access.asks_seat:
        return redirect("scoring:pad", game_id=access.game.public_id)
    seats = game_state(access.game).seats
    form = SeatChoiceForm(seats, request.POST if request.method == "POST" else None)
    if not form.is_bound:
        return render(request, "scoring/who.html", {"access": access, "form": form, "game": access.game})
    if not form.is_valid():  # (the page's buttons post only the game's players: only a forged post)
        return sentence(str(form.errors["seat"][0]), 400)
    seat = form.cleaned_data["seat"]
    link_seat_set(request, access, seat)
    return redirect(sheet_address(access.game, seat.number if seat else None))


@require_POST
@rate_limit("save")
@with_game(Role.OWNER)
def link_change(request: HttpRequest, access: GameAccess, kind: str, action: str) -> HttpResponse:
    """The owner makes a new link (the old one stops working) or revokes the link of a kind.
    Revoking asks first: the post of the pad's *Revoke* answers the question, whose own form
    confirms (``confirm=1``)."""
    if kind not in GameLink.Access.values or action not in ("new", "revoke"):
        raise Http404
    shown = "1"  # (the first link's code)
    if action == "new":
        link_renew(game=access.game, access=kind)
        shown = kind  # (the code of the link just made)
    elif request.POST.get("confirm") != "1":
        return render(request, "scoring/revoke.html", {"access": access, "game": access.game, "kind": kind})
    else:
        link_revoke(game=access.game, access=kind)
    return redirect(reverse("scoring:pad", args=[access.game.public_id]) + f"?shared={shown}#share")


@never_cache
@require_POST
@rate_limit("join")
@with_game(Role.VIEW)
def next_game_follow(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """*Go to the next game*, from the pad, the table view or the results of a game whose owner
    started the next one with *Play again* (``services.games.game_start``): one tap, and the phone is
    on the next game as it was on this one. A link's holder now holds the next game's link that
    *Play again* carried on from theirs (``access.link_to_follow``: none once the owner revoked or
    renewed it; tapping is their consent to join it) and, for an edit
    link, is the same player in their new seat (the sheet on screen, ``?player=``, or the one
    they said: ``who`` asks only when that player does not play the next game). The table view
    goes on to the next game's table view (``to=table``)."""
    form = NextGameFollowForm({**request.GET.dict(), **request.POST.dict()})
    following = game_played_next(access.game)
    if following is None or not form.is_valid():  # (the page's forms post only what is valid)
        raise Http404(_("No next game has been started after this one."))
    if not access.is_owner:
        link = link_to_follow(access, following)
        if link is None:
            raise NotAllowed(
                _(
                    "The owner has not shared the next game with the link you hold, or has made a new link "
                    "for it since: ask them for its link or QR code."
                )
            )
        link_open(request, link, followed=True)
    now = game_access(request, following.public_id)
    if form.cleaned_data["to"] == "table":
        return redirect("scoring:table", game_id=following.public_id)
    was_on = form.cleaned_data["player"] or access.seat
    seat = seat_of_same_player(was_on, access.game, following)
    if now.asks_seat:
        if seat is None and access.seat != 0:  # (a player the next game lacks, or never said: asked)
            return redirect("scoring:who", game_id=following.public_id)
        link_seat_set(request, now, seat)
    return redirect(sheet_address(following, seat.number if seat else None))
