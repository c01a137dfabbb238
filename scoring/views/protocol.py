"""What the pad's answers say beside their HTML, in one place (as django-htmx's ``http.py``
names htmx's headers): the names of the headers, and the functions that write them. The phone
side reads them in one module too (``static/scoring/saving.js``); each answer's status is
``scoring.presenters.answers``'s, and the service worker (``templates/sw.js``) is given the names it reads.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.http import quote_etag

from scoring.access import session_tag

# The game's revision that an answer of the pad shows (its partials, a save's answer).
REVISION_HEADER = "X-Pad-Revision"
# How the game stands, on every answer to the pad's script: how it counts its during-the-game
# points, and when it was finished ("" in progress). A page made otherwise is reloaded.
DURING_HEADER = "X-Pad-During"
FINISHED_HEADER = "X-Pad-Finished"
# Every page's session tag (access.session_tag; "" for none): a page of another tag than the
# copies' makes the service worker forget them all, and a refusal names the session it is for.
TAG_HEADER = "X-Session-Tag"
# A page the service worker may keep a copy of: the session's tag (the copy is that session's
# alone), and until when (the session's expiry, as seconds since the epoch: past it, the copy is
# never shown).
KEEP_HEADER = "X-Keep-Offline"
KEEP_UNTIL_HEADER = "X-Keep-Until"


def finished_mark(game) -> str:
    """When the game was finished, as the pad's page and its answers say it ("" in progress)."""
    return str(int(game.finished_at.timestamp())) if game.finished_at else ""


def revision_tag(game) -> str:
    """The ETag of what the pad's polls bring: the game's revision."""
    return f"rev-{game.revision}"


def poll_etag(game) -> str:
    """``revision_tag`` as an ETag header says it (quoted, as Django's ``condition`` sends it): what
    a save's answer carries, and what a page says it shows (its data-poll-etag), so that the
    poll that follows asks from it."""
    return quote_etag(revision_tag(game))


def say_game(response: HttpResponse, game) -> HttpResponse:
    """What every answer to the pad's script says of the game, for a page shown before: how it
    counts its during-the-game points (a field of the other way is not the game's any more) and
    whether it is finished (static/scoring/saving.js, ``outdated``)."""
    response[DURING_HEADER] = str(game.during)
    response[FINISHED_HEADER] = finished_mark(game)
    return response


def say_revision(response: HttpResponse, game) -> HttpResponse:
    """The game's revision that the answer shows, and how the game stands (``say_game``)."""
    response[REVISION_HEADER] = str(game.revision)
    return say_game(response, game)


def say_session(response: HttpResponse, request: HttpRequest) -> HttpResponse:
    """The tag of the session the answer was made in (a refusal: the script tells a session that
    ended from a game that went)."""
    response[TAG_HEADER] = session_tag(request)
    return response
