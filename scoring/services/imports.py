"""Games stored from game files (an import, a restore, the commands): every seat, token and
change at once, in batches that let the table's saves through, and the fingerprints by which an
import knows a game it holds already."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone

from scoring.fields import WORKERS, tokens_key
from scoring.gamefile import GameData, field_of_entry, game_fingerprint, text_of_value
from scoring.models import (
    Change,
    Game,
    GameSector,
    HibernationTokens,
    Player,
    Seat,
)
from scoring.rules.categories import During, categories_of
from scoring.rules.sums import evaluate_sum
from scoring.selectors.games import game_data, games_with_everything
from scoring.selectors.imports import fingerprints_stored
from scoring.services.outcomes import outcome_fields
from scoring.services.people import players_attach
from scoring.services.tallies import tallies_follow


def game_store(data: GameData, *, finished: bool = False, owner=None, visitor: str | None = None) -> Game:
    """Store one game from game-file data (``games_store`` of one game)."""
    return games_store([data], finished=finished, owner=owner, visitor=visitor)[0]


@transaction.atomic
def games_store(
    games: Sequence[GameData], *, finished: bool = False, owner=None, visitor: str | None = None
) -> list[Game]:
    """Store games from game-file data, all of them in a few statements whatever their number:
    each game, its sectors, seats and tokens, its outcome (scored by the engine from the data)
    and its change history when it has one; then the tallies, once, when the games are finished.

    The players' entries cannot say "not entered" (they count it as 0) nor the sum an entry was
    typed as; the history can. A field whose last change left it empty, and that the entries
    give as 0, is stored as not entered; a field whose last change typed a sum that makes the
    entry keeps that sum. So an imported game shows as it was exported, and its last changes
    can be undone.

    A game keeps the times its file gives (started, finished); a game the file gives no finish is
    finished now, when ``finished``.

    The games are ``owner``'s, or ``visitor``'s (a browser without an account: no players and
    no tallies until an account claims them, ``visitor_games_claim``), or nobody's.
    """
    today = timezone.localdate()
    now = timezone.now()
    rows = Game.objects.bulk_create(
        Game(
            owner=owner,
            visitor=visitor,
            played_on=data.played_on or today,
            notes=data.notes,
            play_minutes=data.play_minutes,
            end_trigger_token=data.end_trigger_token,
            during_mode=During(data.during).value,
            finished_at=(data.finished_at or now) if finished else None,
            fingerprint=game_fingerprint(data, undated_as=today),
        )
        for data in games
    )
    # A game's own start, as its file says it (the insert gave it the time of the import); a
    # finished game whose file says no start started at the latest when it was finished.
    started = []
    for game, data in zip(rows, games, strict=True):
        start = data.started_at or (min(game.created_at, game.finished_at) if game.finished_at else None)
        if start is not None and start != game.created_at:
            game.created_at = start
            started.append(game)
    if started:
        Game.objects.bulk_update(started, ["created_at"])
    sectors = GameSector.objects.bulk_create(
        GameSector(game=game, position=position, first_vp=sector.first, second_vp=sector.second)
        for game, data in zip(rows, games, strict=True)
        for position, sector in enumerate(data.comb)
    )
    sectors_of: dict[int, list[GameSector]] = {game.pk: [] for game in rows}
    for sector in sectors:
        sectors_of[sector.game_id].append(sector)
    people = players_attach(owner, [data.players for data in games])  # none for games of nobody
    shown = [_last_shown(data) for data in games]
    seats = Seat.objects.bulk_create(
        seat
        for game, data, players, last in zip(rows, games, people, shown, strict=True)
        for seat in _seats(game, data, players, last)
    )
    seats_of: dict[int, list[Seat]] = {game.pk: [] for game in rows}
    for seat in seats:
        seats_of[seat.game_id].append(seat)
    HibernationTokens.objects.bulk_create(
        tokens
        for game, data, last in zip(rows, games, shown, strict=True)
        for tokens in _tokens(data, seats_of[game.pk], sectors_of[game.pk], last)
    )
    history = [(game, data) for game, data in zip(rows, games, strict=True) if data.changes]
    if history:
        _changes_store(history, seats_of)
    if finished and owner is not None:
        tallies_follow(seats, owner_id=owner.pk, counted=True)
    return rows


def _last_shown(data: GameData) -> dict[tuple[int, str], object]:
    """What the history's last change of each (seat number, field key) left the field showing."""
    return {(change.player, field_of_entry(change.entry)): change.new for change in data.changes}


def _as_stored(value, where: tuple[int, str], shown: dict[tuple[int, str], object]):
    """An entry of the file as the field stores it: not entered (None) where the file gives 0
    and the history's last change of the field left it empty; the value otherwise."""
    left_empty = where in shown and shown[where] is None
    return None if value == 0 and not isinstance(value, bool) and left_empty else value


def _seats(
    game: Game, data: GameData, people: dict[int, Player | None], shown: dict[tuple[int, str], object]
) -> list[Seat]:
    """The game's seats, not stored yet, with their entries and their outcome (the engine's);
    ``shown``: what the history last left each field showing (``_last_shown``)."""

    def typed_sums(number: int, entries: dict) -> dict[str, str]:
        sums = {}
        for key, value in entries.items():
            typed = shown.get((number, key))
            if isinstance(typed, str) and not isinstance(value, bool) and evaluate_sum(typed) == value:
                sums[key] = typed
        return sums

    result = data.score()
    counted = {category.key for category in categories_of(data.during)}  # the other way's stay not entered
    return [
        Seat(
            game=game,
            player=people[player.seat],
            number=player.seat,
            name=player.name,
            name_key=Seat.key_for(player.name),
            faction=player.faction,
            is_automa=player.automa,
            active_workers=_as_stored(player.active_workers, (player.seat, WORKERS), shown),
            sums=typed_sums(player.seat, entries),
            **{key: _as_stored(value, (player.seat, key), shown) for key, value in entries.items()},
            **outcome_fields(outcome),
        )
        for player, outcome in zip(data.players, result.players, strict=True)
        for entries in [{key: value for key, value in player.entries.items() if key in counted}]
    ]


def _tokens(
    data: GameData, seats: Sequence[Seat], sectors: Sequence[GameSector], shown: dict[tuple[int, str], object]
) -> list[HibernationTokens]:
    """The tokens each player placed (a player with no tokens given has none entered yet)."""
    return [
        HibernationTokens(seat=seat, sector=sector, count=count)
        for seat, player in zip(seats, data.players, strict=True)
        if player.hibernation
        for sector, count in zip(sectors, player.hibernation, strict=True)
        if _as_stored(count, (player.seat, tokens_key(sector.position)), shown) is not None
    ]


def _changes_store(history: Sequence[tuple[Game, GameData]], seats_of: dict[int, list[Seat]]) -> None:
    """The change histories, each in its order; their authors in words only (no account or link
    is recreated) and marked as a link holder's where they were, and each undo pointing at the
    change it undid."""
    rows = Change.objects.bulk_create(
        Change(
            game=game,
            seat=seat_of[change.player],
            field=field_of_entry(change.entry),
            old=text_of_value(change.old),
            new=text_of_value(change.new),
            at=change.at,
            by_name=change.by,
            by_link_holder=change.by_link,
        )
        for game, data in history
        for seat_of in [{seat.number: seat for seat in seats_of[game.pk]}]
        for change in data.changes
    )
    undos = []
    first = 0
    for _game, data in history:
        changes = rows[first : first + len(data.changes)]
        for row, change in zip(changes, data.changes, strict=True):
            if change.undoes is not None:
                row.undoes = changes[change.undoes]
                undos.append(row)
        first += len(data.changes)
    Change.objects.bulk_update(undos, ["undoes"])


IMPORT_BATCH = 50  # games stored in one transaction: a few tens of milliseconds of the write lock
# On SQLite, after each batch the import waits this long before taking the write lock again. A
# writer that found the lock taken (a save of another table) does not queue for it: SQLite's
# busy handler sleeps and looks again, at most 100 ms later. Without the wait, batch after batch
# would take the lock back each time within microseconds, and the save would wait for the whole
# import. (PostgreSQL queues the writers of each row: no wait there.)
SQLITE_LOCK_GIVEN_BACK = 0.1


@dataclass(frozen=True)
class ImportResult:
    added: int  # games stored
    skipped: int  # games the owner had already (or held twice in the document)


def games_import(
    games: Sequence[GameData],
    *,
    owner=None,
    batch: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ImportResult:
    """Store the games of a checked document for ``owner``, ``batch`` games at a time, each batch
    its own short transaction: other tables' saves wait for one batch at most (on SQLite the
    import gives the lock back between batches: ``SQLITE_LOCK_GIVEN_BACK``), and
    an import interrupted half-way (a worker timed out, a server stopped) keeps the batches
    stored and continues where it stopped when run again. ``progress(done, total)`` is called
    after each batch.

    A game the owner already has is not stored again: one whose fingerprint
    (``gamefile.fingerprints.game_fingerprint``, docs/game-file.md "Importing the same games twice") is that
    of one of the owner's stored games (owner None: of the games of nobody), a game stored by an
    earlier batch included. So the same game held twice by a document is stored once, and two
    imports of one file run at once store its games once.
    """
    batch = batch or IMPORT_BATCH
    fingerprints_fill(owner)
    added = 0
    for start in range(0, len(games), batch):
        if start and connection.vendor == "sqlite":
            time.sleep(SQLITE_LOCK_GIVEN_BACK)
        added += len(_batch_import(games[start : start + batch], owner=owner))
        if progress is not None:
            progress(min(start + batch, len(games)), len(games))
    return ImportResult(added=added, skipped=len(games) - added)


@transaction.atomic
def _batch_import(games: Sequence[GameData], *, owner) -> list[Game]:
    """One batch of ``games_import``: the games of the batch the owner has not got, stored."""
    from django.contrib.auth import get_user_model

    if owner is not None:
        # One batch of an account at a time (PostgreSQL; SQLite's transactions take the write
        # lock at once): two imports of the same file, sent together, store its games once.
        list(get_user_model().objects.select_for_update().filter(pk=owner.pk).values_list("pk", flat=True))
    today = timezone.localdate()
    fingerprints = [game_fingerprint(data, undated_as=today) for data in games]
    known = fingerprints_stored(owner, fingerprints)
    new = []
    for data, fingerprint in zip(games, fingerprints, strict=True):
        if fingerprint not in known:
            known.add(fingerprint)
            new.append(data)
    return games_store(new, finished=True, owner=owner) if new else []


FINGERPRINT_BATCH = 200  # games read back at a time to fill their fingerprints


def fingerprints_fill(owner=None) -> int:
    """Store the fingerprint of each of the owner's games that has none (written to since it was
    stored or finished, or stored before fingerprints were kept), ``FINGERPRINT_BATCH`` games at a
    time. A game written to again meanwhile keeps none (its revision moved): the next import fills
    it. Returns how many were filled."""
    filled = 0
    after = 0
    while True:
        chunk = list(
            games_with_everything()
            .filter(owner=owner, fingerprint__isnull=True, pk__gt=after)
            .order_by("pk")[:FINGERPRINT_BATCH]
        )
        if not chunk:
            return filled
        for game in chunk:
            fingerprint = game_fingerprint(game_data(game))
            filled += Game.objects.filter(pk=game.pk, revision=game.revision, fingerprint__isnull=True).update(
                fingerprint=fingerprint
            )
        after = chunk[-1].pk


def fingerprint_store(game: Game) -> None:
    """Store what the game holds now as its fingerprint (a finished game). The caller holds the
    game's lock."""
    stored = games_with_everything().get(pk=game.pk)
    Game.objects.filter(pk=game.pk).update(fingerprint=game_fingerprint(game_data(stored)))
