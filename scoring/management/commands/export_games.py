from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.gamefile import dump_document, to_json
from scoring.management.commands._gamefile_io import owner_named
from scoring.management.commands._shell_language import ShellLanguageCommand
from scoring.selectors.games import games_for_export


class Command(ShellLanguageCommand):
    help = gettext_lazy(
        "Write the stored games as one game file, to standard output or to --output FILE: every game, "
        "or only the games of the account --owner USERNAME."
    )

    def add_arguments(self, parser):
        parser.add_argument("--output", "-o", help=_("write to this file instead of standard output"))
        parser.add_argument(
            "--owner", metavar="USERNAME", help=_("only the games this account owns (without it: every stored game)")
        )

    def handle(self, *args, **options):
        owner = owner_named(options["owner"]) if options["owner"] is not None else None
        text = to_json(dump_document(games_for_export(owner=owner)))
        if options["output"]:
            try:
                Path(options["output"]).write_text(text, encoding="utf-8")
            except OSError as error:
                raise CommandError(
                    _("cannot write %(path)s: %(reason)s") % {"path": options["output"], "reason": error.strerror}
                ) from None
        else:
            self.stdout.write(text, ending="")
