from django.core.management.base import BaseCommand

from scoring.management.commands._gamefile_io import owner_named, read_games
from scoring.services import games_import


class Command(BaseCommand):
    help = (
        "Store the games of a game file (- for standard input) as games of the account --owner USERNAME. "
        "All or nothing: an invalid file stores no game."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the game file, or - for standard input")
        parser.add_argument("--owner", required=True, metavar="USERNAME",
                            help="the user name of the account the games will belong to (required)")

    def handle(self, *args, **options):
        owner = owner_named(options["owner"])  # before reading anything: an unknown owner stores nothing
        games = games_import(read_games(options["file"]), owner=owner)
        self.stdout.write(self.style.SUCCESS(
            f"Imported {len(games)} game{'s' if len(games) != 1 else ''}. Owner: {owner.get_username()}."
        ))
