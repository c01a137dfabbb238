"""The app's commands as real processes (``manage.py`` run in a child process): their exit
status, what goes to standard output and what to standard error; and every command's ``--help``
in the shell's language, through manage.py's own entry point in this process (one of them in a
real process too). None uses the suite's database (a command that needs one is given a
SQLite file of its own); what the commands do is specified in process in ``tests/management/test_commands.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import ManagementUtility, find_commands, load_command_class
from django.utils import translation

import scoring.management
from tests.gamefile.documents import DATA, EXAMPLE_SCORE, P0, example_document
from tests.management.test_commands import write
from tests.support.postgres import manage

PROJECT_ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = DATA / "example.json"


def test_score_game_process_exit_status_and_streams(tmp_path):
    """The real process: status 0 and JSON on stdout; status 1, nothing on stdout, the path on stderr."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "apiary_site.settings", "PYTHONIOENCODING": "utf-8"}
    manage = [sys.executable, str(PROJECT_ROOT / "manage.py"), "score_game"]

    good = subprocess.run([*manage, str(EXAMPLE)], capture_output=True, text=True, env=env, cwd=PROJECT_ROOT)
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout) == EXAMPLE_SCORE

    bad_doc = example_document()
    bad_doc["games"][0]["players"][0]["end"]["farms"] = 100
    bad = subprocess.run(
        [*manage, write(tmp_path, json.dumps(bad_doc))], capture_output=True, text=True, env=env, cwd=PROJECT_ROOT
    )
    assert bad.returncode == 1
    assert bad.stdout == ""
    assert f"{P0}.end.farms" in bad.stderr

    piped = subprocess.run(
        [*manage, "-"],
        input=EXAMPLE.read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        env=env,
        cwd=PROJECT_ROOT,
    )
    assert piped.returncode == 0, piped.stderr
    assert json.loads(piped.stdout) == EXAMPLE_SCORE


def test_owner_option_process_exit_status_and_streams(tmp_path):
    """The real process on a database of its own: an unknown owner is status 1, nothing on
    standard output, the reason on standard error; a missing --owner is refused too; a known one
    is status 0, what was imported on standard output and how far it has come on standard error
    (what an import says, and an export writes, is specified in process in tests/management/test_commands.py)."""
    database = f"sqlite:///{tmp_path / 'db.sqlite3'}"

    assert manage(database, "migrate", "--no-input").returncode == 0
    unknown = manage(database, "import_games", str(EXAMPLE), "--owner", "ghost")
    assert unknown.returncode == 1
    assert unknown.stdout == ""
    assert 'there is no user "ghost"' in unknown.stderr

    missing = manage(database, "import_games", str(EXAMPLE))
    assert missing.returncode != 0
    assert "--owner" in missing.stderr

    export = manage(database, "export_games", "--owner", "ghost")
    assert export.returncode == 1
    assert export.stdout == ""
    assert 'there is no user "ghost"' in export.stderr

    created = manage(
        database, "shell", "-c", "from django.contrib.auth.models import User; User.objects.create_user('ann')"
    )
    assert created.returncode == 0, created.stderr
    imported = manage(database, "import_games", str(EXAMPLE), "--owner", "ann")
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.strip() == "Imported 1 game. Owner: ann."  # (its progress on standard error)
    assert "Imported" not in imported.stderr


# ---------------------------------------------------------------------------------------------
# --help, for every command of the app (a new one is covered by being there)

SCORING_COMMANDS = sorted(find_commands(str(Path(scoring.management.__file__).parent)))


def help_shown(command: str, lang: str) -> subprocess.CompletedProcess:
    """``manage.py COMMAND --help`` in a shell whose language is ``lang`` (LANG, nothing else set)."""
    env = {name: value for name, value in os.environ.items() if name not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    return subprocess.run(
        [sys.executable, str(PROJECT_ROOT / "manage.py"), command, "--help"],
        capture_output=True,
        text=True,
        env={**env, "LANG": lang, "PYTHONIOENCODING": "utf-8"},
        cwd=PROJECT_ROOT,
        timeout=120,
        check=False,
    )


def help_in_process(command: str, lang: str, monkeypatch, capsys) -> str:
    """What ``manage.py COMMAND --help`` prints in a shell whose language is ``lang``, run in this
    process through the same entry point (Django's ``ManagementUtility``, as manage.py calls it);
    the language it activates is put back after."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", lang)
    capsys.readouterr()
    with translation.override(translation.get_language()), pytest.raises(SystemExit) as exited:
        ManagementUtility(["manage.py", command, "--help"]).execute()
    assert exited.value.code in (0, None)
    return capsys.readouterr().out


def words(text: str) -> str:
    """The text without its spaces and line breaks (argparse wraps it to the terminal's width)."""
    return "".join(text.split())


def description(command: str, language: str) -> str:
    with translation.override(language):
        return str(load_command_class("scoring", command).help)


def test_the_app_has_its_commands():
    assert {"score_game", "import_games", "export_games", "backup", "restore"} <= set(SCORING_COMMANDS)


@pytest.mark.parametrize("command", SCORING_COMMANDS)
def test_every_command_shows_its_help(command, monkeypatch, capsys):
    shown = help_in_process(command, "C.UTF-8", monkeypatch, capsys)
    assert shown.startswith(f"usage: manage.py {command} ")
    assert words(description(command, "en")) in words(shown)


@pytest.mark.parametrize("command", SCORING_COMMANDS)
def test_every_command_shows_its_help_in_the_shells_language(command, monkeypatch, capsys):
    shown = help_in_process(command, "fr_FR.UTF-8", monkeypatch, capsys)
    assert shown.startswith(f"usage: manage.py {command} ")
    french = description(command, "fr")
    assert french != description(command, "en"), "the description has its French translation"
    assert words(french) in words(shown)


def test_a_commands_help_comes_from_its_own_process_in_the_shells_language():
    """The real process (manage.py run by a shell whose LANG is French): status 0, the French
    help on standard output, nothing on standard error."""
    shown = help_shown("score_game", "fr_FR.UTF-8")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("usage: manage.py score_game ")
    assert words(description("score_game", "fr")) in words(shown.stdout)
    assert shown.stderr == ""
