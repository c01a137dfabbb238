from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.gamefile import dump_document, to_json
from scoring.management.commands._gamefile_io import owner_named
from scoring.selectors import games_for_export


class Command(BaseCommand):
    help = (
        "Write the stored games as one game file, to standard output or to --output FILE: every game, "
        "or only the games of the account --owner USERNAME."
    )

    def add_arguments(self, parser):
        parser.add_argument("--output", "-o", help="write to this file instead of standard output")
        parser.add_argument("--owner", metavar="USERNAME",
                            help="only the games this account owns (without it: every stored game)")

    def handle(self, *args, **options):
        owner = owner_named(options["owner"]) if options["owner"] is not None else None
        text = to_json(dump_document(games_for_export(owner=owner)))
        if options["output"]:
            try:
                Path(options["output"]).write_text(text, encoding="utf-8")
            except OSError as error:
                raise CommandError(f"cannot write {options['output']}: {error.strerror}") from None
        else:
            self.stdout.write(text, ending="")
