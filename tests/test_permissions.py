"""Who may do what with a game (``scoring/access.py``), through the real views.

A game belongs to its owner and is addressed by its public id. Besides the owner, whoever holds
one of its live share links may reach it: an edit link scores the game (pad, save, live, finish,
results, export, undo, and its holder says which player they are: a question the owner is never
asked), a view link only watches it (GET of pad, live, results and export; any write answers
403). Deleting the game, renewing or revoking its links and playing again (the start form filled
in with its players) are the owner's alone. Anyone else
(another account, a stranger, the holder of a revoked link) gets 404, exactly as for a game that
does not exist; the holder of a revoked link is told why.

The matrix below is the whole rule: every address of a game, for every kind of visitor, with the
exact status of the answer. A refusal (403, 404) changes nothing that is stored: the game, its
seats, tokens, links, members and change history are compared before and after.
"""

from __future__ import annotations

import copy
import html
import itertools
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from django.core.cache import caches
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, get_resolver, reverse

from scoring.actors import Actor
from scoring.models import Change, CombLayout, Game, GameLink, GameMember, GameSector, HibernationTokens, Seat
from scoring.services.games import PlayerSetup, comb_layout_save, game_delete, game_start
from scoring.services.sharing import link_renew, link_revoke
from scoring.services.visitors import visitor_games_claim
from tests.support.factories import game_scored, game_started, player, save_value, seat_of, user
from tests.support.pages import form_data, page, started_on, typed

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
SCRIPT = {"Accept": "text/plain, text/html;q=0.9"}  # the pad's script: no HX-Request, prefers a plain sentence
REVOKED = "The link you opened this game with was revoked by its owner, or the game was deleted."
DEAD_LINK = "This link does not work (any more): ask the game’s owner for a new one."
VIEW_ONLY = "This link only lets you watch the game: it cannot change anything."


# ---------------------------------------------------------------------------------------------
# The table: the owner's game of Alice and Bruno, with a live edit link, a live view link, an
# edit link revoked since (renewed), and one change (Alice's farms, typed by the owner) to undo.


@dataclass
class Table:
    game: Game
    edit: GameLink  # live
    view: GameLink  # live
    old_edit: GameLink  # revoked: replaced by ``edit``
    change: Change
    owner_phone: Client | None = None  # the owner's phone, when it is not an account's (a visitor's)

    def url(self, name: str, *args) -> str:
        return reverse(f"scoring:{name}", args=[self.game.public_id, *args])


ACTORS = ["owner", "edit link", "view link", "other user", "stranger", "revoked link"]


def set_table(owner, actor: str) -> tuple[Table, Client]:
    """The table, and the phone of ``actor`` as it is when the request is sent."""
    game = game_started("Alice", "Bruno", owner=owner)
    change = save_value(seat=seat_of(game, 1), key="farms", value=4, by=Actor(user=owner)).change
    view = link_renew(game=game, access="view")
    old_edit = link_renew(game=game, access="edit")
    phone = Client()
    if actor == "revoked link":
        assert phone.get(reverse("scoring:join", args=[old_edit.token])).status_code == 302  # opened while live
    edit = link_renew(game=game, access="edit")  # the owner renewed it: the old one stops working
    if actor == "owner":
        phone.force_login(owner)
    elif actor == "other user":
        phone.force_login(user("stranger"))
    elif actor in ("edit link", "view link"):
        token = edit.token if actor == "edit link" else view.token
        assert phone.get(reverse("scoring:join", args=[token])).status_code == 302
    old_edit.refresh_from_db()
    assert old_edit.revoked_at is not None
    return Table(game, edit, view, old_edit, change), phone


def stored(game_pk: int) -> dict:
    """Everything stored about a game: the game, its sectors, seats (every entry, sum, version),
    tokens, links, members and changes."""
    return {
        "game": list(Game.objects.filter(pk=game_pk).values()),
        "sectors": list(GameSector.objects.filter(game_id=game_pk).order_by("position").values()),
        "seats": list(Seat.objects.filter(game_id=game_pk).order_by("number").values()),
        "tokens": sorted(
            HibernationTokens.objects.filter(seat__game_id=game_pk).values_list("seat_id", "sector_id", "count")
        ),
        "links": list(GameLink.objects.filter(game_id=game_pk).order_by("pk").values()),
        "members": list(GameMember.objects.filter(game_id=game_pk).order_by("pk").values("user_id", "link_id")),
        "changes": list(Change.objects.filter(game_id=game_pk).order_by("pk").values()),
    }


# ---------------------------------------------------------------------------------------------
# Every request a phone can send about a game. A plain form post (no JavaScript) posts the pad
# as the owner's phone showed it, with one field typed into.


def pad_typed(table: Table) -> dict:
    owners = table.owner_phone
    if owners is None:
        owners = Client()
        owners.force_login(table.game.owner)
    return typed(form_data(page(owners.get(table.url("pad"))).by_id("pad")), {"s2-farms": "3"})


def one_save(**extra) -> dict:
    return {"field": "s2-farms", "value": "3", "version": "0", "page": "phone", "seq": "1", **extra}


def next_game_started(table: Table) -> None:
    """The owner starts the table's next game with *Play again* (what following it needs), with
    the game played's row put back as it was (starting moves its revision on, for the polls): the
    cell sees what following writes, and only that."""
    played = Game.objects.values("revision", "fingerprint").get(pk=table.game.pk)
    game = table.game
    game_start(players=[PlayerSetup("Bruno")], after=game, owner=game.owner, visitor=game.visitor)
    Game.objects.filter(pk=game.pk).update(**played)


Request = Callable[[Client, Table], object]

REQUESTS: dict[str, Request] = {
    "pad GET": lambda c, t: c.get(t.url("pad")),
    "pad POST (no JS)": lambda c, t: c.post(t.url("pad"), pad_typed(t)),
    "save (htmx)": lambda c, t: c.post(t.url("save"), one_save(), headers=HTMX),
    "save (script)": lambda c, t: c.post(t.url("save"), one_save(), headers=SCRIPT),
    "save (no HX-Request)": lambda c, t: c.post(t.url("save"), one_save()),
    "save a step (htmx)": lambda c, t: c.post(
        t.url("save"), {"field": "s2-farms", "step": "1", "version": "0"}, headers=HTMX
    ),
    "live GET": lambda c, t: c.get(t.url("live")),
    "live GET (htmx)": lambda c, t: c.get(t.url("live"), headers=HTMX),
    "results GET": lambda c, t: c.get(t.url("results")),
    "length POST": lambda c, t: c.post(t.url("length"), {"minutes": "85"}),
    "again GET": lambda c, t: c.get(t.url("again")),
    "table GET": lambda c, t: c.get(t.url("table")),
    "next POST (none started)": lambda c, t: c.post(t.url("next")),
    "next POST": lambda c, t: (next_game_started(t), c.post(t.url("next")))[1],
    "table GET (htmx)": lambda c, t: c.get(t.url("table"), headers=HTMX),
    "reopen POST": lambda c, t: c.post(t.url("reopen")),
    "finish POST": lambda c, t: c.post(t.url("finish"), {"confirm": "1"}),
    "finish POST (htmx)": lambda c, t: c.post(t.url("finish"), {"confirm": "1"}, headers=HTMX),
    "during GET": lambda c, t: c.get(t.url("during")),
    "during POST": lambda c, t: c.post(t.url("during"), {"during": "track"}),
    "during POST (htmx)": lambda c, t: c.post(t.url("during"), {"during": "track"}, headers=HTMX),
    "delete GET": lambda c, t: c.get(t.url("delete")),
    "delete POST": lambda c, t: c.post(t.url("delete")),
    "delete POST (htmx)": lambda c, t: c.post(t.url("delete"), headers=HTMX),
    "export GET": lambda c, t: c.get(t.url("export")),
    "undo POST": lambda c, t: c.post(t.url("undo", t.change.pk)),
    "undo POST (htmx)": lambda c, t: c.post(t.url("undo", t.change.pk), headers=HTMX),
    "edit link new POST": lambda c, t: c.post(t.url("link", "edit", "new")),
    "edit link revoke POST": lambda c, t: c.post(t.url("link", "edit", "revoke"), {"confirm": "1"}),
    "edit link revoke POST (asks first)": lambda c, t: c.post(t.url("link", "edit", "revoke")),
    "view link new POST": lambda c, t: c.post(t.url("link", "view", "new")),
    "view link revoke POST": lambda c, t: c.post(t.url("link", "view", "revoke"), {"confirm": "1"}),
    "name POST": lambda c, t: c.post(t.url("name"), {"name": "Bruno's phone"}),
    "who GET": lambda c, t: c.get(t.url("who")),
    "who POST": lambda c, t: c.post(t.url("who"), {"seat": "2"}),
    "join the edit link": lambda c, t: c.get(reverse("scoring:join", args=[t.edit.token])),
    "join the view link": lambda c, t: c.get(reverse("scoring:join", args=[t.view.token])),
    "join a revoked link": lambda c, t: c.get(reverse("scoring:join", args=[t.old_edit.token])),
    "join the edit link POST": lambda c, t: c.post(reverse("scoring:join", args=[t.edit.token])),
    "join the view link POST": lambda c, t: c.post(reverse("scoring:join", args=[t.view.token])),
    "join a revoked link POST": lambda c, t: c.post(reverse("scoring:join", args=[t.old_edit.token])),
}

# The rule. Columns: owner, edit link, view link, other user, stranger, revoked link.
MATRIX = [
    # request                  owner edit view other stranger revoked
    ("pad GET", 200, 200, 200, 404, 404, 404),
    ("pad POST (no JS)", 302, 302, 403, 404, 404, 404),
    ("save (htmx)", 200, 200, 403, 404, 404, 404),
    ("save (script)", 200, 200, 403, 404, 404, 404),
    ("save (no HX-Request)", 200, 200, 403, 404, 404, 404),  # (the same partials: no page to go back to)
    ("save a step (htmx)", 200, 200, 403, 404, 404, 404),
    ("live GET", 200, 200, 200, 404, 404, 404),
    ("live GET (htmx)", 200, 200, 200, 286, 286, 286),  # (htmx's "stop polling": the pad polls it)
    ("results GET", 200, 200, 200, 404, 404, 404),
    ("length POST", 409, 403, 403, 404, 404, 404),  # (a finished play's length, its owner's: not in progress)
    ("again GET", 200, 403, 403, 404, 404, 404),  # (the next game is the owner's table's: no link's)
    ("table GET", 200, 200, 200, 404, 404, 404),
    ("next POST (none started)", 404, 404, 404, 404, 404, 404),
    ("next POST", 302, 302, 302, 404, 404, 404),  # (following the table: each to its role's link)
    ("table GET (htmx)", 200, 200, 200, 286, 286, 286),  # (its standings are polled too)
    ("reopen POST", 302, 403, 403, 404, 404, 404),  # (changing a finished game: its owner's act)
    ("finish POST", 302, 302, 403, 404, 404, 404),
    ("finish POST (htmx)", 302, 302, 403, 404, 404, 404),
    ("during GET", 200, 200, 403, 404, 404, 404),
    ("during POST", 302, 302, 403, 404, 404, 404),
    ("during POST (htmx)", 302, 302, 403, 404, 404, 404),
    ("delete GET", 200, 403, 403, 404, 404, 404),
    ("delete POST", 302, 403, 403, 404, 404, 404),
    ("delete POST (htmx)", 302, 403, 403, 404, 404, 404),
    ("export GET", 200, 200, 200, 404, 404, 404),
    ("undo POST", 302, 302, 403, 404, 404, 404),
    ("undo POST (htmx)", 200, 200, 403, 404, 404, 404),
    ("edit link new POST", 302, 403, 403, 404, 404, 404),
    ("edit link revoke POST", 302, 403, 403, 404, 404, 404),
    ("edit link revoke POST (asks first)", 200, 403, 403, 404, 404, 404),
    ("view link new POST", 302, 403, 403, 404, 404, 404),
    ("view link revoke POST", 302, 403, 403, 404, 404, 404),
    ("name POST", 302, 302, 403, 404, 404, 404),
    ("who GET", 302, 200, 403, 404, 404, 404),  # (the owner is never asked: to the pad)
    ("who POST", 302, 302, 403, 404, 404, 404),
    # (an account that is not yet a member is asked first: it joins by the page's button, a post)
    ("join the edit link", 302, 302, 302, 200, 302, 302),
    ("join the view link", 302, 302, 302, 200, 302, 302),
    ("join a revoked link", 404, 404, 404, 404, 404, 404),
    ("join the edit link POST", 302, 302, 302, 302, 302, 302),
    ("join the view link POST", 302, 302, 302, 302, 302, 302),
    ("join a revoked link POST", 404, 404, 404, 404, 404, 404),
]


def assert_answered(response, status: int, table, before) -> None:
    """The matrix's answer: the status of its cell; a refusal changed nothing stored, and a 404
    shows nothing of the game."""
    assert response.status_code == status, response.content[:300]
    if status in (403, 404, 286) or response.request["REQUEST_METHOD"] == "GET":
        assert stored(table.game.pk) == before, "a refused request, or a GET, changed what is stored"
    if status in (404, 286):
        body = response.content.decode()
        assert "Alice" not in body and "Bruno" not in body  # nothing of the game shows


@contextmanager
def undone(*phones: Client):
    """One cell of the matrix, then everything it wrote undone (a savepoint rolled back: the game,
    its links, the sessions, the rate limits' counts), and what the phones kept with it (their
    cookies, the poll answers made): each cell of an actor's row starts from the same table."""
    cookies = [copy.deepcopy(phone.cookies) for phone in phones]
    try:
        with transaction.atomic():
            yield
            transaction.set_rollback(True)
    finally:
        for phone, kept in zip(phones, cookies, strict=True):
            phone.cookies = kept
        caches["pad"].clear()


def run_row(subtests, table: Table, phone: Client, statuses: dict[str, int], also=None) -> None:
    """Every request of the matrix sent by one actor's phone (``statuses``: each request's status),
    each from the same table (``undone``), and ``also`` checked of each answer; a cell that fails
    is reported under its request's name, and the row goes on."""
    phones = [phone] if table.owner_phone in (None, phone) else [phone, table.owner_phone]
    before = stored(table.game.pk)
    for request_name, status in statuses.items():
        with subtests.test(request=request_name), undone(*phones):
            response = REQUESTS[request_name](phone, table)
            assert_answered(response, status, table, before)
            if also is not None:
                also(request_name, response)


def row_of(actor: str) -> dict[str, int]:
    """The matrix's statuses for ``actor`` (one of ``ACTORS``), by request."""
    return {request: dict(zip(ACTORS, statuses, strict=True))[actor] for request, *statuses in MATRIX}


@pytest.mark.parametrize("actor", ACTORS)
def test_permission_matrix(owner, actor, subtests):
    table, phone = set_table(owner, actor)

    def join_goes_on(request_name, response):  # an edit link's holder is asked which player they are
        if request_name.startswith("join") and response.status_code == 302:
            asked = (request_name.startswith("join the edit link") and actor != "owner") or actor == "edit link"
            assert response["Location"] == table.url("who" if asked else "pad")

    run_row(subtests, table, phone, row_of(actor), also=join_goes_on)


def test_the_matrix_covers_every_address_of_a_game():
    """A new address of a game must find its place in the matrix (every pattern naming a game)."""
    patterns = [p for p in get_resolver().url_patterns if isinstance(p, URLPattern)]
    for included in get_resolver().url_patterns:
        patterns += [p for p in getattr(included, "url_patterns", []) if isinstance(p, URLPattern)]
    game_urls = {p.name for p in patterns if "game_id" in p.pattern.converters or p.name == "join"}
    covered = {
        "pad",
        "save",
        "live",
        "results",
        "length",
        "again",
        "table",
        "finish",
        "reopen",
        "during",
        "delete",
        "export",
        "undo",
        "link",
        "name",
        "who",
        "next",
        "join",
    }
    assert game_urls <= covered, game_urls - covered
    assert {row[0] for row in MATRIX} == set(REQUESTS)


def test_the_successful_writes_of_the_matrix_did_write():
    """The matrix's 2xx/3xx answers are real: the owner's and the edit link's saves store."""
    owner = user("owner")
    for actor in ("owner", "edit link"):
        table, phone = set_table(owner, actor)
        assert REQUESTS["save (htmx)"](phone, table).status_code == 200
        assert seat_of(table.game, 2).farms == 3
        change = Change.objects.filter(game=table.game).first()
        assert (change.by_user, change.by_link) == ((owner, None) if actor == "owner" else (None, table.edit))


# ---------------------------------------------------------------------------------------------
# A visitor's game (started without an account): the browser that started it has the owner's
# rights; every other browser, a visitor's of its own or an account's, is a stranger to it. The
# same matrix, read in the columns of those it stands for.

VISITOR_ACTORS = {"the visitor": "owner", "another visitor": "stranger", "an account": "other user"}


def set_visitor_table(actor: str) -> tuple[Table, Client]:
    """The table, its game started on a visitor's browser, and the phone of ``actor``."""
    visitor = Client()
    game = started_on(visitor, "Alice", "Bruno")
    change = save_value(seat=seat_of(game, 1), key="farms", value=4, by=Actor()).change  # typed by the visitor
    view = link_renew(game=game, access="view")
    old_edit = link_renew(game=game, access="edit")
    edit = link_renew(game=game, access="edit")
    phone = visitor
    if actor == "another visitor":
        phone = Client()
        started_on(phone, "Zelda")  # a browser with a visitor id, and a game, of its own
    elif actor == "an account":
        phone = Client()
        phone.force_login(user("stranger"))
    return Table(game, edit, view, old_edit, change, owner_phone=visitor), phone


@pytest.mark.parametrize("actor", list(VISITOR_ACTORS))
def test_permission_matrix_of_a_visitors_game(actor, subtests):
    table, phone = set_visitor_table(actor)

    run_row(subtests, table, phone, row_of(VISITOR_ACTORS[actor]))


def test_a_claimed_game_is_the_accounts_alone():
    """Once an account keeps the browser's games, the visitor id no longer opens them: only the
    account does (signing in on that browser is what claims them: ``tests/views/test_visitors.py``)."""
    table, visitor = set_visitor_table("the visitor")
    ann = user("ann")
    visitor_games_claim(visitor=table.game.visitor, user=ann)
    accounts = Client()
    accounts.force_login(ann)

    assert visitor.get(table.url("pad")).status_code == 404
    assert accounts.get(table.url("pad")).status_code == 200


# ---------------------------------------------------------------------------------------------
# A view link never writes


VIEW_WRITES = [
    "pad POST (no JS)",
    "save (htmx)",
    "save (script)",
    "save (no HX-Request)",
    "save a step (htmx)",
    "finish POST",
    "finish POST (htmx)",
    "during POST",
    "during POST (htmx)",
    "delete POST",
    "delete POST (htmx)",
    "undo POST",
    "undo POST (htmx)",
    "edit link new POST",
    "edit link revoke POST",
    "edit link revoke POST (asks first)",
    "view link new POST",
    "view link revoke POST",
    "name POST",
    "who POST",
    "reopen POST",
]


@pytest.mark.parametrize("request_name", VIEW_WRITES)
@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
def test_a_view_link_can_never_write(owner, request_name, signed_in):
    table, phone = set_table(owner, "view link")
    if signed_in:  # an account that joined through the view link is no more than a watcher
        phone.force_login(user("watcher"))
        assert phone.post(reverse("scoring:join", args=[table.view.token])).status_code == 302
    before = stored(table.game.pk)

    response = REQUESTS[request_name](phone, table)

    assert response.status_code == 403
    assert stored(table.game.pk) == before
    if "htmx" in request_name or "script" in request_name:
        assert response.content.decode() == VIEW_ONLY  # the sentence the pad shows, as it is
    else:
        assert VIEW_ONLY in response.content.decode()


def test_a_view_links_pad_is_read_only(owner):
    table, phone = set_table(owner, "view link")

    shown = page(phone.get(table.url("pad")))

    assert "data-readonly" in shown.one(data_pad=True).attrs


def test_holding_both_links_gives_the_edit_links_rights(owner):
    table, phone = set_table(owner, "view link")
    phone.get(reverse("scoring:join", args=[table.edit.token]))

    assert phone.post(table.url("save"), one_save(), headers=HTMX).status_code == 200


# ---------------------------------------------------------------------------------------------
# Owner-only actions refused to an edit link


@pytest.mark.parametrize("request_name", ["delete GET", "delete POST", "edit link new POST", "view link revoke POST"])
def test_an_edit_link_refused_an_owner_only_action_is_not_told_it_may_only_watch(owner, request_name):
    """An edit link scores the game: when it may not delete it or change its links, the reason
    given must not claim that the link only lets its holder watch."""
    table, phone = set_table(owner, "edit link")

    response = REQUESTS[request_name](phone, table)

    assert response.status_code == 403
    assert "only lets you watch" not in response.content.decode()


# ---------------------------------------------------------------------------------------------
# Revoking a link stops it at once


@pytest.mark.parametrize("how", ["revoke", "new"])
@pytest.mark.parametrize("headers", [HTMX, SCRIPT, {}], ids=["htmx", "script", "plain"])
def test_a_revoked_edit_link_stops_the_next_save_with_the_reason(owner, how, headers):
    table, phone = set_table(owner, "edit link")
    assert phone.post(table.url("save"), one_save(seq="1"), headers=HTMX).status_code == 200  # it worked
    owners = Client()
    owners.force_login(owner)
    assert owners.post(table.url("link", "edit", how), {"confirm": "1"}).status_code == 302  # revoked (or renewed)
    before = stored(table.game.pk)

    response = phone.post(table.url("save"), one_save(value="5", version="1", seq="2"), headers=headers)

    assert response.status_code == 404
    body = response.content.decode()
    if headers:
        assert body.startswith(REVOKED)  # the sentence the pad shows, as it is
        assert response["Content-Type"].startswith("text/plain")
    else:
        assert REVOKED in body
    assert stored(table.game.pk) == before
    assert seat_of(table.game, 2).farms == 3
    for request_name in ("pad GET", "live GET", "results GET", "export GET", "finish POST", "undo POST"):
        assert REQUESTS[request_name](phone, table).status_code == 404, request_name


def test_a_revoked_view_link_stops_the_next_poll(owner):
    table, phone = set_table(owner, "view link")
    assert phone.get(table.url("live"), headers=HTMX).status_code == 200
    link_revoke(game=table.game, access="view")

    response = phone.get(table.url("live"), headers=HTMX)

    assert response.status_code == 286  # htmx's "stop polling"
    assert response.content.decode().startswith(REVOKED)


def test_a_revoked_link_cannot_be_opened_again(owner):
    table, phone = set_table(owner, "edit link")
    link_revoke(game=table.game, access="edit")
    stranger = Client()

    response = stranger.get(reverse("scoring:join", args=[table.edit.token]))

    assert response.status_code == 404
    assert DEAD_LINK in html.unescape(response.content.decode())
    assert stranger.get(table.url("pad")).status_code == 404
    assert REVOKED in phone.get(table.url("pad")).content.decode()  # and who had opened it is told why


def test_a_signed_in_member_loses_the_game_on_every_phone_when_its_link_is_revoked(owner):
    """An account that joined through the edit link reaches the game from any phone (it is a
    member), until the link is revoked: then it is gone, from the pad and from its history."""
    ben = user("ben")
    table, first_phone = set_table(owner, "stranger")
    first_phone.force_login(ben)
    first_phone.post(reverse("scoring:join", args=[table.edit.token]))
    second_phone = Client()
    second_phone.force_login(ben)  # a new session: no link opened in it
    assert second_phone.post(table.url("save"), one_save(), headers=HTMX).status_code == 200
    assert table.url("pad") in second_phone.get(reverse("scoring:history")).content.decode()

    link_revoke(game=table.game, access="edit")

    assert second_phone.post(table.url("save"), one_save(value="5", seq="2"), headers=HTMX).status_code == 404
    assert first_phone.get(table.url("pad")).status_code == 404
    assert table.url("pad") not in second_phone.get(reverse("scoring:history")).content.decode()


def test_a_deleted_game_answers_404_to_the_phones_of_its_links(owner):
    table, phone = set_table(owner, "edit link")
    game_delete(game=table.game)

    response = phone.post(table.url("save"), one_save(), headers=HTMX)

    assert response.status_code == 404
    assert not Game.objects.filter(pk=table.game.pk).exists()


# ---------------------------------------------------------------------------------------------
# Reaching into another game


def test_undoing_a_change_of_another_game_through_this_games_address_is_404(owner):
    """The change's number belongs to the owner's other game: no game's address reaches it."""
    table, phone = set_table(owner, "edit link")
    other = game_started("Carla", owner=owner)
    foreign = save_value(seat=seat_of(other, 1), key="farms", value=9, by=Actor(user=owner)).change
    before, other_before = stored(table.game.pk), stored(other.pk)

    owners = Client()
    owners.force_login(owner)  # even the owner of both games
    for client in (phone, owners):
        assert client.post(table.url("undo", foreign.pk)).status_code == 404

    assert (stored(table.game.pk), stored(other.pk)) == (before, other_before)


def test_a_link_of_one_game_does_not_open_another_game_of_the_same_owner(owner):
    _table, phone = set_table(owner, "edit link")
    other = game_started("Carla", owner=owner)

    assert phone.get(reverse("scoring:pad", args=[other.public_id])).status_code == 404
    assert (
        phone.post(
            reverse("scoring:save", args=[other.public_id]), {"field": "s1-farms", "value": "3"}, headers=HTMX
        ).status_code
        == 404
    )
    assert seat_of(other, 1).farms is None


@pytest.mark.parametrize("kind, action", [("owner", "new"), ("edit", "delete"), ("view", "")])
def test_the_link_address_knows_only_edit_and_view_new_and_revoke(owner, kind, action):
    table, phone = set_table(owner, "owner")
    before = stored(table.game.pk)

    response = phone.post(f"/games/{table.game.public_id}/links/{kind}/{action}/")

    assert response.status_code == 404
    assert stored(table.game.pk) == before


# ---------------------------------------------------------------------------------------------
# The game's address


def test_the_public_id_is_long_random_and_url_safe(owner):
    games = [game_started("Alice", owner=owner) for _ in range(20)]
    ids = [game.public_id for game in games]

    assert all(len(public_id) >= 22 for public_id in ids)
    assert len(set(ids)) == len(ids)
    assert all(
        set(public_id) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") for public_id in ids
    )
    assert all(str(game.pk) != public_id for game, public_id in zip(games, ids, strict=True))
    # Not a counter: consecutive games share no common start (random ids almost never share 5 characters).
    assert all(a[:5] != b[:5] for a, b in itertools.pairwise(ids))
    assert sorted(ids) != ids  # nor in the order the games were made


@pytest.mark.parametrize("name", ["pad", "live", "results", "export", "delete"])
def test_a_games_database_number_is_no_address_even_for_its_owner(owner_client, owner, name):
    game = game_started("Alice", owner=owner)

    assert owner_client.get(f"/games/{game.pk}/" + ("" if name == "pad" else f"{name}/")).status_code == 404
    assert owner_client.get(reverse(f"scoring:{name}", args=[game.public_id])).status_code == 200


def test_saving_by_database_number_is_404_and_writes_nothing(owner_client, owner):
    game = game_started("Alice", owner=owner)
    before = stored(game.pk)

    response = owner_client.post(f"/games/{game.pk}/save/", {"field": "s1-farms", "value": "3"}, headers=HTMX)

    assert response.status_code == 404
    assert response.content == b""  # not found, and nothing more to say
    assert stored(game.pk) == before


# ---------------------------------------------------------------------------------------------
# History, players and the start form are one account's


def test_a_visitor_sees_nothing_of_an_accounts_and_is_sent_to_sign_in_for_its_pages(client, owner):
    """A visitor (no account) may start games of its own (``tests/views/test_visitors.py``), but
    sees nothing of an account's, and the account's pages ask to sign in."""
    game_started("Alice", owner=owner)
    comb_layout_save(name="Owner's comb", sectors=[(9, 4)], owner=owner)

    for name in ("history", "start"):
        response = client.get(reverse(f"scoring:{name}"))
        body = response.content.decode()
        assert response.status_code == 200 and "Alice" not in body and "Owner&#x27;s comb" not in body, name
    for name in ("players", "statistics", "data"):
        response = client.get(reverse(f"scoring:{name}"))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login") + "?next=")


def test_another_account_sees_nothing_of_the_owners_games_players_and_layouts(owner, other_user):
    mine = game_scored(player("Alice", farm_income=30), player("Bruno", farm_income=20), owner=owner, finished=True)
    comb_layout_save(name="Owner's comb", sectors=[(9, 4)], owner=owner)
    stranger = Client()
    stranger.force_login(other_user)

    history = stranger.get(reverse("scoring:history")).content.decode()
    players = stranger.get(reverse("scoring:players")).content.decode()
    start = stranger.get(reverse("scoring:start")).content.decode()

    assert mine.public_id not in history and "Alice" not in history
    assert "Alice" not in players and "Bruno" not in players
    assert "Alice" not in start and "Owner&#x27;s comb" not in start and "Owner's comb" not in start
    assert CombLayout.objects.filter(owner=other_user).count() == 0
