"""Score every stored game again and store its outcome (after a fix of the scoring rules), then
compute the tallies again from the seats."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.management.commands._shell_language import ShellLanguageCommand
from scoring.models import Game
from scoring.services import game_outcome_recompute
from scoring.tallies import tallies_rebuild


class Command(ShellLanguageCommand):
    help = gettext_lazy("Score every stored game again with the scoring engine and store the outcomes that differ.")

    def handle(self, *args, **options) -> None:
        games = changed = 0
        for game in Game.objects.order_by("pk").iterator(chunk_size=500):
            changed += game_outcome_recompute(game)
            games += 1
        self.stdout.write(ngettext(
            "Scored %(games)s game again; %(changed)s stored outcomes were different and are now right.",
            "Scored %(games)s games again; %(changed)s stored outcomes were different and are now right.", games,
        ) % {"games": games, "changed": changed})
        if tallies_rebuild():
            self.stdout.write(_("The tallies (players' and statistics' figures) were different and are now right."))
        else:
            self.stdout.write(_("The tallies (players' and statistics' figures) were right."))
