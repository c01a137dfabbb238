"""Share links: made anew (the old one stops working) and revoked; the games a browser joined
through them kept by the account it makes or signs in to."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from scoring.models import (
    Game,
    GameLink,
    GameMember,
    LinkHolder,
)


@transaction.atomic
def link_renew(*, game: Game, access: str, carried_from: GameLink | None = None) -> GameLink:
    """A new link of that access for the game; the one it replaces (if any) stops working now,
    for whoever opened it and whoever followed into the game through it. ``carried_from``: the
    previous game's link whose holders follow into this game by the new one (*Play again*)."""
    GameLink.objects.filter(game=game, access=access, revoked_at__isnull=True).update(revoked_at=timezone.now())
    return GameLink.objects.create(game=game, access=access, carried_from=carried_from)


def link_holder_note(*, link: GameLink, phone: str, user=None, seat: int | None = None, followed: bool = False) -> None:
    """The phone (a session's tag) is in the game by ``link``: noted for the owner's page, once a
    phone and link (the first way in kept: opened, or followed); ``seat`` when it says which
    player it is (0: everyone)."""
    holder, _created = LinkHolder.objects.get_or_create(
        link=link, phone=phone, defaults={"user": user, "followed": followed, "seat": seat}
    )
    changed = {}
    if seat is not None and holder.seat != seat:
        changed["seat"] = seat
    if user is not None and holder.user_id != user.pk:
        changed["user"] = user
    if changed:
        LinkHolder.objects.filter(pk=holder.pk).update(**changed)


def member_join(*, link: GameLink, user) -> None:
    """The signed-in user who opened ``link`` (not the game's owner) is a member of its game,
    through that link: the game is in their history while the link lives."""
    GameMember.objects.get_or_create(game=link.game, user=user, link=link)


def link_revoke(*, game: Game, access: str) -> None:
    """The game's live link of that access stops working, at once, for everyone who holds it."""
    GameLink.objects.filter(game=game, access=access, revoked_at__isnull=True).update(revoked_at=timezone.now())


def links_join(*, user, links: Iterable[int]) -> int:
    """The account joins the games of the share links its browser opened without one (those still
    live, of games it does not own): they are in its history, as the games its browser started
    are. How many games it joined now."""
    joined = 0
    for link in GameLink.objects.filter(pk__in=list(links), revoked_at__isnull=True).select_related("game"):
        if link.game.owner_id == user.pk:
            continue
        _member, created = GameMember.objects.get_or_create(game=link.game, user=user, link=link)
        joined += created
    return joined
