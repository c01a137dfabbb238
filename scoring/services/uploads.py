"""Game files waiting to be added (*Your data*'s import), and adding them step by step.

A checked file (at most 2 MB) waits in the waiting room (``WaitingFile``, a table of the database
that every worker and server shares) under a random token, one file a session. The session holds
the token, the file's name and when it was sent (``SESSION_UPLOAD``), not the text itself, which
every request of the account would read (the pad's poll every few seconds).

The room is bounded so that nobody can fill it for the others (``upload_keep``): per account
(``IMPORT_WAITING_PER_ACCOUNT`` files: its other browsers and devices), per client address
(``IMPORT_WAITING_PER_ADDRESS`` files, ``IMPORT_WAITING_PER_ADDRESS_MB``: one person signed in to
many accounts, or every phone behind a club's router; an IPv6 home's whole block,
``limits.client_address``), for the accounts made fewer than ``IMPORT_NEW_ACCOUNT_DAYS`` ago
(``IMPORT_WAITING_PER_NEW_ACCOUNT`` file each, ``IMPORT_WAITING_NEW_ACCOUNTS`` files and
``IMPORT_WAITING_NEW_ACCOUNTS_MB`` for all of them: accounts made to fill the room, from as many
networks as one likes, hold that share of it, never the members' places) and on the whole site
(``IMPORT_WAITING_TOTAL`` files, ``IMPORT_WAITING_TOTAL_MB``). A place is held from the upload
that took it for ``WAITING_SECONDS`` at most, and freed sooner when its file is added or
cancelled, or when its session signs out (``upload_forget_on_sign_out``). A session sending
another file replaces its waiting file in the same place, until the same time: a place is never
renewed, so keeping one means taking a new place every hour, beside everyone else. A file the
room cannot hold is refused with which bound it met and when it would fit (``NoPlace``), and what
waits stays as it was.

Adding it goes ``IMPORT_STEP`` games a request (``import_step``: ``games_import`` stores them in
short batches, skipping the games the account already has), so no request holds a worker long
and other tables' saves never wait. An import interrupted keeps what it stored: adding the file
again skips those games and adds the rest.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.db import connection, transaction
from django.utils import timezone

from scoring.gamefile import GameFileError, Problem, parse_document, read_document
from scoring.models import WaitingFile
from scoring.selectors.imports import games_added_since
from scoring.services.imports import games_import

# The file waiting to be added: {"token", "name", "since" (when it was sent)}, and once adding it
# started {"done", "total", "added", "skipped"} (games of the file done so far, of all, of which
# added and skipped by this session's steps); its text is in the waiting room.
SESSION_UPLOAD = "transfer_upload"
WAITING_SECONDS = 60 * 60  # how long a place of the waiting room is held, from the upload that took it
IMPORT_STEP = 250  # games a request of an import stores (in batches of IMPORT_BATCH): a second or two
WAITING_ROOM_KEYS = ("text", "until")  # what ``upload_waiting`` reads from the room, not kept in the session
MB = 1024 * 1024  # (the unit of the room's bytes, as of the upload's 2 MB)

ACCOUNT = "account"  # whose places a file that cannot wait found taken: its account's ...
ADDRESS = "address"  # ... its client address's ...
NEW_ACCOUNTS = "new accounts"  # ... the new accounts' share (its account being one of them) ...
SITE = "site"  # ... or the site's


@dataclass(frozen=True)
class NoPlace:
    """Why a checked file cannot wait: whose places are taken (``ACCOUNT``, ``ADDRESS``, ``SITE``),
    how many files hold them (``waiting``), and when the file would fit at the earliest, as those
    files stop waiting and nothing else comes (``until``)."""

    whose: str
    waiting: int
    until: datetime


def upload_keep(*, session: SessionBase, user, address: str, name: str, text: str) -> NoPlace | None:
    """The checked file waits to be added, sent from ``address`` (the client, as the rate limits
    count it): in place of the session's waiting file, until the time that place is held to;
    else in a place of its own, for ``WAITING_SECONDS``. Either when the room holds it beside
    the other files waiting (``_room_for``). None, or why it cannot wait: then what waits stays
    as it was."""
    pending = session.get(SESSION_UPLOAD)
    replacing = pending["token"] if pending else None
    token = secrets.token_urlsafe(16)
    size = len(text.encode())
    sender = hashlib.sha256(address.encode()).hexdigest()[:32]  # (the room never keeps the address itself)
    with transaction.atomic():
        _room_lock()
        no_place = _room_for(size, user=user, address=sender, replacing=replacing)
        if no_place is not None:
            return no_place
        replaced = 0
        if replacing is not None:  # in its place, its ``expires`` as it is: never renewed
            replaced = WaitingFile.objects.filter(owner=user, token=replacing).update(
                token=token, address=sender, text=text, size=size
            )
        if not replaced:  # (none waits, or its place was over: deleted by ``_room_for``)
            expires = timezone.now() + timedelta(seconds=WAITING_SECONDS)
            WaitingFile.objects.create(token=token, owner=user, address=sender, text=text, size=size, expires=expires)
    session[SESSION_UPLOAD] = {"token": token, "name": name, "since": timezone.now().isoformat()}
    return None


def _room_lock() -> None:
    """The waiting room taken until the transaction ends, so that uploads count and take its
    places one at a time. On SQLite every transaction holds the database's write lock from its
    start already (settings' ``transaction_mode``); on PostgreSQL the room's table is locked
    against the other uploads and the writes of its rows, never against reading it."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            table = connection.ops.quote_name(WaitingFile._meta.db_table)
            cursor.execute(f"LOCK TABLE {table} IN SHARE ROW EXCLUSIVE MODE")


def _room_for(size: int, *, user, address: str, replacing: str | None) -> NoPlace | None:
    """Whether a file of ``size`` bytes fits beside the files waiting (those whose time is over
    deleted first; the session's own file, ``replacing``, not counted: the new one takes its
    place), under each bound: its account's, its address's, the new accounts' (when its account
    is one), the site's. None, or of the bounds it does not fit under, the one it waits for
    longest (the account's first: its owner can free it)."""
    now = timezone.now()
    WaitingFile.objects.filter(expires__lte=now).delete()
    others = WaitingFile.objects.exclude(token=replacing) if replacing else WaitingFile.objects.all()
    waiting = list(
        others.select_related("owner").only("owner__date_joined", "address", "size", "expires").order_by("expires")
    )
    made_since = now - timedelta(days=settings.IMPORT_NEW_ACCOUNT_DAYS)
    new = user.date_joined > made_since
    bounds = [
        (
            ACCOUNT,
            [file for file in waiting if file.owner_id == user.pk],
            settings.IMPORT_WAITING_PER_NEW_ACCOUNT if new else settings.IMPORT_WAITING_PER_ACCOUNT,
            None,
        ),
        (
            ADDRESS,
            [file for file in waiting if file.address == address],
            settings.IMPORT_WAITING_PER_ADDRESS,
            settings.IMPORT_WAITING_PER_ADDRESS_MB * MB,
        ),
        (SITE, waiting, settings.IMPORT_WAITING_TOTAL, settings.IMPORT_WAITING_TOTAL_MB * MB),
    ]
    if new:
        bounds.append(
            (
                NEW_ACCOUNTS,
                [file for file in waiting if file.owner.date_joined > made_since],
                settings.IMPORT_WAITING_NEW_ACCOUNTS,
                settings.IMPORT_WAITING_NEW_ACCOUNTS_MB * MB,
            )
        )
    refused = []
    for whose, counted, files, room in bounds:
        until = _fits_from(counted, size, files=files, room=room)
        if until is not None:
            refused.append(NoPlace(whose, len(counted), until))
    return max(refused, key=lambda no_place: no_place.until, default=None)


def _fits_from(waiting: list[WaitingFile], size: int, *, files: int, room: int | None) -> datetime | None:
    """When a file of ``size`` bytes fits under a bound of ``files`` files and ``room`` bytes
    (None: files alone are counted) beside ``waiting`` (the files the bound counts, soonest to
    stop waiting first), as they stop waiting and nothing else comes: None when it fits now. (A
    room with nothing waiting takes any file, whatever its bounds.)"""
    count, total, until = len(waiting), sum(file.size for file in waiting), None
    stopping = iter(waiting)
    while count and not (count < files and (room is None or total + size <= room)):
        first = next(stopping)
        count, total, until = count - 1, total - first.size, first.expires
    return until


def upload_waiting(*, session: SessionBase, user) -> dict | None:
    """The file waiting to be added ({"token", "name", "since", the progress of adding it, and
    its "text" and "until": when its place is over}), or None (none, or its time is over: the
    session forgets it)."""
    pending = session.get(SESSION_UPLOAD)
    if pending is None:
        return None
    waiting = (
        WaitingFile.objects.filter(owner=user, token=pending["token"], expires__gt=timezone.now())
        .values("text", "expires")
        .first()
    )
    if waiting is None:  # (or sent before files waited in the room: sent again)
        upload_forget(session=session, user=user)
        return None
    return {**pending, "text": waiting["text"], "until": waiting["expires"]}


def upload_named(*, session: SessionBase, user, token: str) -> dict | None:
    """The waiting file, when ``token`` names it (an older page's form names another)."""
    pending = upload_waiting(session=session, user=user)
    if pending is not None and secrets.compare_digest(token.encode(), pending["token"].encode()):
        return pending
    return None


def upload_forget(*, session: SessionBase, user) -> None:
    """The waiting file forgotten (added, cancelled, its time over, signed out): its place freed."""
    pending = session.pop(SESSION_UPLOAD, None)
    if pending is not None:
        WaitingFile.objects.filter(owner=user, token=pending["token"]).delete()


def upload_forget_on_sign_out(sender, request, user, **kwargs) -> None:
    """Signing out frees the session's place at once (Django's ``user_logged_out``, sent before
    the session is flushed): a person who leaves holds no place of the room for the hour."""
    if request is not None and user is not None:
        upload_forget(session=request.session, user=user)


@dataclass
class ImportStep:
    """What a step of adding a waiting file did: ``problems`` when the file was found wrong (then
    forgotten, nothing of this step stored); else the file's ``progress`` ({"done", "total",
    "added", "skipped", ...}), and once every game is done (``finished``), what the import as a
    whole ``added`` and ``skipped``."""

    name: str
    problems: list[Problem] = field(default_factory=list)
    progress: dict = field(default_factory=dict)
    finished: bool = False
    added: int = 0
    skipped: int = 0


def import_step(*, session: SessionBase, user, pending: dict) -> ImportStep:
    """Store the next ``IMPORT_STEP`` games of the waiting file (``pending``, its adding started);
    once every game is done, forget the file and count what the import as a whole added: the
    file's games the account has stored since it was sent, by this step or another (another tab's
    included). The file is checked whole again by the first step; a later one checks its own
    games as it reads them."""
    start = pending["done"]
    try:
        if start == 0:  # the whole file checked again before anything is stored
            parse_document(pending["text"])
        document = json.loads(pending["text"])
        games = document["games"]
        step = read_document({**document, "games": games[start : start + IMPORT_STEP]})
    except GameFileError as error:
        upload_forget(session=session, user=user)
        return ImportStep(pending["name"], problems=error.problems)
    result = games_import(step, owner=user)
    pending.update(
        done=start + len(step),
        total=len(games),
        added=pending["added"] + result.added,
        skipped=pending["skipped"] + result.skipped,
    )
    progress = {key: value for key, value in pending.items() if key not in WAITING_ROOM_KEYS}
    if pending["done"] < len(games):
        session[SESSION_UPLOAD] = progress
        return ImportStep(pending["name"], progress=progress)
    upload_forget(session=session, user=user)
    since = datetime.fromisoformat(pending["since"])
    added = games_added_since(user, read_document(document), since)
    return ImportStep(pending["name"], progress=progress, finished=True, added=added, skipped=len(games) - added)
