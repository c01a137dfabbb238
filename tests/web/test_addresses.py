"""The address a share link carries (``scoring/web/addresses.py``): one a phone at the table reaches."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from scoring.web.addresses import address_for_phones, only_here


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "localhost", "[::1]", "::1", "app.localhost"])
def test_loopback_hosts_are_this_machines_only(host):
    assert only_here(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.23", "laptop.local", "scores.example.org", "[2001:db8::5]"])
def test_other_hosts_reach_further(host):
    assert not only_here(host)


def ask(host: str):
    return RequestFactory().get("/games/x/", headers={"host": host})


@pytest.fixture
def on_the_table(settings):
    settings.ALLOWED_HOSTS = ["*"]
    settings.TABLE_URL = "http://192.168.1.23:8000"
    settings.SITE_URL = ""
    return settings


def test_a_link_made_at_127_0_0_1_carries_the_tables_network_address(on_the_table):
    assert address_for_phones(ask("127.0.0.1:8000"), "/join/t/") == "http://192.168.1.23:8000/join/t/"
    assert address_for_phones(ask("localhost:8000"), "/join/t/") == "http://192.168.1.23:8000/join/t/"


def test_a_link_made_at_an_address_the_phones_reach_keeps_it(on_the_table):
    assert address_for_phones(ask("laptop.local:8000"), "/join/t/") == "http://laptop.local:8000/join/t/"


def test_the_public_address_overrides_both(on_the_table):
    on_the_table.SITE_URL = "https://scores.example.org"
    assert address_for_phones(ask("127.0.0.1:8000"), "/join/t/") == "https://scores.example.org/join/t/"
    assert address_for_phones(ask("laptop.local"), "/join/t/") == "https://scores.example.org/join/t/"


def test_without_a_network_address_a_loopback_link_stays_as_it_is(on_the_table):
    on_the_table.TABLE_URL = ""
    assert address_for_phones(ask("127.0.0.1:8000"), "/join/t/") == "http://127.0.0.1:8000/join/t/"
