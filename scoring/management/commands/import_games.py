from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.management.commands._gamefile_io import owner_named, read_games
from scoring.management.commands._shell_language import ShellLanguageCommand
from scoring.services.imports import games_import


class Command(ShellLanguageCommand):
    help = gettext_lazy(
        "Store the games of a game file (- for standard input) as games of the account --owner USERNAME. "
        "An invalid file stores no game. A valid one is stored in batches, its progress on standard error; "
        "a game the account already has (the same game, changes aside) is skipped, so importing a file "
        "twice stores its games once, and an interrupted import continues where it stopped when run again."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help=_("the game file, or - for standard input"))
        parser.add_argument(
            "--owner",
            required=True,
            metavar="USERNAME",
            help=_("the user name of the account the games will belong to (required)"),
        )

    def handle(self, *args, **options):
        owner = owner_named(options["owner"])  # before reading anything: an unknown owner stores nothing
        games = read_games(options["file"])
        self.shown = 0  # twentieths of the games said done (``progress``)
        result = games_import(games, owner=owner, progress=self.progress)
        values = {"count": result.added, "skipped": result.skipped, "owner": owner.get_username()}
        if not games:
            done = _("Imported 0 games: the file holds none. Owner: %(owner)s.") % values
        else:  # (a sentence for each number, each with its own plural, then the owner)
            said = [ngettext("Imported %(count)s game.", "Imported %(count)s games.", result.added) % values]
            if result.skipped:
                said.append(
                    ngettext(
                        "%(counter)s game was already stored and was skipped.",
                        "%(counter)s games were already stored and were skipped.",
                        result.skipped,
                    )
                    % {"counter": result.skipped}
                )
            said.append(_("Owner: %(owner)s.") % values)
            done = " ".join(said)
        self.stdout.write(self.style.SUCCESS(done))

    def progress(self, done: int, total: int) -> None:
        """How far the import is, on standard error (standard output says what was done, once):
        after each twentieth of the games, so a big file prints 20 lines, not one per batch."""
        if done == total or done * 20 // total != self.shown:
            self.shown = done * 20 // total
            self.stderr.write(_("%(done)s of %(total)s games done…") % {"done": done, "total": total})
