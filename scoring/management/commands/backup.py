"""A dated backup: every account (user name, the name it is shown by, email, password hash) and
each account's games as a game file (docs/game-file.md), in one folder that ``manage.py restore``
reads back."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.gamefile import dump_document, to_json
from scoring.management.commands._shell_language import ShellLanguageCommand
from scoring.selectors import games_for_export

ACCOUNTS = "accounts.json"


class Command(ShellLanguageCommand):
    help = gettext_lazy(
        "Write a dated backup folder under DIRECTORY (default: backups/): accounts.json (user names, "
        "emails and password hashes: keep the folder private) and one game file per account."
    )

    def add_arguments(self, parser):
        parser.add_argument("directory", nargs="?", default="backups", help=_("where the dated folder is made"))

    def handle(self, *args, **options):
        stamp = timezone.localtime().strftime("%Y-%m-%dT%H%M%S")
        folder = Path(options["directory"]) / f"apiary-{stamp}"
        try:
            folder.mkdir(parents=True, exist_ok=False)
            accounts = []
            for user in get_user_model().objects.order_by("pk"):
                accounts.append({"username": user.get_username(), "first_name": user.first_name,
                                 "last_name": user.last_name, "email": user.email, "password": user.password,
                                 "date_joined": user.date_joined.isoformat(), "games": f"games-{user.pk}.json"})
                text = to_json(dump_document(games_for_export(owner=user)))
                (folder / f"games-{user.pk}.json").write_text(text, encoding="utf-8")
            (folder / ACCOUNTS).write_text(json.dumps(accounts, indent=2, ensure_ascii=False), encoding="utf-8")
        except OSError as error:
            raise CommandError(_("cannot write the backup in %(folder)s: %(reason)s") % {
                "folder": folder, "reason": error.strerror}) from None
        self.stdout.write(self.style.SUCCESS(ngettext(
            "Backed up %(count)s account and its games in %(folder)s.",
            "Backed up %(count)s accounts and their games in %(folder)s.", len(accounts),
        ) % {"count": len(accounts), "folder": folder}))


def parse_joined(text: str) -> datetime:
    """A date_joined as accounts.json gives it."""
    return datetime.fromisoformat(text)
