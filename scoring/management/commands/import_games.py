from django.core.management.base import BaseCommand

from scoring.management.commands._gamefile_io import read_games
from scoring.services import games_import


class Command(BaseCommand):
    help = "Store the games of a game file (- for standard input). All or nothing: an invalid file stores no game."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the game file, or - for standard input")

    def handle(self, *args, **options):
        games = games_import(read_games(options["file"]))
        self.stdout.write(self.style.SUCCESS(f"Imported {len(games)} game{'s' if len(games) != 1 else ''}."))
