"""Put back a backup made by ``manage.py backup``: everything the database holds becomes what
the backup holds, by the database's own tools (``_database_copy``)."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.management.commands._database_copy import backup_restore, backup_tables
from scoring.management.commands._shell_language import ShellLanguageCommand
from scoring.models import Game


class Command(ShellLanguageCommand):
    help = gettext_lazy(
        "Restore a backup made by manage.py backup: the database then holds exactly what the backup "
        "holds. It refuses a database that holds accounts or games, unless told --replace."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help=_("the file that manage.py backup wrote"))
        parser.add_argument(
            "--replace",
            action="store_true",
            help=_("replace the accounts and games the database holds (they are lost)"),
        )

    def handle(self, *args, **options):
        path = Path(options["file"])
        tables = backup_tables(path)
        if Game._meta.db_table not in tables:
            raise CommandError(_("%(path)s is not a backup of the Apiary Scorepad") % {"path": path})
        present = set(connection.introspection.django_table_names(only_existing=True))  # this site's models'
        if not options["replace"] and _holds_anything(present):
            raise CommandError(
                _(
                    "the database already holds accounts or games: a restore replaces everything in it. "
                    "Restore into a new database, or give --replace (after a backup of this one)"
                )
            )
        if present - tables:  # a restore would leave them, and migrate would fail on them
            raise CommandError(
                _(
                    "the database has tables that %(path)s does not have (%(tables)s): a newer version of the site "
                    "migrated it. Restore into a new database that is not migrated yet, then run manage.py migrate"
                )
                % {"path": path, "tables": ", ".join(sorted(present - tables))}
            )
        backup_restore(path)
        self.stdout.write(
            self.style.SUCCESS(
                _("Restored the database from %(path)s (accounts: %(accounts)s, games: %(games)s).")
                % {"path": path, "accounts": get_user_model().objects.count(), "games": Game.objects.count()}
            )
        )
        executor = MigrationExecutor(connection)
        if executor.migration_plan(executor.loader.graph.leaf_nodes()):
            self.stdout.write(_("The backup is from an older version of the site: run manage.py migrate."))


def _holds_anything(tables: set[str]) -> bool:
    """Whether the database holds an account or a game (a database never migrated holds neither)."""
    return any(model._meta.db_table in tables and model.objects.exists() for model in (get_user_model(), Game))
