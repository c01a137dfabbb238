"""Specification of the game files waiting to be added (``scoring/services/uploads.py``), called
directly (no views; what the pages say of it is ``tests/views/test_transfer.py``'s).

A checked file waits in the waiting room, one a session, counted for its account, its client
address and the site, in files and in bytes, until it is added, cancelled, its session signs out
or the hour from the upload that took its place is over; a file the room cannot hold is refused
with the bound it met and when it would fit, and what waits stays. Adding it goes a step of
``IMPORT_STEP`` games at a time.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.auth import logout
from django.contrib.sessions.backends.base import SessionBase
from django.db.models import F
from django.test import RequestFactory
from django.utils import timezone

from scoring.models import Game, WaitingFile
from scoring.services import uploads
from scoring.services.uploads import (
    SESSION_UPLOAD,
    import_step,
    upload_forget,
    upload_keep,
    upload_named,
    upload_waiting,
)
from tests.gamefile.documents import DATA, example_document
from tests.support.factories import user

pytestmark = pytest.mark.django_db

MULTI = (DATA / "multi_game.json").read_text(encoding="utf-8")  # three games
EXAMPLE = json.dumps(example_document())  # one game: Alice


HOME, AWAY = "192.0.2.1", "198.51.100.7"  # two client addresses


def session() -> SessionBase:
    """A browser's session, as the site keeps them."""
    return import_module(settings.SESSION_ENGINE).SessionStore()


def keep(*, session: SessionBase, user, name: str, text: str, address: str = HOME) -> uploads.NoPlace | None:
    """A checked file sent from ``address`` (HOME unless said) to wait."""
    return upload_keep(session=session, user=user, address=address, name=name, text=text)


def of_size(megabytes: float) -> str:
    """A text of that many megabytes: the room counts a file's bytes (checking it came before)."""
    return "x" * int(megabytes * uploads.MB)


def minutes_pass(minutes: int) -> None:
    """So many minutes go by for the waiting room (every place is over that much sooner)."""
    WaitingFile.objects.update(expires=F("expires") - timedelta(minutes=minutes))


def over_in(browser: SessionBase, minutes: int) -> datetime:
    """The place of the browser's waiting file made to be over ``minutes`` from now: when."""
    at = timezone.now() + timedelta(minutes=minutes)
    WaitingFile.objects.filter(token=browser[SESSION_UPLOAD]["token"]).update(expires=at)
    return at


def test_a_kept_file_waits_in_the_room_under_a_token_the_form_must_name(owner):
    browser = session()

    assert keep(session=browser, user=owner, name="backup.json", text=MULTI) is None

    waiting = upload_waiting(session=browser, user=owner)
    assert (waiting["name"], waiting["text"]) == ("backup.json", MULTI)
    assert timedelta(minutes=59) < waiting["until"] - timezone.now() <= timedelta(hours=1)
    assert browser[SESSION_UPLOAD]["token"] == waiting["token"]
    assert "text" not in browser[SESSION_UPLOAD]  # (the text is in the room: sessions stay small)
    assert upload_named(session=browser, user=owner, token=waiting["token"]) == waiting
    assert upload_named(session=browser, user=owner, token="another-pages-token") is None


def test_a_sessions_next_file_replaces_its_waiting_one_in_its_place_until_the_same_time(owner, settings):
    settings.IMPORT_WAITING_PER_ACCOUNT = 1
    browser = session()
    keep(session=browser, user=owner, name="first.json", text=MULTI)
    first = upload_waiting(session=browser, user=owner)
    minutes_pass(40)

    assert keep(session=browser, user=owner, name="second.json", text=EXAMPLE) is None

    second = upload_waiting(session=browser, user=owner)
    assert (second["name"], second["text"]) == ("second.json", EXAMPLE)
    assert second["until"] == first["until"] - timedelta(minutes=40)  # not renewed: 20 minutes left
    assert WaitingFile.objects.count() == 1
    assert upload_named(session=browser, user=owner, token=first["token"]) is None


def test_with_the_accounts_places_taken_a_file_cannot_wait_and_what_waits_stays(owner, settings):
    settings.IMPORT_WAITING_PER_ACCOUNT = 1
    phone, laptop = session(), session()
    keep(session=phone, user=owner, name="phone.json", text=MULTI)
    over = over_in(phone, 25)

    refused = keep(session=laptop, user=owner, name="laptop.json", text=EXAMPLE, address=AWAY)

    assert refused == uploads.NoPlace(uploads.ACCOUNT, waiting=1, until=over)
    assert upload_waiting(session=laptop, user=owner) is None
    assert upload_waiting(session=phone, user=owner)["text"] == MULTI
    assert keep(session=session(), user=user("ann"), name="ann.json", text=EXAMPLE) is None


def test_an_address_holds_so_many_files_at_most_whatever_their_accounts(owner, settings):
    settings.IMPORT_WAITING_PER_ADDRESS = 2
    first, second = session(), session()
    keep(session=first, user=user("ann"), name="ann.json", text=EXAMPLE)
    keep(session=second, user=user("ben"), name="ben.json", text=EXAMPLE)
    over = over_in(first, 30)

    assert keep(session=session(), user=owner, name="mine.json", text=EXAMPLE) == uploads.NoPlace(
        uploads.ADDRESS, waiting=2, until=over
    )
    assert keep(session=session(), user=owner, name="mine.json", text=EXAMPLE, address=AWAY) is None


def test_an_address_holds_so_many_megabytes_and_a_file_waits_for_as_many_to_stop_as_it_needs(owner, settings):
    settings.IMPORT_WAITING_PER_ADDRESS_MB = 3
    sent = [session() for _ in range(3)]
    for browser, name, megabytes in zip(sent, ("ann", "ben", "cid"), (1, 1, 0.9), strict=True):
        assert keep(session=browser, user=user(name), name=f"{name}.json", text=of_size(megabytes)) is None
    over_in(sent[0], 10)
    second_over = over_in(sent[1], 20)
    over_in(sent[2], 50)

    # 2.9 MB wait: 2 MB more fit once the first two have stopped waiting (0.9 + 2 <= 3).
    assert keep(session=session(), user=owner, name="big.json", text=of_size(2)) == uploads.NoPlace(
        uploads.ADDRESS, waiting=3, until=second_over
    )
    assert keep(session=session(), user=owner, name="small.json", text=of_size(0.1)) is None


def test_the_site_holds_so_many_files_and_megabytes_at_most(owner, settings):
    settings.IMPORT_WAITING_TOTAL, settings.IMPORT_WAITING_TOTAL_MB = 2, 2
    ann = session()
    keep(session=ann, user=user("ann"), name="ann.json", text=of_size(1.5))
    over = over_in(ann, 15)

    refused = keep(session=session(), user=owner, name="big.json", text=of_size(1), address=AWAY)

    assert refused == uploads.NoPlace(uploads.SITE, waiting=1, until=over)
    assert WaitingFile.objects.count() == 1
    assert keep(session=session(), user=owner, name="small.json", text=of_size(0.4), address=AWAY) is None
    assert keep(session=session(), user=user("ben"), name="ben.json", text=EXAMPLE, address="203.0.113.5") == (
        uploads.NoPlace(uploads.SITE, waiting=2, until=over)
    )


def test_of_the_bounds_a_file_meets_it_is_told_the_one_it_waits_for_longest(owner, settings):
    settings.IMPORT_WAITING_PER_ACCOUNT, settings.IMPORT_WAITING_PER_ADDRESS = 1, 2
    phone, ann, ben = session(), session(), session()
    keep(session=phone, user=owner, name="phone.json", text=EXAMPLE, address=AWAY)
    keep(session=ann, user=user("ann"), name="ann.json", text=EXAMPLE)
    keep(session=ben, user=user("ben"), name="ben.json", text=EXAMPLE)
    over_in(phone, 10)
    address_free = over_in(ann, 40)
    over_in(ben, 50)

    assert keep(session=session(), user=owner, name="laptop.json", text=EXAMPLE) == uploads.NoPlace(
        uploads.ADDRESS, waiting=2, until=address_free
    )


def test_a_forgotten_file_frees_its_place(owner, settings):
    settings.IMPORT_WAITING_PER_ACCOUNT = 1
    phone, laptop = session(), session()
    keep(session=phone, user=owner, name="phone.json", text=MULTI)

    upload_forget(session=phone, user=owner)

    assert upload_waiting(session=phone, user=owner) is None
    assert keep(session=laptop, user=owner, name="laptop.json", text=EXAMPLE) is None


def test_signing_out_frees_the_sessions_place(owner, settings):
    """Django's ``logout`` (its ``user_logged_out`` signal, before the session is flushed)."""
    settings.IMPORT_WAITING_PER_ACCOUNT = 1
    phone, laptop = session(), session()
    keep(session=phone, user=owner, name="phone.json", text=MULTI)
    signing_out = RequestFactory().post("/accounts/logout/")
    signing_out.session, signing_out.user = phone, owner

    logout(signing_out)

    assert WaitingFile.objects.count() == 0
    assert keep(session=laptop, user=owner, name="laptop.json", text=EXAMPLE) is None


def test_a_file_whose_hour_is_over_waits_no_more_and_frees_its_place(owner, settings):
    settings.IMPORT_WAITING_PER_ACCOUNT = 1
    phone, laptop = session(), session()
    keep(session=phone, user=owner, name="phone.json", text=MULTI)
    minutes_pass(60)

    assert keep(session=laptop, user=owner, name="laptop.json", text=EXAMPLE) is None

    assert upload_waiting(session=phone, user=owner) is None
    assert WaitingFile.objects.count() == 1  # (the one over was deleted as the room was counted)


def test_adding_goes_a_step_at_a_time_then_forgets_the_file_and_counts_what_it_added(owner, monkeypatch):
    monkeypatch.setattr(uploads, "IMPORT_STEP", 2)
    browser = session()
    keep(session=browser, user=owner, name="backup.json", text=MULTI)
    pending = {**upload_waiting(session=browser, user=owner), "done": 0, "added": 0, "skipped": 0}

    first = import_step(session=browser, user=owner, pending=pending)
    assert (first.finished, first.progress["done"], first.progress["total"]) == (False, 2, 3)
    assert browser[SESSION_UPLOAD]["done"] == 2 and Game.objects.count() == 2

    last = import_step(session=browser, user=owner, pending=upload_waiting(session=browser, user=owner))
    assert (last.finished, last.added, last.skipped, last.name) == (True, 3, 0, "backup.json")
    assert upload_waiting(session=browser, user=owner) is None


def test_a_file_found_wrong_when_adding_is_forgotten_with_its_problems(owner):
    browser = session()
    keep(session=browser, user=owner, name="bad.json", text='{"format": "apiary-scorepad"}')
    pending = {**upload_waiting(session=browser, user=owner), "done": 0, "added": 0, "skipped": 0}

    step = import_step(session=browser, user=owner, pending=pending)

    assert [problem.path for problem in step.problems] == ["version", "games"]
    assert not step.finished and Game.objects.count() == 0
    assert upload_waiting(session=browser, user=owner) is None
