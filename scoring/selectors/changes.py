"""A game's recent changes, and its finishing and reopening among them, for the pad's history."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import (
    BooleanField,
    Exists,
    ExpressionWrapper,
    OuterRef,
    Q,
)

from scoring.models import (
    Change,
    Game,
    GameEvent,
    Seat,
)


def game_change(game: Game, change_id: int) -> Change | None:
    """One change of the game, with its seat (None: no such change in this game)."""
    return Change.objects.select_related("seat").filter(pk=change_id, game=game).first()


def recent_changes(game: Game, limit: int = 8) -> list[Change | GameEvent]:
    """The game's latest changes, newest first, with who made them, whether a later change undid
    them (``is_undone``) and whether they are still their value's latest (``is_latest``: only
    then can they be undone, ``services.pad.change_undo``), and whether a visitor made it, the owner
    of a game started without an account (``by_visitor``); among them the game's finishing and
    reopening (``GameEvent``), for the pad's history: two statements."""
    later = Change.objects.filter(seat=OuterRef("seat"), field=OuterRef("field"), pk__gt=OuterRef("pk"))
    changes = list(
        Change.objects.filter(game=game)
        .select_related("seat", "by_user")
        .only(
            "field",
            "old",
            "new",
            "at",
            "by_name",
            "by_link_holder",
            "seat__name",
            "by_user__first_name",
            "by_user__last_name",
        )
        .annotate(
            is_undone=Exists(Change.objects.filter(undoes=OuterRef("pk"))),
            is_latest=~Exists(later),
            by_visitor=_by_visitor(),
        )[:limit]
    )
    events = list(_events(game)[:limit])
    return sorted([*changes, *events], key=lambda item: item.at, reverse=True)[:limit]


def finish_event(game: Game) -> GameEvent | None:
    """Who finished the game, and when (None for a game not finished, or finished before games
    said who: an import, an older game)."""
    if not game.is_finished:
        return None
    return _events(game).filter(what=GameEvent.What.FINISHED).first()


def _events(game: Game):
    return (
        GameEvent.objects.filter(game=game)
        .select_related("by_user")
        .only("what", "minutes", "at", "by_name", "by_link_holder", "by_user__first_name", "by_user__last_name")
        .annotate(by_visitor=_by_visitor())
    )


def _by_visitor() -> ExpressionWrapper:
    """Whether the owner of a game started without an account (a visitor) did it."""
    return ExpressionWrapper(Q(game__visitor__isnull=False, by_link_holder=False), output_field=BooleanField())


@dataclass(frozen=True)
class PlayFacts:
    """What a play needs beyond the results' Scoreboard: when the first value of the game was
    entered (its first ``Change``), when the table first finished it (its first ``GameEvent`` of
    finishing: a game reopened to be corrected and finished again ended the first time; none for
    a game finished before the events were kept), and the name key of each seat's player record,
    by seat number (the seats of a game of an account; a visitor's have no player records)."""

    first_entry: datetime | None = None
    first_finish: datetime | None = None
    player_keys: dict[int, str] = field(default_factory=dict)


def play_facts(game: Game) -> PlayFacts:
    """The game's ``PlayFacts``, read in three statements."""
    first = Change.objects.filter(game=game).order_by("at").values_list("at", flat=True).first()
    finish = (
        GameEvent.objects.filter(game=game, what=GameEvent.What.FINISHED)
        .order_by("at")
        .values_list("at", flat=True)
        .first()
    )
    keys = Seat.objects.filter(game=game, player__isnull=False).values_list("number", "player__name_key")
    return PlayFacts(first_entry=first, first_finish=finish, player_keys=dict(keys))
