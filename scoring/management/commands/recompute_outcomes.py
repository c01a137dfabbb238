"""Score every stored game again and store its outcome (after a fix of the scoring rules), then
compute the tallies again from the seats."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from scoring.models import Game
from scoring.services import game_outcome_recompute
from scoring.tallies import tallies_rebuild


class Command(BaseCommand):
    help = "Score every stored game again with the scoring engine and store the outcomes that differ."

    def handle(self, *args, **options) -> None:
        games = changed = 0
        for game_id in Game.objects.order_by("pk").values_list("pk", flat=True).iterator(chunk_size=500):
            changed += game_outcome_recompute(game_id)
            games += 1
        self.stdout.write(f"Scored {games} games again; {changed} stored outcomes were different and are now right.")
        if tallies_rebuild():
            self.stdout.write("The tallies (players' and statistics' figures) were different and are now right.")
        else:
            self.stdout.write("The tallies (players' and statistics' figures) were right.")
