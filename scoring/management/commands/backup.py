"""A backup of the whole database, made by the database's own tools (``_database_copy``): every
account, game, change, link, player and tally as it is, which ``manage.py restore`` puts back."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.management.commands._database_copy import SUFFIX, backup_write, database_kind
from scoring.management.commands._shell_language import ShellLanguageCommand


class Command(ShellLanguageCommand):
    help = gettext_lazy(
        "Back up the whole database into a dated file under DIRECTORY (default: backups/), or into "
        "--output FILE: on SQLite a copy of the database, on PostgreSQL a pg_dump archive. It holds "
        "the accounts’ password hashes and sessions: keep it private. manage.py restore puts it back."
    )

    def add_arguments(self, parser):
        where = parser.add_mutually_exclusive_group()
        where.add_argument(
            "directory",
            nargs="?",
            default="backups",
            metavar="DIRECTORY",
            help=_("where the dated file is written (made if missing)"),
        )
        where.add_argument("--output", "-o", metavar="FILE", help=_("write the backup to this file instead"))

    def handle(self, *args, **options):
        if options["output"]:
            path = Path(options["output"])
        else:
            stamp = timezone.localtime().strftime("%Y-%m-%dT%H%M%S")
            path = Path(options["directory"]) / f"apiary-{stamp}{SUFFIX[database_kind()]}"
        try:
            if not options["output"]:
                path.parent.mkdir(parents=True, exist_ok=True)
            if path.exists():
                raise CommandError(_("%(path)s already exists: a backup never overwrites a file") % {"path": path})
            backup_write(path)
        except OSError as error:
            raise CommandError(
                _("cannot write %(path)s: %(reason)s") % {"path": path, "reason": error.strerror}
            ) from None
        self.stdout.write(self.style.SUCCESS(_("Backed up the database in %(path)s.") % {"path": path}))
