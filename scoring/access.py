"""Who may do what with a game: its owner, whoever holds one of its live share links (edit or
view), and nobody else.

A game's owner is an account, or a visitor: a browser that scores without an account, named by a
random *visitor id* kept in its session (``Keeper``). The visitor's browser has the owner's rights
on the games it started, until it makes an account or signs in: the account then keeps them
(``services.visitors.visitor_games_claim``).

Every view of a game asks ``game_access`` first, with the least role it needs. A game the
request may not see answers 404, exactly as a game that does not exist; a view-only link that
tries to write answers 403. A link's holder is remembered in the session (and, when signed in,
as a member of the game), and loses access the moment the link is revoked.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import IntEnum

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.http import Http404, HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.actors import (
    SESSION_CLAIMED,
    SESSION_LINKS,
    SESSION_NAMES,
    SESSION_OWNER_NAME,
    SESSION_SEATS,
    SESSION_TAG,
    SESSION_VISITOR,
    Actor,
    Keeper,
)
from scoring.models import Game, GameLink, display_name, new_visitor_id
from scoring.selectors.games import is_member
from scoring.services.accounts import account_name_set
from scoring.services.sharing import link_holder_note, member_join


class Role(IntEnum):
    VIEW = 1
    EDIT = 2
    OWNER = 3


ROLE_OF_LINK: dict[str, Role] = {GameLink.Access.VIEW: Role.VIEW, GameLink.Access.EDIT: Role.EDIT}


class NoAccess(Http404):
    """No such game for this request (404), with the reason in words where there is one to say
    (a revoked link); none where the game is simply not this request's to see."""


class NotAllowed(PermissionDenied):
    """The request reaches the game but may not do this (403): the reason in words."""


class ViewOnly(NotAllowed):
    """A view-only link tried to write (403)."""


@dataclass
class GameAccess:
    game: Game
    role: Role
    link: GameLink | None = None  # the link the access comes through (None for the owner)
    user: User | AnonymousUser | None = None  # (the request's)
    name: str = ""  # the name a link's holder or a visitor owning the game gave (no account)
    seat: int | None = None  # the player a link's holder said they are (a seat number; 0: everyone; None: not asked)

    @property
    def can_edit(self) -> bool:
        return self.role >= Role.EDIT

    @property
    def is_owner(self) -> bool:
        return self.role is Role.OWNER

    @property
    def actor(self) -> Actor:
        user = self.user if self.user is not None and self.user.is_authenticated else None
        return Actor(user=user, link=None if self.is_owner else self.link, name="" if user else self.name)

    @property
    def asks_name(self) -> bool:
        """A link's holder without an account: they may say who they are, for the history."""
        return self.link is not None and self.role >= Role.EDIT and not (self.user and self.user.is_authenticated)

    @property
    def asks_owner_name(self) -> bool:
        """The owner whom the table's phones would show as "the owner": a visitor (their name
        kept on this phone, and changeable), or an account that gave no name (it becomes the
        account's, ``models.display_name``). Asked in *Score together*, once the game is shared."""
        if not self.is_owner:
            return False
        return not (self.user and self.user.is_authenticated) or not display_name(self.user)

    @property
    def asks_seat(self) -> bool:
        """An edit link's holder (signed in or not): they may say which player they are, so that
        their phone opens that player's sheet. The owner is never asked."""
        return self.link is not None and self.role >= Role.EDIT


def keeper_of(request: HttpRequest) -> Keeper:
    """The request's keeper: its account when signed in, else its browser (the visitor id its
    session holds, if any: reading it makes no session)."""
    if request.user.is_authenticated:
        return Keeper(user=request.user)
    return Keeper(visitor=request.session.get(SESSION_VISITOR))


class SessionEnded(Exception):
    """The browser's session ended while the request ran: it signed in or out on another page,
    which gave the session a new key."""


def game_start_for_keeper(request: HttpRequest, start: Callable[[Keeper], Game]) -> Game:
    """Start a game (``start``: the service that stores it, given its keeper) for the account,
    or for this browser, given a visitor id the first time. A visitor's session is kept
    ``VISITOR_SESSION_AGE`` seconds from the latest game started (Django's ``set_expiry``),
    since the browser's games are only the browser's until it makes an account.

    Without an account, the visitor id is read from the session as stored, its row locked, and
    kept in it, in the transaction that stores the game: a sign-in on the same browser at the
    same moment (``browser_games_claim``) either comes after and keeps the game, or came before,
    and then the game is the account's (the sign-in marked the session as it kept the browser's
    games), or not stored at all when the sign-in has already ended the session (``SessionEnded``).
    A game is never stored under a visitor id that no session holds."""
    if request.user.is_authenticated:
        return start(Keeper(user=request.user))
    with transaction.atomic():
        stored = _session_as_stored(request.session)
        if stored is None:
            raise SessionEnded()
        data, expires = stored
        if data.get(SESSION_CLAIMED) is not None:  # signing in at this very moment: the account's game
            return start(Keeper(user=get_user_model().objects.get(pk=data[SESSION_CLAIMED])))
        game = start(Keeper(visitor=data.get(SESSION_VISITOR) or new_visitor_id()))
        _visitor_keep(
            request.session,
            game.visitor,
            renew=data.get(SESSION_VISITOR) is None
            or expires is None
            or expires - timezone.now() < timedelta(seconds=settings.VISITOR_SESSION_AGE / 2),
        )
    return game


def _visitor_keep(session, visitor: str, *, renew: bool) -> None:
    """The session holds the browser's visitor id, written now, under its row's lock (a sign-in
    reads it as stored); its age set again, and its cookie sent again, only when ``renew``: the
    first game, or half the age gone. Otherwise nothing more is written when the answer leaves
    (no cookie either), so a sign-in on another page in between ends nothing of this one."""
    session[SESSION_VISITOR] = visitor
    if renew:
        session.set_expiry(settings.VISITOR_SESSION_AGE)
    if session.session_key is not None:
        session.save()
        session.modified = renew  # (SessionMiddleware saves it again, and sends its cookie, only then)


def browser_games_claim(request: HttpRequest, user, claim: Callable[..., int]) -> int:
    """The account signing in (or up) keeps the games this browser started without one
    (``claim``: ``services.visitors.visitor_games_claim``), the visitor id read from the session as
    stored, its row locked; the session then says which account keeps them (until ``login``
    gives it a new key), so that a game being started on another page at that moment is the
    account's (``game_start_for_keeper``). How many games the account kept."""
    with transaction.atomic():
        stored = _session_as_stored(request.session)
        kept = claim(visitor=(stored[0] if stored else {}).get(SESSION_VISITOR), user=user)
        if stored is not None and request.session.session_key is not None:
            request.session[SESSION_CLAIMED] = user.pk
            request.session.save()
    return kept


def _session_as_stored(session) -> tuple[dict, datetime | None] | None:
    """The session's data as the database holds it now, and when it expires, its row locked
    until the transaction ends (Django's database sessions): nothing yet for a session not
    stored yet (a browser's first request that keeps something: nothing else can hold it),
    None for one that ended since the request read it."""
    session.items()  # (read first: a key the server does not hold, a cookie made up or expired, is dropped then)
    if session.session_key is None:
        return {}, None
    row = session.model.objects.select_for_update().filter(session_key=session.session_key).first()
    return None if row is None else (session.decode(row.session_data), row.expire_date)


def visitor_name(request: HttpRequest) -> str:
    """The name a visitor gave for their games' tables (``owner_name_set``), "" if none."""
    return request.session.get(SESSION_OWNER_NAME, "")


def visitor_forget(request: HttpRequest) -> str | None:
    """Take the visitor id out of the session (its games are an account's now): the visitor id
    it held, if any; the session's age is the accounts' again."""
    request.session.pop(SESSION_CLAIMED, None)
    request.session.pop(SESSION_OWNER_NAME, None)  # (offered as the account's name at the sign-up)
    visitor = request.session.pop(SESSION_VISITOR, None)
    if visitor is not None:
        request.session.set_expiry(None)
    return visitor


def _opened_links(request: HttpRequest, public_id: str) -> list[int]:
    return list(request.session.get(SESSION_LINKS, {}).get(public_id, []))


def game_access(request: HttpRequest, public_id: str, need: Role = Role.VIEW) -> GameAccess:
    """The request's access to the game of that address, or NoAccess (404) / NotAllowed (403):
    one statement for its owner (the game's row), two for a link's holder (and their links)."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None:
        raise NoAccess()
    public_id = game.public_id
    user = request.user
    signed_in = user.is_authenticated
    if signed_in and game.owner_id == user.pk:
        return GameAccess(game, Role.OWNER, user=user)
    if not signed_in and game.visitor is not None and game.visitor == request.session.get(SESSION_VISITOR):
        # The browser that started it, without an account: its changes carry the name it gave.
        return GameAccess(game, Role.OWNER, user=user, name=visitor_name(request))
    opened = _opened_links(request, public_id)
    if not opened and not signed_in:
        raise NoAccess()
    holds = Q(pk__in=opened)
    if signed_in:
        holds |= Q(members__user=user)
    links = list(GameLink.objects.filter(holds, game=game, revoked_at__isnull=True).distinct())
    if not links:
        if opened:
            raise NoAccess(
                _(
                    "The link you opened this game with was revoked by its owner, or the game was deleted. "
                    "Ask the owner for a new link."
                )
            )
        raise NoAccess()
    link = max(links, key=lambda item: ROLE_OF_LINK[item.access])
    name = request.session.get(SESSION_NAMES, {}).get(str(link.pk), "")
    seat = request.session.get(SESSION_SEATS, {}).get(str(link.pk))
    access = GameAccess(game, ROLE_OF_LINK[link.access], link=link, user=user, name=name, seat=seat)
    if access.role < need:
        if need is Role.OWNER and access.role is Role.EDIT:
            raise NotAllowed(
                _("Only the game’s owner can do this: deleting the game, or making and revoking its links.")
            )
        raise ViewOnly(_("This link only lets you watch the game: it cannot change anything."))
    return access


def link_open(request: HttpRequest, link: GameLink, *, followed: bool = False) -> None:
    """The request now holds the link: remembered in the session and, for a signed-in user who
    does not own the game, as a member of the game (so it is in their history); noted for the
    owner's page (``services.sharing.link_holder_note``), ``followed`` when it came by *Go to the next
    game*."""
    links = dict(request.session.get(SESSION_LINKS, {}))
    opened = set(links.get(link.game.public_id, []))
    opened.add(link.pk)
    links[link.game.public_id] = sorted(opened)
    request.session[SESSION_LINKS] = links
    user = request.user if request.user.is_authenticated and link.game.owner_id != request.user.pk else None
    if user is not None:
        member_join(link=link, user=user)
    link_holder_note(link=link, phone=session_tag(request, create=True), user=user, followed=followed)


def link_to_follow(access: GameAccess, following: Game) -> GameLink | None:
    """The live link of ``following`` (the next game of ``access``'s table) that the holder of
    ``access``'s link follows it by: the one *Play again* carried on from their link
    (``GameLink.carried_from``), of the same role, or None when the owner revoked it or made a
    new one since (whoever holds that new link was given it by the owner)."""
    return following.links.filter(revoked_at__isnull=True, carried_from=access.link).first()


def links_opened(request: HttpRequest) -> list[int]:
    """The share links this browser's session opened (``link_open``), by id: a table-mate's phone
    without an account, whose games come with the account it makes or signs in to."""
    return sorted({pk for pks in request.session.get(SESSION_LINKS, {}).values() for pk in pks})


def asks_to_join(request: HttpRequest, link: GameLink) -> bool:
    """Whether opening the link must ask first: a signed-in user who does not own its game and is
    not a member of it yet (joining puts the game in their history: their own choice, never a
    page's that sent them the link)."""
    user = request.user
    return user.is_authenticated and link.game.owner_id != user.pk and not is_member(user, link.game)


def link_name_set(request: HttpRequest, access: GameAccess, name: str) -> None:
    """The name a link's holder gives (``forms.pad.LinkHolderNameForm``), remembered on their phone
    (the session) for their changes."""
    _remember_for_link(request, SESSION_NAMES, access.link, name)


def owner_name_set(request: HttpRequest, access: GameAccess, name: str) -> None:
    """The name the owner gives (``asks_owner_name``): an account's own (its display name, on
    every phone), a visitor's kept in this browser's session for every game it owns."""
    if access.user is not None and access.user.is_authenticated:
        account_name_set(access.user, name)
    else:
        request.session[SESSION_OWNER_NAME] = name


def link_seat_set(request: HttpRequest, access: GameAccess, seat) -> None:
    """The player a link's holder says they are (a ``Seat``, or None for everyone), remembered on
    their phone (the session): their pad opens on that player's sheet, and, without an account,
    their changes carry that player's name (always shown as a link holder's)."""
    _remember_for_link(request, SESSION_SEATS, access.link, seat.number if seat is not None else 0)
    if access.link is not None:
        link_holder_note(link=access.link, phone=session_tag(request, create=True), seat=seat.number if seat else 0)
    if seat is not None and access.asks_name:
        link_name_set(request, access, seat.name)


def _remember_for_link(request: HttpRequest, key: str, link: GameLink | None, value) -> None:
    """Keep ``value`` in the session's ``key`` map, under the link (a new map: the session sees
    it changed)."""
    if link is None:
        raise ValueError("Only a link's holder has a name or a player to remember for the link.")
    remembered = dict(request.session.get(key, {}))
    remembered[str(link.pk)] = value
    request.session[key] = remembered


def session_tag(request: HttpRequest, *, create: bool = False) -> str:
    """The tag this session's pages carry (``data-session-tag``, ``X-Session-Tag``): the phone
    files its kept pages and its unsaved values under it, and forgets those of any other tag, so
    that whatever ends a session (signing out, expiry, a password changed on another device)
    leaves nothing of it to the next person on that phone. A random id kept in the session
    (signing in keeps it: the same person, the same session's data); "" while the session has
    none, unless ``create`` gives it one (a page the phone may keep)."""
    tag = request.session.get(SESSION_TAG, "")
    if not tag and create:
        tag = request.session[SESSION_TAG] = secrets.token_urlsafe(12)
    return tag
