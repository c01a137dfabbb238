from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.gamefile import score_document, to_json
from scoring.management.commands._gamefile_io import read_games
from scoring.management.commands._shell_language import ShellLanguageCommand


class Command(ShellLanguageCommand):
    help = gettext_lazy(
        "Score the games of a game file (- for standard input) and print the results as JSON. Stores nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help=_("the game file, or - for standard input"))

    def handle(self, *args, **options):
        games = read_games(options["file"])
        self.stdout.write(to_json(score_document(games)), ending="")
