from django.core.management.base import BaseCommand

from scoring.gamefile import score_document, to_json
from scoring.management.commands._gamefile_io import read_games


class Command(BaseCommand):
    help = "Score the games of a game file (- for standard input) and print the results as JSON. Stores nothing."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the game file, or - for standard input")

    def handle(self, *args, **options):
        games = read_games(options["file"])
        self.stdout.write(to_json(score_document(games)), ending="")
