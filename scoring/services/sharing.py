"""Share links: made anew (the old one stops working) and revoked."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from scoring.models import (
    Game,
    GameLink,
)


@transaction.atomic
def link_renew(*, game: Game, access: str) -> GameLink:
    """A new link of that access for the game; the one it replaces (if any) stops working now."""
    GameLink.objects.filter(game=game, access=access, revoked_at__isnull=True).update(revoked_at=timezone.now())
    return GameLink.objects.create(game=game, access=access)


def link_revoke(*, game: Game, access: str) -> None:
    """The game's live link of that access stops working, at once, for everyone who holds it."""
    GameLink.objects.filter(game=game, access=access, revoked_at__isnull=True).update(revoked_at=timezone.now())
