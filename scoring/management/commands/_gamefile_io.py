"""What the game-file commands share: reading a document from a file or standard input, and
finding the account that owns the games (``--owner USERNAME``). Their words are in the shell's
language (``_shell_language``)."""

from __future__ import annotations

import sys

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.gamefile import GameData, GameFileError, parse_document


def read_games(path: str) -> list[GameData]:
    """Parse the game file at ``path`` (``-`` for standard input) or fail with every problem."""
    try:
        if path == "-":
            text = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                text = handle.read()
    except OSError as error:
        raise CommandError(_("cannot read %(path)s: %(reason)s") % {"path": path, "reason": error.strerror}) from None
    try:
        return parse_document(text)
    except GameFileError as error:
        count = len(error.problems)
        heading = ngettext(
            "%(path)s is not a valid game file (%(count)s problem):",
            "%(path)s is not a valid game file (%(count)s problems):",
            count,
        ) % {"path": path, "count": count}
        raise CommandError("\n".join([heading, *(f"  {problem}" for problem in error.problems)])) from None


def owner_named(username: str):
    """The account with this user name, or fail saying that there is none (exit status 1)."""
    User = get_user_model()
    try:
        return User.objects.get_by_natural_key(username)
    except User.DoesNotExist:
        raise CommandError(
            _(
                'there is no user "%(name)s": --owner names an existing account (sign up on the site, '
                "or create it with manage.py createsuperuser)"
            )
            % {"name": username}
        ) from None
