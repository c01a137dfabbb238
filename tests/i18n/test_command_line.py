"""The command-line tools speak the shell's language (LANGUAGE, LC_ALL, LANG): a game file's
problems are said in French from a French shell, and ``call_command`` speaks its caller's language.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from scoring.management.commands._shell_language import shell_language
from tests.i18n.helpers import ROOT


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LC_ALL": "fr_CA.UTF-8", "LANG": "en_US.UTF-8"}, "fr"),
        ({"LANGUAGE": "fr:en", "LANG": "C.UTF-8"}, "fr"),
        ({"LANGUAGE": "de:fr"}, "fr"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_command_line_tools_speak_the_shells_language(environ, language):
    assert shell_language(environ) == language


def test_a_command_line_error_in_french(tmp_path):
    bad = tmp_path / "partie.json"
    bad.write_text(
        '{"format": "apiary-scorepad", "version": 1, "games": [{"players": [{"name": "A", "end": {"farms": 120}}]}]}'
    )
    environment = {**os.environ, "LANG": "fr_FR.UTF-8", "LANGUAGE": "", "LC_ALL": ""}

    run = subprocess.run(
        [sys.executable, "manage.py", "score_game", str(bad)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert run.returncode == 1
    assert f"{bad} n’est pas un fichier de parties valide (1\u00a0problème)\u202f:" in run.stderr
    assert "games[0].players[0].end.farms\u202f: doit être un nombre entier de 0 à 99 (et non 120)" in run.stderr


@pytest.mark.django_db
def test_call_command_speaks_the_callers_language():
    with translation.override("fr"), pytest.raises(CommandError) as refused:
        call_command("import_games", "-", "--owner", "personne")
    assert str(refused.value).startswith("il n’y a pas d’utilisateur «\u202fpersonne\u202f»")
