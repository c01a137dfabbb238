from django.core.management.base import BaseCommand

from scoring.management.commands._gamefile_io import owner_named, read_games
from scoring.services import games_import


def _games(count: int) -> str:
    return f"{count} game{'s' if count != 1 else ''}"


class Command(BaseCommand):
    help = (
        "Store the games of a game file (- for standard input) as games of the account --owner USERNAME. "
        "All or nothing: an invalid file stores no game. A game the account already has (the same "
        "game, changes aside) is skipped, so importing a file twice stores its games once."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the game file, or - for standard input")
        parser.add_argument("--owner", required=True, metavar="USERNAME",
                            help="the user name of the account the games will belong to (required)")

    def handle(self, *args, **options):
        owner = owner_named(options["owner"])  # before reading anything: an unknown owner stores nothing
        games = read_games(options["file"])
        stored = games_import(games, owner=owner)
        skipped = len(games) - len(stored)
        if not games:
            done = "Imported 0 games: the file holds none"
        elif skipped:
            done = f"Imported {_games(len(stored))}, skipped {skipped} already stored"
        else:
            done = f"Imported {_games(len(stored))}"
        self.stdout.write(self.style.SUCCESS(f"{done}. Owner: {owner.get_username()}."))
