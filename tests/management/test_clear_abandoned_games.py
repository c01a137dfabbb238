"""Specification of ``manage.py clear_abandoned_games`` (``services.visitors.abandoned_find`` and
``abandoned_delete``), run nightly after Django's ``clearsessions`` (docs/operations.md).

A visitor's game (started without an account) is reached only by the browser whose session holds
its visitor id, and by the holders of its live share links: a session that opened one, or an
account that joined through one (``scoring/access.py``). A game started more than ``--days``
days ago (30 unless told) that none of them reaches any more is deleted with everything it holds,
and the visitor's comb layouts with it; whatever something still reaches is kept, and so are
the accounts' games. ``--dry-run`` lists what would go and deletes nothing.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from datetime import timedelta
from importlib import import_module

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.utils import timezone

from scoring.actors import SESSION_LINKS, SESSION_VISITOR
from scoring.models import Change, CombLayout, Game, GameLink, GameMember, Seat
from scoring.rules.categories import During
from tests.support.factories import game_started, save_value, seat_of, user

pytestmark = pytest.mark.django_db

VISITOR = "v" * 32  # the visitor id of the browser that started the game
LONG_AGO = 200  # days: started long before the command's 30 days


def clear(*args: str) -> str:
    """Run the command as cron does (with ``args``): what it printed."""
    printed = io.StringIO()
    call_command("clear_abandoned_games", *args, stdout=printed)
    return printed.getvalue()


def started(*names: str, days_ago: int = LONG_AGO, visitor: str = VISITOR) -> Game:
    """A visitor's game started ``days_ago`` days ago, with a value typed in it."""
    game = game_started(*(names or ("Maya", "Tom")), visitor=visitor, during=During.BREAKDOWN)
    save_value(seat=seat_of(game, 1), key="farm_income", value=4)
    Game.objects.filter(pk=game.pk).update(created_at=timezone.now() - timedelta(days=days_ago))
    game.refresh_from_db()
    return game


def session(data: dict, *, expired: bool = False) -> None:
    """A browser's session holding ``data``, stored as Django stores it (unexpired unless told)."""
    browser = import_module(settings.SESSION_ENGINE).SessionStore()
    browser.update(data)
    browser.set_expiry(timezone.now() + timedelta(days=-1 if expired else settings.VISITOR_SESSION_AGE // 86400))
    browser.save()


def live_link(game: Game) -> GameLink:
    return GameLink.objects.create(game=game, access=GameLink.Access.EDIT)


def revoked_link(game: Game) -> GameLink:
    return GameLink.objects.create(game=game, access=GameLink.Access.EDIT, revoked_at=timezone.now())


def kept(game: Game) -> bool:
    return Game.objects.filter(pk=game.pk).exists()


# What may still reach a visitor's game started long ago, and whether the game is kept.
REACHED_BY: dict[str, tuple[Callable[[Game], object], bool]] = {
    "its visitor's session": (lambda game: session({SESSION_VISITOR: VISITOR}), True),
    "its visitor's session, expired (not cleared yet)": (
        lambda game: session({SESSION_VISITOR: VISITOR}, expired=True),
        False,
    ),
    "nothing: its session was cleared": (lambda game: None, False),
    "a session holding its live link": (
        lambda game: session({SESSION_LINKS: {game.public_id: [live_link(game).pk]}}),
        True,
    ),
    "a session holding its revoked link": (
        lambda game: session({SESSION_LINKS: {game.public_id: [revoked_link(game).pk]}}),
        False,
    ),
    "an expired session holding its live link": (
        lambda game: session({SESSION_LINKS: {game.public_id: [live_link(game).pk]}}, expired=True),
        False,
    ),
    "an account that joined through its live link": (
        lambda game: GameMember.objects.create(game=game, user=user("ann"), link=live_link(game)),
        True,
    ),
    "an account that joined through its revoked link": (
        lambda game: GameMember.objects.create(game=game, user=user("ann"), link=revoked_link(game)),
        False,
    ),
    "a live link nobody holds": (live_link, False),
}


@pytest.mark.parametrize("reached_by", REACHED_BY)
def test_a_visitors_game_is_kept_while_something_reaches_it_and_deleted_once_nothing_does(reached_by):
    game = started()
    reach, stays = REACHED_BY[reached_by]
    reach(game)

    clear()

    assert kept(game) is stays


def test_an_abandoned_game_goes_with_everything_it_holds():
    game = started()
    live_link(game)

    printed = clear()

    assert not kept(game)
    assert not Seat.objects.filter(game_id=game.pk).exists()
    assert not Change.objects.filter(game_id=game.pk).exists()
    assert not GameLink.objects.filter(game_id=game.pk).exists()
    assert printed.startswith("Deleted 1 game of visitors that nobody could reach any more, started before ")


def test_the_next_game_of_a_game_someone_reaches_is_kept_down_the_chain():
    """Game A shared and joined, finished, played again into B, then C: nobody has followed yet,
    the visitor's session has expired. A's holders are offered B, and B's would be offered C."""
    first, second, third = started("Maya"), started("Maya"), started("Maya")
    Game.objects.filter(pk=second.pk).update(played_after=first)
    Game.objects.filter(pk=third.pk).update(played_after=second)
    session({SESSION_LINKS: {first.public_id: [live_link(first).pk]}})

    clear()

    assert kept(first) and kept(second) and kept(third)


def test_the_next_game_of_an_abandoned_game_goes_with_it():
    first, second = started("Maya"), started("Maya")
    Game.objects.filter(pk=second.pk).update(played_after=first)

    clear()

    assert not kept(first) and not kept(second)


@pytest.mark.parametrize("unreadable", ["another key", "damaged data"])
def test_a_session_it_cannot_read_stops_it_before_anything_is_deleted(unreadable, settings):
    """Run as a crontab line without the site's settings (another key), or on a damaged session,
    every session it cannot read would look held by nobody: the command refuses, saying why."""
    held, abandoned = started(visitor="h" * 32), started()
    session({SESSION_VISITOR: "h" * 32})
    if unreadable == "damaged data":
        session({SESSION_VISITOR: "x" * 32})
        store = import_module(settings.SESSION_ENGINE).SessionStore
        store.get_model_class().objects.filter(session_data__isnull=False).exclude(
            session_key__in=list(store.get_model_class().objects.values_list("session_key", flat=True)[:1])
        ).update(session_data="not-a-session")
    else:
        settings.SECRET_KEY = "another-key-than-the-sites-0123456789-abcdefghijklmnopqrstuvwxyz"

    with pytest.raises(CommandError, match=r"^Nothing was deleted: 1 of the \d unexpired sessions cannot be read"):
        clear()

    assert kept(held) and kept(abandoned)


def test_a_game_started_fewer_days_ago_than_told_is_kept_whatever_holds_it():
    """A link sent to a phone that has not opened it yet still finds its game."""
    recent = started(days_ago=10)

    clear()
    assert kept(recent)

    clear("--days", "5")
    assert not kept(recent)


def test_the_accounts_games_and_the_games_of_nobody_are_never_deleted(owner):
    accounts = game_started("Ann", owner=owner)
    nobodys = game_started("Old", owner=None)
    Game.objects.update(created_at=timezone.now() - timedelta(days=LONG_AGO))

    clear("--days", "0")

    assert kept(accounts) and kept(nobodys)


def test_a_visitors_comb_layouts_go_with_the_visitor():
    gone = CombLayout.objects.create(visitor=VISITOR, name="Club comb")
    other = "w" * 32
    still_here = CombLayout.objects.create(visitor=other, name="Club comb")
    CombLayout.objects.update(updated_at=timezone.now() - timedelta(days=LONG_AGO))
    session({SESSION_VISITOR: other})

    printed = clear()

    assert list(CombLayout.objects.all()) == [still_here]
    assert not CombLayout.objects.filter(pk=gone.pk).exists()
    assert "Deleted 1 comb layout of those visitors." in printed


def test_a_dry_run_lists_what_would_go_and_deletes_nothing():
    abandoned = started("Maya", "Tom")
    reached = started("Zoé", visitor="w" * 32)
    session({SESSION_VISITOR: "w" * 32})
    CombLayout.objects.create(visitor=VISITOR, name="Club comb")
    CombLayout.objects.update(updated_at=timezone.now() - timedelta(days=LONG_AGO))

    printed = clear("--dry-run")

    lines = printed.splitlines()
    assert lines[0].split() == [
        abandoned.public_id,
        *f"{timezone.localtime(abandoned.created_at):%Y-%m-%d %H:%M}".split(),
        "Maya,",
        "Tom",
    ]
    assert reached.public_id not in printed
    assert lines[1].startswith("Would delete 1 game of visitors that nobody can reach any more, started before ")
    assert lines[2] == "Would delete 1 comb layout of those visitors."
    assert kept(abandoned) and CombLayout.objects.count() == 1


def test_the_command_speaks_french_when_asked():
    from django.utils import translation

    started()
    with translation.override("fr"):
        printed = clear("--dry-run")

    assert "Supprimerait 1\u00a0partie" in printed
