"""The command-line tools speak the shell's language: French when the locale says French
(``LANGUAGE``, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext reads them: ``LANG=fr_FR.UTF-8``),
English otherwise (``C``, ``POSIX``, unset, or a language the site does not speak)."""

from __future__ import annotations

import os

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import translation
from django.utils.functional import Promise


def shell_language(environ=os.environ) -> str:
    """The site's language that the shell's locale names, else ``settings.LANGUAGE_CODE``."""
    spoken = {code.split("-")[0] for code, _name in settings.LANGUAGES}
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable, "").strip()
        if not value:
            continue
        # LANGUAGE may list several ("fr:en"); a locale is "fr_FR.UTF-8" or "fr_FR@euro".
        for item in value.split(":"):
            code = item.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in spoken:
                return code
            if code in ("c", "posix"):
                return settings.LANGUAGE_CODE
        if variable != "LANGUAGE":
            return settings.LANGUAGE_CODE
    return settings.LANGUAGE_CODE


class ShellLanguageCommand(BaseCommand):
    """A command whose messages, errors and help are in the shell's language when it is run from
    the shell (``manage.py …``); through ``call_command`` it speaks the caller's active language."""

    # Translated when shown (gettext_lazy): argparse writes it as a string, in the language active then.
    help: str | Promise = ""  # type: ignore[assignment]  # (django-stubs declares a plain str)

    def run_from_argv(self, argv):
        translation.activate(shell_language())  # a process of its own: no one else's language to keep
        return super().run_from_argv(argv)

    def create_parser(self, prog_name, subcommand, **kwargs):
        """argparse takes text, not lazy translations (on Python 3.13 ``--help`` fails on them):
        the description (``help``, lazy as a class attribute must be) in the language active when
        the parser is made; ``add_arguments`` translates the arguments' help with ``gettext``."""
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        if parser.description is not None:
            parser.description = str(parser.description)
        return parser
