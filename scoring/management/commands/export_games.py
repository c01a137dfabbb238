from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.gamefile import dump_document, to_json
from scoring.selectors import games_for_export


class Command(BaseCommand):
    help = "Write every stored game as one game file, to standard output or to --output FILE."

    def add_arguments(self, parser):
        parser.add_argument("--output", "-o", help="write to this file instead of standard output")

    def handle(self, *args, **options):
        text = to_json(dump_document(games_for_export()))
        if options["output"]:
            try:
                Path(options["output"]).write_text(text, encoding="utf-8")
            except OSError as error:
                raise CommandError(f"cannot write {options['output']}: {error.strerror}") from None
        else:
            self.stdout.write(text, ending="")
