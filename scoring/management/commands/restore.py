"""Restore a backup folder made by ``manage.py backup`` into an empty database."""

from __future__ import annotations

import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.management.commands._gamefile_io import read_games
from scoring.management.commands._shell_language import ShellLanguageCommand
from scoring.management.commands.backup import ACCOUNTS, parse_joined
from scoring.models import Game
from scoring.services import games_import


class Command(ShellLanguageCommand):
    help = gettext_lazy(
        "Restore a backup folder (manage.py backup) into an empty database: its accounts, then their games.")

    def add_arguments(self, parser):
        parser.add_argument("folder", help=_("the dated folder that manage.py backup made"))

    def handle(self, *args, **options):
        folder = Path(options["folder"])
        User = get_user_model()
        if User.objects.exists() or Game.objects.exists():
            raise CommandError(_("the database is not empty: restore a backup only into a new, migrated database"))
        try:
            accounts = json.loads((folder / ACCOUNTS).read_text(encoding="utf-8"))
        except OSError as error:
            raise CommandError(_("cannot read %(path)s: %(reason)s") % {
                "path": folder / ACCOUNTS, "reason": error.strerror}) from None
        except ValueError as error:
            raise CommandError(_("%(path)s is not a backup's list of accounts: %(reason)s") % {
                "path": folder / ACCOUNTS, "reason": error}) from None
        games = 0
        with transaction.atomic():  # all or nothing
            for account in accounts:
                user = User(username=account["username"], email=account.get("email", ""),
                            first_name=account.get("first_name", ""), last_name=account.get("last_name", ""),
                            password=account["password"], date_joined=parse_joined(account["date_joined"]))
                user.save()
                games += len(games_import(read_games(str(folder / account["games"])), owner=user, skip_known=False))
        self.stdout.write(self.style.SUCCESS(_("Restored %(accounts)s accounts and %(games)s games from %(folder)s.") % {
            "accounts": len(accounts), "games": games, "folder": folder}))
