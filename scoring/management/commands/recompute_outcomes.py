"""Score every stored game again and store its outcome (after a fix of the scoring rules), then
compute the tallies again from the seats."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.management.commands._shell_language import ShellLanguageCommand
from scoring.models import Game
from scoring.services.outcomes import game_outcome_recompute
from scoring.services.tallies import tallies_rebuild


class Command(ShellLanguageCommand):
    help = gettext_lazy("Score every stored game again with the scoring engine and store the outcomes that differ.")

    def handle(self, *args, **options) -> None:
        games = changed = 0
        for game in Game.objects.order_by("pk").iterator(chunk_size=500):
            changed += game_outcome_recompute(game)
            games += 1
        scored = ngettext("Scored %(games)s game again.", "Scored %(games)s games again.", games) % {"games": games}
        if changed:  # (a sentence of its own: each number has its own plural)
            outcomes = ngettext(
                "%(changed)s stored outcome was different and is now right.",
                "%(changed)s stored outcomes were different and are now right.",
                changed,
            ) % {"changed": changed}
        else:
            outcomes = _("Every stored outcome was right.")
        self.stdout.write(f"{scored} {outcomes}")
        if tallies_rebuild():
            self.stdout.write(_("The tallies (players’ and statistics’ figures) were different and are now right."))
        else:
            self.stdout.write(_("The tallies (players’ and statistics’ figures) were right."))
