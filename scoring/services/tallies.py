"""The tallies' writes (``scoring.tallies`` says what a seat adds and to which rows): the rows
moved by the difference of every change to a finished game (``tallies_follow``), two players'
rows merged, and every row computed from the seats from scratch (``tallies_rebuild``: after a
rules fix, or to check the incremental ones: the tests compare the two)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from django.apps import apps as current_apps
from django.db import transaction
from django.db.models import F, Max, Value
from django.db.models.functions import Coalesce, Greatest

from scoring.models import OwnerTally, Player, PlayerTally, Seat
from scoring.tallies import (
    MEASURES,
    OwnerRow,
    PlayerRow,
    Scope,
    counts,
    owner_rows,
    player_rows,
    row_measures,
    seat_measures,
)


def tallies_follow(seats: Sequence[Seat], *, owner_id: int | None, counted: bool) -> None:
    """Move the tallies by what changed in one game's ``seats`` (its stored outcomes just
    stored): each seat's measures now (none when ``counted`` is false: the game is in progress
    or about to be deleted) against what it added before. The caller holds the game's lock, so
    no other writer moves the same seats at once."""
    owner_deltas: dict[OwnerRow, Counter] = defaultdict(Counter)
    player_deltas: dict[PlayerRow, Counter] = defaultdict(Counter)
    best_seen: dict[int, int] = {}  # player id: a total now counted
    best_lost: set[int] = set()  # players whose best total may have gone down
    moved: list[Seat] = []
    for seat in seats:
        now = seat_measures(seat) if counted and owner_id is not None else None
        before = seat.tallied
        if now == before:
            continue
        for sign, measures in ((-1, before), (1, now)):
            if not measures:
                continue
            for row in owner_rows(owner_id, seat) if owner_id is not None else []:
                owner_deltas[row].update({name: sign * measures.get(name, 0) for name in MEASURES})
            for row in player_rows(seat):
                player_deltas[row].update({name: sign * measures.get(name, 0) for name in MEASURES})
        if seat.player_id is not None:
            if now is not None:
                best_seen[seat.player_id] = max(best_seen.get(seat.player_id, now["points"]), now["points"])
            if before is not None and (now is None or now["points"] < before["points"]):
                best_lost.add(seat.player_id)
        seat.tallied = now
        moved.append(seat)
    if not moved:
        return
    Seat.objects.bulk_update(moved, ["tallied"])
    _rows_move(OwnerTally, "owner_id", owner_deltas)
    _rows_move(PlayerTally, "player_id", player_deltas)
    for player_id, total in best_seen.items():
        if player_id not in best_lost:
            PlayerTally.objects.filter(player_id=player_id, scope=Scope.ALL, key="").update(
                best=Greatest(Coalesce(F("best"), Value(total)), Value(total))
            )
    for player_id in best_lost:  # the best seat may be the one that went down: ask the seats
        best_recount(player_id)


def _rows_move[TallyRow: (OwnerTally, PlayerTally)](
    model: type[TallyRow], owner_field: str, deltas: dict[tuple[int, str, str], Counter]
) -> None:
    """Add each row's delta to it (creating the rows not there yet), in a fixed order so that two
    transactions never wait on each other's rows in turn."""
    wanted = sorted(row for row, delta in deltas.items() if any(delta.values()))
    if not wanted:
        return
    model.objects.bulk_create(
        [model(**{owner_field: row[0]}, scope=row[1], key=row[2]) for row in wanted], ignore_conflicts=True
    )
    for row in wanted:
        delta = deltas[row]
        model.objects.filter(**{owner_field: row[0]}, scope=row[1], key=row[2]).update(
            **{name: F(name) + value for name, value in delta.items() if value}
        )


def best_recount(player_id: int) -> None:
    """A player's best total asked of their counted seats again (after one went down)."""
    best = Seat.objects.filter(player_id=player_id, tallied__isnull=False).aggregate(best=Max("score_total"))["best"]
    PlayerTally.objects.filter(player_id=player_id, scope=Scope.ALL, key="").update(best=best)


def tallies_merge(*, keep: Player, merged: Player) -> None:
    """``merged``'s rows added into ``keep``'s, before its seats follow to ``keep``."""
    deltas: dict[PlayerRow, Counter] = defaultdict(Counter)
    best = None
    for row in PlayerTally.objects.filter(player=merged):
        deltas[keep.pk, row.scope, row.key].update(row_measures(row))
        if row.best is not None:
            best = row.best
    _rows_move(PlayerTally, "player_id", deltas)
    if best is not None:
        PlayerTally.objects.filter(player=keep, scope=Scope.ALL, key="").update(
            best=Greatest(Coalesce(F("best"), Value(best)), Value(best))
        )


@transaction.atomic
def tallies_rebuild(owner=None, *, batch: int = 2000, apps=current_apps) -> bool:
    """Every tally row (of ``owner``, or of everyone) computed again from the seats, and every
    seat's ``tallied`` with them. True when something was different from what was kept.

    It reads its models from ``apps``, so the migrations that made the tallies and added
    measures run it on the models as they were then (with the measures those had)."""
    Game, Seat, Player, OwnerTally, PlayerTally = (
        apps.get_model("scoring", name) for name in ("Game", "Seat", "Player", "OwnerTally", "PlayerTally")
    )
    columns = {field.name for field in OwnerTally._meta.get_fields()}
    measures = tuple(name for name in MEASURES if name in columns)
    games = Game.objects.order_by("pk")
    players = Player.objects.all()
    owners = OwnerTally.objects.all()
    if owner is not None:
        games, players, owners = games.filter(owner=owner), players.filter(owner=owner), owners.filter(owner=owner)
    owner_sums: dict[OwnerRow, Counter] = defaultdict(Counter)
    player_sums: dict[PlayerRow, Counter] = defaultdict(Counter)
    best: dict[int, int] = {}
    changed = False
    ids = list(games.values_list("pk", flat=True))
    for start in range(0, len(ids), batch):
        chunk = Game.objects.filter(pk__in=ids[start : start + batch]).only("pk", "owner_id", "finished_at")
        by_game = {game.pk: game for game in chunk}
        moved = []
        for seat in Seat.objects.filter(game_id__in=by_game).order_by("pk"):
            game = by_game[seat.game_id]
            now = _only(seat_measures(seat), measures) if counts(game) else None
            if now is not None:
                for row in owner_rows(game.owner_id, seat):
                    owner_sums[row].update(now)
                for row in player_rows(seat):
                    player_sums[row].update(now)
                if seat.player_id is not None:
                    best[seat.player_id] = max(best.get(seat.player_id, seat.score_total), seat.score_total)
            if seat.tallied != now:
                seat.tallied = now
                moved.append(seat)
        if moved:
            changed = True
            Seat.objects.bulk_update(moved, ["tallied"], batch_size=500)
    kept_owners = _rows_of(owners, "owner_id", measures)
    kept_players = _rows_of(PlayerTally.objects.filter(player__in=players), "player_id", measures)
    new_owners = {row: _only(sums, measures) for row, sums in owner_sums.items()}
    new_players = {
        row: {**_only(sums, measures), "best": best.get(row[0]) if row[1] == Scope.ALL else None}
        for row, sums in player_sums.items()
    }
    if kept_owners != new_owners or kept_players != new_players:
        changed = True
        owners.delete()
        PlayerTally.objects.filter(player__in=players).delete()
        OwnerTally.objects.bulk_create(
            [OwnerTally(owner_id=row[0], scope=row[1], key=row[2], **sums) for row, sums in new_owners.items()],
            batch_size=500,
        )
        PlayerTally.objects.bulk_create(
            [PlayerTally(player_id=row[0], scope=row[1], key=row[2], **sums) for row, sums in new_players.items()],
            batch_size=500,
        )
    return changed


def _only(sums: Counter | dict, measures: Sequence[str]) -> dict[str, int]:
    return {name: sums.get(name, 0) for name in measures}


def _rows_of(rows: Iterable[Any], owner_field: str, measures: Sequence[str]) -> dict:
    """Kept rows as ``tallies_rebuild`` computes them (rows moved back to nothing left out).
    ``rows`` are tally rows of the models ``tallies_rebuild`` was given (a migration's own)."""
    kept = {}
    for row in rows:
        sums = {name: getattr(row, name) for name in measures}
        if not any(sums.values()):
            continue
        if owner_field == "player_id":
            sums["best"] = row.best if row.scope == Scope.ALL else None
        kept[getattr(row, owner_field), row.scope, row.key] = sums
    return kept
