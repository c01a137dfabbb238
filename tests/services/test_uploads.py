"""Specification of the game files waiting to be added (``scoring/services/uploads.py``), called
directly (no views; what the pages say of it is ``tests/views/test_transfer.py``'s).

A checked file waits in its session, one a session, holding one of the account's places and one
of the site's until it is added, cancelled or has waited an hour; with every place taken it
cannot wait and what waits stays. Adding it goes a step of ``IMPORT_STEP`` games at a time.
"""

from __future__ import annotations

import json
from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase

from scoring import services
from scoring.models import Game
from scoring.services import uploads
from tests.factories import user
from tests.gamefile.documents import DATA, example_document

pytestmark = pytest.mark.django_db

MULTI = (DATA / "multi_game.json").read_text(encoding="utf-8")  # three games
EXAMPLE = json.dumps(example_document())  # one game: Alice


def session() -> SessionBase:
    """A browser's session, as the site keeps them."""
    return import_module(settings.SESSION_ENGINE).SessionStore()


def test_a_kept_file_waits_in_its_session_under_a_token_the_form_must_name(owner):
    browser = session()

    assert services.upload_keep(session=browser, user=owner, name="backup.json", text=MULTI) is None

    waiting = services.upload_waiting(session=browser, user=owner)
    assert (waiting["name"], waiting["text"], len(waiting["places"])) == ("backup.json", MULTI, 2)
    assert browser[services.SESSION_UPLOAD]["token"] == waiting["token"]
    assert "text" not in browser[services.SESSION_UPLOAD]  # (the text is in the cache: sessions stay small)
    assert services.upload_named(session=browser, user=owner, token=waiting["token"]) == waiting
    assert services.upload_named(session=browser, user=owner, token="another-pages-token") is None


def test_a_sessions_next_file_replaces_its_waiting_one_in_the_same_places(owner, settings):
    settings.IMPORT_WAITING_PER_ACCOUNT = 1
    browser = session()
    services.upload_keep(session=browser, user=owner, name="first.json", text=MULTI)
    first = services.upload_waiting(session=browser, user=owner)

    assert services.upload_keep(session=browser, user=owner, name="second.json", text=EXAMPLE) is None

    second = services.upload_waiting(session=browser, user=owner)
    assert (second["name"], second["text"], second["places"]) == ("second.json", EXAMPLE, first["places"])
    assert services.upload_named(session=browser, user=owner, token=first["token"]) is None


def test_with_the_accounts_places_taken_a_file_cannot_wait_and_what_waits_stays(owner, settings):
    settings.IMPORT_WAITING_PER_ACCOUNT = 1
    phone, laptop = session(), session()
    services.upload_keep(session=phone, user=owner, name="phone.json", text=MULTI)

    assert services.upload_keep(session=laptop, user=owner, name="laptop.json", text=EXAMPLE) == uploads.ACCOUNT_FULL

    assert services.upload_waiting(session=laptop, user=owner) is None
    assert services.upload_waiting(session=phone, user=owner)["text"] == MULTI
    assert services.upload_keep(session=session(), user=user("ann"), name="ann.json", text=EXAMPLE) is None


def test_with_the_sites_places_taken_a_file_cannot_wait_and_gives_back_the_accounts_place(owner, settings):
    settings.IMPORT_WAITING_PER_ACCOUNT, settings.IMPORT_WAITING_TOTAL = 1, 1
    services.upload_keep(session=session(), user=user("ann"), name="ann.json", text=MULTI)
    phone = session()

    assert services.upload_keep(session=phone, user=owner, name="phone.json", text=EXAMPLE) == uploads.SITE_FULL

    assert services.upload_waiting(session=phone, user=owner) is None
    settings.IMPORT_WAITING_TOTAL = 2  # (a place of the site's freed: the account's was given back)
    assert services.upload_keep(session=phone, user=owner, name="phone.json", text=EXAMPLE) is None


def test_a_forgotten_file_frees_its_places(owner, settings):
    settings.IMPORT_WAITING_PER_ACCOUNT = 1
    phone, laptop = session(), session()
    services.upload_keep(session=phone, user=owner, name="phone.json", text=MULTI)

    services.upload_forget(session=phone, user=owner)

    assert services.upload_waiting(session=phone, user=owner) is None
    assert services.upload_keep(session=laptop, user=owner, name="laptop.json", text=EXAMPLE) is None


def test_adding_goes_a_step_at_a_time_then_forgets_the_file_and_counts_what_it_added(owner, monkeypatch):
    monkeypatch.setattr(uploads, "IMPORT_STEP", 2)
    browser = session()
    services.upload_keep(session=browser, user=owner, name="backup.json", text=MULTI)
    pending = {**services.upload_waiting(session=browser, user=owner), "done": 0, "added": 0, "skipped": 0}

    first = services.import_step(session=browser, user=owner, pending=pending)
    assert (first.finished, first.progress["done"], first.progress["total"]) == (False, 2, 3)
    assert browser[services.SESSION_UPLOAD]["done"] == 2 and Game.objects.count() == 2

    last = services.import_step(
        session=browser, user=owner, pending=services.upload_waiting(session=browser, user=owner)
    )
    assert (last.finished, last.added, last.skipped, last.name) == (True, 3, 0, "backup.json")
    assert services.upload_waiting(session=browser, user=owner) is None


def test_a_file_found_wrong_when_adding_is_forgotten_with_its_problems(owner):
    browser = session()
    services.upload_keep(session=browser, user=owner, name="bad.json", text='{"format": "apiary-scorepad"}')
    pending = {**services.upload_waiting(session=browser, user=owner), "done": 0, "added": 0, "skipped": 0}

    step = services.import_step(session=browser, user=owner, pending=pending)

    assert [problem.path for problem in step.problems] == ["version", "games"]
    assert not step.finished and Game.objects.count() == 0
    assert services.upload_waiting(session=browser, user=owner) is None
