"""Game files waiting to be added (*Your data*'s import), and adding them step by step.

A checked file (at most 2 MB) waits on the server for an hour, under a random token: its text in
the cache (shared by every worker, under the account and the token), the token, the file's name,
when it was sent and the places it holds in the session (``SESSION_UPLOAD``). Not the text
itself in the session, which every request of the account reads (the pad's poll every few
seconds). One file waits per session (a later one replaces it, in the places that one held),
and a waiting file holds a place of the account's (``IMPORT_WAITING_PER_ACCOUNT``: its other
sessions' files) and one of the site's (``IMPORT_WAITING_TOTAL``), freed when it is added,
cancelled or expires: with every place taken the file cannot wait (``upload_keep`` says why),
and what waits stays.

Adding it goes ``IMPORT_STEP`` games a request (``import_step``: ``games_import`` stores them in
short batches, skipping the games the account already has), so no request holds a worker long
and other tables' saves never wait. An import interrupted keeps what it stored: adding the file
again skips those games and adds the rest.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.core.cache import cache
from django.utils import timezone

from scoring import selectors
from scoring.gamefile import GameFileError, Problem, parse_document, read_document
from scoring.services.imports import games_import

# The file waiting to be added: {"token", "name", "since" (when it was sent), "places" (the cache
# keys of the places it holds)}, and once adding it started {"done", "total", "added", "skipped"}
# (games of the file done so far, of all, of which added and skipped by this session's steps);
# its text is in the cache.
SESSION_UPLOAD = "transfer_upload"
WAITING_SECONDS = 60 * 60  # how long an uploaded file waits to be added
IMPORT_STEP = 250  # games a request of an import stores (in batches of IMPORT_BATCH): a second or two

ACCOUNT_FULL = "account"  # why a checked file cannot wait: the account's places are taken ...
SITE_FULL = "site"  # ... or the site's


def _cache_key(user, token: str) -> str:
    return f"transfer-upload:{user.pk}:{token}"


def _places(user) -> tuple[list[str], list[str]]:
    """The cache keys of the places a waiting file may hold: the account's, and the site's."""
    account = [f"transfer-place:{user.pk}:{n}" for n in range(settings.IMPORT_WAITING_PER_ACCOUNT)]
    return account, [f"transfer-place:site:{n}" for n in range(settings.IMPORT_WAITING_TOTAL)]


def _take(keys: list[str], token: str) -> str | None:
    """One of the free places ``keys`` (an expired one is free), taken for the file ``token`` for as
    long as it waits; None when each is taken. ``cache.add`` stores only where nothing is: two
    uploads at once never take one place."""
    taken = cache.get_many(keys)
    return next((key for key in keys if key not in taken and cache.add(key, token, WAITING_SECONDS)), None)


def _held(pending: dict) -> list[str]:
    """Those of the places of the waiting file (``pending``) that are still its own (not expired)."""
    places = pending.get("places", [])
    held = cache.get_many(places)
    return [key for key in places if held.get(key) == pending["token"]]


def _release(pending: dict) -> None:
    """The places the waiting file holds, freed."""
    cache.delete_many(_held(pending))


def upload_keep(*, session: SessionBase, user, name: str, text: str) -> str | None:
    """The checked file waits to be added, in place of the session's waiting file (one at a time,
    in the places that one held); else it takes a place of the account's and one of the site's.
    None, or why it cannot wait (``ACCOUNT_FULL``, ``SITE_FULL``): then what waits stays as it was."""
    token = secrets.token_urlsafe(16)
    pending = session.get(SESSION_UPLOAD)
    places = _held(pending) if pending else []
    if len(places) == 2:  # the account's and the site's
        cache.set_many(dict.fromkeys(places, token), WAITING_SECONDS)
    else:
        account, site = _places(user)
        mine = _take(account, token)
        if mine is None:
            return ACCOUNT_FULL
        theirs = _take(site, token)
        if theirs is None:
            cache.delete(mine)
            return SITE_FULL
        if pending:
            _release(pending)
        places = [mine, theirs]
    if pending:
        cache.delete(_cache_key(user, pending["token"]))
    cache.set(_cache_key(user, token), text, WAITING_SECONDS)
    since = timezone.now().isoformat()
    session[SESSION_UPLOAD] = {"token": token, "name": name, "since": since, "places": places}
    return None


def upload_waiting(*, session: SessionBase, user) -> dict | None:
    """The file waiting to be added ({"token", "name", "since", "places", "text"}, and the
    progress of adding it), or None (none, or expired: its places are freed)."""
    pending = session.get(SESSION_UPLOAD)
    if pending is None:
        return None
    text = cache.get(_cache_key(user, pending["token"]))
    if text is None or "places" not in pending:  # (or sent before files held places: sent again)
        upload_forget(session=session, user=user)
        return None
    return {**pending, "text": text}


def upload_named(*, session: SessionBase, user, token: str) -> dict | None:
    """The waiting file, when ``token`` names it (an older page's form names another)."""
    pending = upload_waiting(session=session, user=user)
    if pending is not None and secrets.compare_digest(token.encode(), pending["token"].encode()):
        return pending
    return None


def upload_forget(*, session: SessionBase, user) -> None:
    """The waiting file forgotten (added, cancelled, expired): its text and its places."""
    pending = session.pop(SESSION_UPLOAD, None)
    if pending is not None:
        cache.delete(_cache_key(user, pending["token"]))
        _release(pending)


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
    progress = {key: value for key, value in pending.items() if key != "text"}
    if pending["done"] < len(games):
        session[SESSION_UPLOAD] = progress
        return ImportStep(pending["name"], progress=progress)
    upload_forget(session=session, user=user)
    since = datetime.fromisoformat(pending["since"])
    added = selectors.games_added_since(user, read_document(document), since)
    return ImportStep(pending["name"], progress=progress, finished=True, added=added, skipped=len(games) - added)
