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
)


@transaction.atomic
def link_renew(*, game: Game, access: str) -> GameLink:
    """A new link of that access for the game; the one it replaces (if any) stops working now."""
    GameLink.objects.filter(game=game, access=access, revoked_at__isnull=True).update(revoked_at=timezone.now())
    return GameLink.objects.create(game=game, access=access)


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
