"""A visitor's games (a browser that scored without an account): kept by the account it makes
or signs in to, and deleted once nobody can reach them any more (``abandoned_find``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from importlib import import_module

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from scoring.actors import SESSION_LINKS, SESSION_VISITOR
from scoring.gamefile import PlayerData
from scoring.models import (
    Change,
    CombLayout,
    Game,
    GameEvent,
    GameLink,
    GameMember,
    Seat,
)
from scoring.services.people import players_attach
from scoring.services.tallies import tallies_follow


@transaction.atomic
def visitor_games_claim(*, visitor: str | None, user) -> int:
    """Every game the browser of ``visitor`` started without an account becomes ``user``'s, and
    its saved comb layouts with them, in one transaction: the games locked and moved in one
    statement (their phones see them changed), their seats attached to the account's players by
    name (``players_attach``: "maya" joins the account's Maya, a new name makes a new player),
    the finished ones added to the account's tallies (``tallies_follow``: until now they counted
    nowhere), and what the browser did itself (not through a link), its changes, its finishing
    and reopening of a game, credited to the account. Of a layout name the account has already,
    the layout saved last stays. How many games moved: 0 when the browser has none (so claiming
    twice moves nothing)."""
    if not visitor:
        return 0
    games = Game.objects.select_for_update().filter(visitor=visitor)
    ids = list(games.order_by("pk").values_list("pk", flat=True))
    _layouts_claim(visitor=visitor, user=user)
    if not ids:
        return 0
    Game.objects.filter(pk__in=ids).update(owner=user, visitor=None, revision=F("revision") + 1, fingerprint=None)
    seats_of: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(game_id__in=ids).select_related("game").order_by("game_id", "number"):
        seats_of.setdefault(seat.game_id, []).append(seat)
    people = players_attach(
        user,
        [
            [PlayerData(name=seat.name, seat=seat.number, automa=seat.is_automa) for seat in seats]
            for seats in seats_of.values()
        ],
    )
    for seats, players in zip(seats_of.values(), people, strict=True):
        for seat in seats:
            seat.player = players[seat.number]
    every_seat = [seat for seats in seats_of.values() for seat in seats]
    Seat.objects.bulk_update(every_seat, ["player"])
    tallies_follow([seat for seat in every_seat if seat.game.is_finished], owner_id=user.pk, counted=True)
    for authored in (Change, GameEvent):  # (its finishing and reopening too: "Finished by the owner")
        authored.objects.filter(game_id__in=ids, by_user__isnull=True, by_link_holder=False, by_name="").update(
            by_user=user
        )
    return len(ids)


def _layouts_claim(*, visitor: str, user) -> None:
    """The browser's comb layouts become the account's; of two of one name, the one saved last."""
    kept = {layout.name: layout for layout in CombLayout.objects.filter(owner=user)}
    for layout in CombLayout.objects.filter(visitor=visitor):
        same_name = kept.get(layout.name)
        if same_name is not None:
            if same_name.updated_at >= layout.updated_at:
                layout.delete()
                continue
            same_name.delete()
        # (update() leaves updated_at as it was: the start form still offers the latest first)
        CombLayout.objects.filter(pk=layout.pk).update(owner=user, visitor=None)


# ---------------------------------------------------------------------------------------------
# Abandoned: what nobody can reach any more (manage.py clear_abandoned_games, nightly)

DELETE_BATCH = 200  # games deleted a transaction: the write lock held briefly, the site saving between


class SessionsUnreadable(Exception):
    """Some unexpired sessions cannot be read with this key: the command runs with another key
    than the site's (its environment is not the site's, or the key was changed), or the data is
    damaged. Whatever those sessions hold would look held by nobody: nothing may be deleted."""

    def __init__(self, unreadable: int, sessions: int):
        super().__init__(f"{unreadable} of {sessions} unexpired sessions cannot be read")
        self.unreadable = unreadable
        self.sessions = sessions


@dataclass(frozen=True)
class Abandoned:
    """The visitors' games (by id) and comb layouts (by id) that nobody can reach any more."""

    games: list[int]
    layouts: list[int]


def abandoned_find(*, started_before: datetime) -> Abandoned:
    """The visitors' games and layouts nobody can reach any more. A visitor's game is reached
    only by its owner, the browser whose session holds its visitor id (``access.game_access``),
    and by the holders of its live share links: a browser whose session opened one, or an
    account that joined through one (a member: the game is in their history). Sessions end
    (``VISITOR_SESSION_AGE`` after a visitor's latest game, at most; Django's two weeks after a
    link's holder's last change), and links are revoked: once no unexpired session holds the
    visitor id nor a live link of the game, and no account joined through a live one, nothing
    leads to it again (a session's cookie cannot be made anew). A layout is only its visitor's.

    Only what was started (a layout: saved) before ``started_before`` is counted: what is newer
    stays whatever holds it, so that a link still on its way to a phone (sent, not yet opened)
    finds its game. A game played after one that is kept (*Play again*: ``played_after``) is
    reached too: whoever reaches the game before is offered it, to follow with one tap.

    Raises ``SessionsUnreadable`` when an unexpired session cannot be read: then nobody can tell
    what it holds, and nothing is abandoned."""
    visitors, links = _held_by_live_sessions()
    candidates = {
        pk
        for pk, visitor in Game.objects.filter(visitor__isnull=False, created_at__lt=started_before).values_list(
            "pk", "visitor"
        )
        if visitor not in visitors
    }
    live = GameLink.objects.filter(
        revoked_at__isnull=True, game__visitor__isnull=False, game__created_at__lt=started_before
    ).annotate(joined=Exists(GameMember.objects.filter(link=OuterRef("pk"))))
    reached = {game_id for pk, game_id, joined in live.values_list("pk", "game_id", "joined") if joined or pk in links}
    layouts = [
        pk
        for pk, visitor in CombLayout.objects.filter(visitor__isnull=False, updated_at__lt=started_before).values_list(
            "pk", "visitor"
        )
        if visitor not in visitors
    ]
    return Abandoned(games=sorted(_not_followed_into(candidates - reached)), layouts=sorted(layouts))


def _not_followed_into(abandoned: set[int]) -> set[int]:
    """``abandoned`` less every game played after a game kept, and after those, down the chain."""
    abandoned = set(abandoned)
    while True:
        after_kept = {
            pk
            for pk, before in Game.objects.filter(pk__in=abandoned, played_after__isnull=False).values_list(
                "pk", "played_after_id"
            )
            if before not in abandoned
        }
        if not after_kept:
            return abandoned
        abandoned -= after_kept


def _held_by_live_sessions() -> tuple[set[str], set[int]]:
    """The visitor ids, and the share links (by id), that the unexpired sessions hold. Each is read
    as Django's session store reads it, but strictly: where the store takes a session it cannot
    read for an empty one (``SessionBase.decode``), this raises ``SessionsUnreadable``."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    reader = store()
    live = store.get_model_class().objects.filter(expire_date__gt=timezone.now())
    visitors: set[str] = set()
    links: set[int] = set()
    unreadable = sessions = 0
    for encoded in live.values_list("session_data", flat=True).iterator(chunk_size=2000):
        sessions += 1
        try:
            data = signing.loads(encoded, salt=reader.key_salt, serializer=reader.serializer)
        except Exception:  # noqa: BLE001 - whatever the store would take for an empty session
            unreadable += 1
            continue
        if data.get(SESSION_VISITOR):
            visitors.add(data[SESSION_VISITOR])
        for opened in data.get(SESSION_LINKS, {}).values():
            links.update(opened)
    if unreadable:
        raise SessionsUnreadable(unreadable, sessions)
    return visitors, links


def abandoned_delete(abandoned: Abandoned) -> None:
    """Delete the abandoned games (with their seats, changes, events and links) and layouts, a
    batch a transaction. A game an account kept meanwhile (its visitor signed in) is left."""
    for batch in _batches(abandoned.games):
        with transaction.atomic():
            Game.objects.filter(pk__in=batch, visitor__isnull=False).delete()
    for batch in _batches(abandoned.layouts):
        with transaction.atomic():
            CombLayout.objects.filter(pk__in=batch, visitor__isnull=False).delete()


def _batches(ids: list[int]) -> Iterator[list[int]]:
    for start in range(0, len(ids), DELETE_BATCH):
        yield ids[start : start + DELETE_BATCH]
