"""What the tests of *Your data* share (``tests/views/test_transfer.py``,
``tests/gamefile/test_spreadsheet.py``): its requests as a browser sends them, and reading their
answers."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import F
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.gamefile.spreadsheet import CSV_COLUMNS
from scoring.models import Game, WaitingFile
from tests.gamefile.documents import DATA
from tests.support.pages import page

MULTI = DATA / "multi_game.json"  # three games: 3 players with an Automa, 5 players with ties, solo
EMPTY = {"format": "apiary-scorepad", "version": 1, "games": []}


def export_json(client: Client):
    return client.get(reverse("scoring:export_json"))


def export_csv(client: Client):
    return client.get(reverse("scoring:export_csv"))


def upload(client: Client, content: bytes | str, name: str = "backup.json", **extra):
    """Choose a file and press "Check the file" (``extra``: the request's, its REMOTE_ADDR say)."""
    data = content.encode() if isinstance(content, str) else content
    return client.post(reverse("scoring:import"), {"file": SimpleUploadedFile(name, data, "application/json")}, **extra)


def preview(client: Client):
    """Where the browser goes after a good upload: the check before adding."""
    return client.get(reverse("scoring:import"))


def confirm(client: Client, button: str = "add"):
    """Press "Add these N games" (or "Cancel"/"Back") on the preview, as it is shown."""
    shown = page(preview(client))
    form = shown.one("form", action=reverse("scoring:import_confirm"))
    data = {"token": form.one("input", name="token")["value"]}
    if button == "cancel":
        data["cancel"] = "1"
    return client.post(reverse("scoring:import_confirm"), data)


def import_file(client: Client, content: bytes | str) -> None:
    """Upload, look, add: the whole import."""
    assert upload(client, content).status_code == 302
    assert confirm(client).status_code == 302


def listed(response, section: str) -> list[str]:
    """The games a section of the preview lists ("to-add" or "skipped"), each as its text."""
    found = page(response).find("section", aria_labelledby=section)
    return [item.text for item in found.find_all("li")] if found else []


def problems(response) -> list[str]:
    """The paths of the problems a refused upload names."""
    return [code.text for code in page(response).by_id("problems").find_all("code")]


def csv_table(response) -> list[dict[str, str]]:
    """The spreadsheet's rows, each by column key (``CSV_COLUMNS``: the header says each in words)."""
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    header, *rows = csv.reader(io.StringIO(text[1:]), delimiter=";" if ";" in text.splitlines()[0] else ",")
    assert len(header) == len(CSV_COLUMNS)
    return [dict(zip(CSV_COLUMNS, row, strict=True)) for row in rows]


def waiting_file(token: str) -> WaitingFile:
    """The file waiting to be added under that token, in the waiting room (a table every worker shares)."""
    return WaitingFile.objects.get(token=token)


def minutes_pass(minutes: int) -> None:
    """So many minutes go by for the waiting room: every waiting file's place is over that much
    sooner (the room keeps when each is over; nothing else of the site moves)."""
    WaitingFile.objects.update(expires=F("expires") - timedelta(minutes=minutes))


def owned_games(account) -> int:
    return Game.objects.filter(owner=account).count()


def today() -> str:
    return timezone.localdate().isoformat()
