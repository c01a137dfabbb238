"""Request bodies (apiary_site/bodies.py): a body over what its page takes is refused with a 413 in
words before it is read, by its Content-Length and, should it be longer than it said, while it
streams, so that no file part of it ever reaches the temporary folder (nor memory past the
limit). Every page takes 256 KB (``DATA_UPLOAD_MAX_MEMORY_SIZE``); the import, a game file of
2 MB and the form around it.

What each page then does with what it reads is its own tests' (the import's file of more than
2 MB refused next to its field: ``tests/views/test_transfer.py``)."""

from __future__ import annotations

import io
import json
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.files.uploadhandler import MemoryFileUploadHandler, TemporaryFileUploadHandler
from django.http.multipartparser import MultiPartParser
from django.test import Client, RequestFactory
from django.test.client import BOUNDARY, MULTIPART_CONTENT, FakePayload, encode_multipart
from django.urls import reverse

from scoring.forms.transfer import MAX_UPLOAD_BYTES
from tests.gamefile.documents import example_document
from tests.support.factories import game_started
from tests.support.pages import page as page_of

pytestmark = pytest.mark.django_db

MB = 1024 * 1024


class Kept:
    """What reached the upload handlers that keep a file (Django's: in memory, or in the
    temporary folder), and what was read of the body at all."""

    def __init__(self):
        self.in_memory = self.on_disk = self.read = 0
        self.temporary_files = 0


@pytest.fixture
def kept(monkeypatch, tmp_path, settings) -> Kept:
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    seen = Kept()
    memory, disk = MemoryFileUploadHandler.receive_data_chunk, TemporaryFileUploadHandler.receive_data_chunk
    new_file, read = TemporaryFileUploadHandler.new_file, FakePayload.read

    def in_memory(self, raw_data, start):
        seen.in_memory += len(raw_data) if self.activated else 0
        return memory(self, raw_data, start)

    def on_disk(self, raw_data, start):
        seen.on_disk += len(raw_data)
        return disk(self, raw_data, start)

    def temporary_file(self, *args, **kwargs):
        seen.temporary_files += 1
        return new_file(self, *args, **kwargs)

    def reading(self, size=-1, /):
        data = read(self, size)
        seen.read += len(data)
        return data

    monkeypatch.setattr(MemoryFileUploadHandler, "receive_data_chunk", in_memory)
    monkeypatch.setattr(TemporaryFileUploadHandler, "receive_data_chunk", on_disk)
    monkeypatch.setattr(TemporaryFileUploadHandler, "new_file", temporary_file)
    monkeypatch.setattr(FakePayload, "read", reading)
    return seen


def big_file(size: int, name: str = "big.bin") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, b"x" * size, "application/octet-stream")


def with_csrf_cookie(page: str) -> Client:
    """A stranger's browser that has the CSRF cookie (any page's GET gives it) and checks it, as
    a deployment does."""
    browser = Client(enforce_csrf_checks=True)
    assert browser.get(page).status_code == 200
    assert settings.CSRF_COOKIE_NAME in browser.cookies
    return browser


@pytest.mark.parametrize("name", ["login", "signup", "scoring:start"])
def test_a_file_part_over_the_limit_is_refused_before_it_is_read(kept, name):
    """300 MB streamed to the temporary folder before the CSRF check's 403, in the review."""
    page = reverse(name)
    browser = with_csrf_cookie(page)

    refused = browser.post(page, {"username": "ann", "file": big_file(3 * MB)})

    assert refused.status_code == 413
    assert "What was sent is bigger than the pad takes (at most 256 KB)" in page_of(refused).text
    assert kept.read == 0 and kept.temporary_files == 0 and kept.on_disk == kept.in_memory == 0


def test_a_form_over_the_limit_is_refused_in_words(kept):
    refused = Client().post(
        reverse("login"),
        urlencode({"username": "x" * (300 * 1024), "password": "y"}),
        content_type="application/x-www-form-urlencoded",
    )

    assert refused.status_code == 413
    shown = page_of(refused)
    assert (
        shown.one("h1").text == "Too large to send"
        and "it was refused, and nothing was saved" in shown.one(role="alert").text
    )
    assert "no-cache" in refused["Cache-Control"]
    assert kept.read == 0


def test_the_pads_script_gets_the_sentence(owner_client):
    game = game_started("Ann", "Bob")

    refused = owner_client.post(
        reverse("scoring:save", args=[game.public_id]),
        {"field": "s1-farms", "value": "3" * (300 * 1024)},
        headers={"HX-Request": "true"},
    )

    assert refused.status_code == 413 and refused["Content-Type"] == "text/plain; charset=utf-8"
    assert refused.content.decode() == (
        "What was sent is bigger than the pad takes (at most 256\xa0KB): it was refused, and nothing was saved."
    )


def test_a_body_that_streams_past_its_content_length_is_cut_off_at_the_limit(kept):
    """An ASGI server hands the whole body over whatever its Content-Length said (Django's WSGI
    request reads no further than it): past the limit, the upload stops, and what keeps the file
    never receives a byte over it."""
    request = RequestFactory().post(reverse("login"))
    body = encode_multipart(BOUNDARY, {"username": "ann", "file": big_file(3 * MB)})
    said = {"CONTENT_TYPE": MULTIPART_CONTENT, "CONTENT_LENGTH": "1000"}  # (small: the memory handler takes it)

    with pytest.raises(RequestDataTooBig):
        MultiPartParser(said, io.BytesIO(body), request.upload_handlers).parse()

    assert 0 < kept.in_memory + kept.on_disk <= settings.DATA_UPLOAD_MAX_MEMORY_SIZE


# ---------------------------------------------------------------------------------------------
# The import: a game file of 2 MB


def game_file_of(size: int) -> SimpleUploadedFile:
    """A game file (FORMAT.md's example) padded with spaces to exactly ``size`` bytes."""
    text = json.dumps(example_document())
    return SimpleUploadedFile("backup.json", (text + " " * (size - len(text))).encode(), "application/json")


def test_the_import_takes_a_game_file_of_2_mb(owner_client, kept):
    taken = owner_client.post(reverse("scoring:import"), {"file": game_file_of(MAX_UPLOAD_BYTES)})

    assert taken.status_code == 302 and taken["Location"] == reverse("scoring:import")
    assert kept.temporary_files == 0  # (kept in memory while it is checked)


def test_the_import_refuses_a_file_just_over_2_mb_next_to_its_field(owner_client):
    refused = owner_client.post(reverse("scoring:import"), {"file": game_file_of(MAX_UPLOAD_BYTES + 1)})

    assert refused.status_code == 422
    assert "a game file can be at most 2 MB." in page_of(refused).text


def test_the_import_refuses_a_far_bigger_file_before_it_is_read(owner_client, kept):
    refused = owner_client.post(reverse("scoring:import"), {"file": game_file_of(3 * MB)})

    assert refused.status_code == 413
    assert "This file is bigger than a game file can be (at most 2 MB)" in page_of(refused).text
    assert kept.read == 0 and kept.temporary_files == 0
