"""Delete the visitors' games (and comb layouts) that nobody can reach any more: nightly, after
Django's own ``clearsessions`` (docs/operations.md, "Nightly jobs").

A visitor's game is reached through its visitor's session or a live share link's holder
(``services.visitors.abandoned_find`` says exactly how); once none is left, it is only rows in the
database, kept for good. ``--dry-run`` lists what would go and deletes nothing. An unexpired
session it cannot read (another key than the site's, damaged data) stops it before anything is
deleted, saying why."""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import CommandError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.management.commands._shell_language import ShellLanguageCommand
from scoring.models import Game
from scoring.services.visitors import Abandoned, SessionsUnreadable, abandoned_delete, abandoned_find

KEPT_DAYS = 30  # what was started more recently stays whatever holds it (--days)


class Command(ShellLanguageCommand):
    help = gettext_lazy(
        "Delete the games that visitors (players without an account) started more than --days days ago and "
        "that nobody can reach any more: no unexpired session holds their visitor, nor one of their live share "
        "links, and no account joined them through one; and those visitors’ comb layouts. Run Django’s "
        "clearsessions before it. --dry-run lists them and deletes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--days",
            type=int,
            default=KEPT_DAYS,
            help=_("keep whatever was started fewer days ago than this, reachable or not (default: %(default)s)"),
        )
        parser.add_argument("--dry-run", action="store_true", help=_("list what would be deleted; delete nothing"))

    def handle(self, *args, **options):
        if options["days"] < 0:
            raise CommandError(_("--days must be 0 or more"))
        started_before = timezone.now() - timedelta(days=options["days"])
        try:
            abandoned = abandoned_find(started_before=started_before)
        except SessionsUnreadable as unread:
            raise CommandError(
                ngettext(
                    "Nothing was deleted: %(unreadable)s of the %(sessions)s unexpired sessions cannot be read with "
                    "this key, so what it holds cannot be told. Run this command with the site’s own settings (its "
                    "SECRET_KEY or SECRET_KEY_FILE, its DATABASE_URL), as the site runs.",
                    "Nothing was deleted: %(unreadable)s of the %(sessions)s unexpired sessions cannot be read with "
                    "this key, so what they hold cannot be told. Run this command with the site’s own settings (its "
                    "SECRET_KEY or SECRET_KEY_FILE, its DATABASE_URL), as the site runs.",
                    unread.unreadable,
                )
                % {"unreadable": unread.unreadable, "sessions": unread.sessions}
            ) from None
        if options["dry_run"]:
            self._list(abandoned)
            games = ngettext(
                "Would delete %(count)s game of visitors that nobody can reach any more, started before %(date)s.",
                "Would delete %(count)s games of visitors that nobody can reach any more, started before %(date)s.",
                len(abandoned.games),
            )
            layouts = ngettext(
                "Would delete %(count)s comb layout of those visitors.",
                "Would delete %(count)s comb layouts of those visitors.",
                len(abandoned.layouts),
            )
        else:
            abandoned_delete(abandoned)
            games = ngettext(
                "Deleted %(count)s game of visitors that nobody could reach any more, started before %(date)s.",
                "Deleted %(count)s games of visitors that nobody could reach any more, started before %(date)s.",
                len(abandoned.games),
            )
            layouts = ngettext(
                "Deleted %(count)s comb layout of those visitors.",
                "Deleted %(count)s comb layouts of those visitors.",
                len(abandoned.layouts),
            )
        date = timezone.localtime(started_before).date().isoformat()
        self.stdout.write(games % {"count": len(abandoned.games), "date": date})
        self.stdout.write(layouts % {"count": len(abandoned.layouts)})

    def _list(self, abandoned: Abandoned) -> None:
        """Each game that would go: its address, when it was started, its players."""
        for start in range(0, len(abandoned.games), 500):
            batch = Game.objects.filter(pk__in=abandoned.games[start : start + 500]).order_by("created_at", "pk")
            for game in batch.prefetch_related("seats"):
                players = ", ".join(seat.name for seat in game.seats.all())
                started = timezone.localtime(game.created_at).strftime("%Y-%m-%d %H:%M")
                self.stdout.write(f"  {game.public_id}  {started}  {players}")
