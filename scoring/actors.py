"""Who acts and whose games: the actor a change records (an account, or a link's holder), the
keeper whose own games and comb layouts a request sees (an account, or a visitor's browser), and
the keys under which a session remembers them (``scoring.access`` reads and writes the session).
The services, selectors and access all speak of them; this module imports only the models."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import QuerySet

from scoring.models import CombLayout, Game, GameLink

SESSION_LINKS = "game_links"  # in the session: {game public id: [ids of the links opened]}
SESSION_NAMES = "link_names"  # in the session: {link id: the name its holder gave, for the change history}
SESSION_OWNER_NAME = "owner_name"  # in the session: the name a visitor gave, for their games' change history
SESSION_VISITOR = "visitor"  # in the session: the visitor id of a browser that started a game without an account
SESSION_CLAIMED = "visitor_claimed_by"  # in the session, as a sign-in keeps the browser's games: the account's id
SESSION_SEATS = "link_seats"  # in the session: {link id: the seat number its holder chose, 0 for everyone}
SESSION_TAG = "tag"  # in the session: what the phone files this session's kept pages and unsaved values under


@dataclass(frozen=True)
class Actor:
    """Who makes a change, for the change history: an account, or the holder of a link."""

    user: User | None = None  # (an account)
    link: GameLink | None = None
    name: str = ""

    @property
    def authored(self) -> dict:
        """Who did it, as a change or a game's event records it (``models.Authored``)."""
        return {
            "by_user": self.user,
            "by_link": self.link,
            "by_link_holder": self.link is not None,
            "by_name": self.name,
        }


NOBODY = Actor()


@dataclass(frozen=True)
class Keeper:
    """Whose own games and comb layouts a request starts and sees: a signed-in account, or a
    visitor's browser (its visitor id; None while it has started nothing). Never both."""

    user: User | None = None
    visitor: str | None = None

    @property
    def is_visitor(self) -> bool:
        return self.user is None

    @property
    def owner_fields(self) -> dict:
        """The fields that make a new game or layout this keeper's."""
        return {"owner": self.user, "visitor": None if self.user is not None else self.visitor}

    def games(self) -> QuerySet[Game]:
        """The games this keeper owns."""
        return self._owned(Game)

    def layouts(self) -> QuerySet[CombLayout]:
        """The comb layouts this keeper saved."""
        return self._owned(CombLayout)

    def _owned(self, model) -> QuerySet:
        """The rows of ``model`` (owned by an account or a visitor) that are this keeper's: a
        visitor without an id has none, never those of nobody."""
        if self.user is not None:
            return model.objects.filter(owner=self.user)
        return model.objects.filter(visitor=self.visitor) if self.visitor else model.objects.none()
