"""``make run``'s launcher (``apiary_site/table.py``): the address it offers the phones, the hosts it
answers, the key it keeps, what the terminal says. The server it starts is run for real in
tests/browser/test_table_server.py."""

from __future__ import annotations

import stat

from apiary_site.table import Table, banner, local_name, phone_addresses, secret_key_file, table

LAPTOP = {
    "lo": ["127.0.0.1", "::1"],
    "docker0": ["172.17.0.1"],
    "wlan0": ["192.168.1.23", "fe80::1c2b:3cff:fe4d:5e6f%wlan0", "2a01:e0a:1:2::23"],
    "eth0": ["169.254.10.2"],
}


def test_the_phones_are_offered_the_home_networks_address_not_loopback_link_local_nor_a_bridge():
    assert phone_addresses(LAPTOP) == ["192.168.1.23", "172.17.0.1"]


def test_a_private_address_comes_before_a_public_one_and_ipv6_is_never_offered():
    interfaces = {"en0": ["81.2.69.160", "10.0.0.5"], "en1": ["2001:db8::5"]}
    assert phone_addresses(interfaces) == ["10.0.0.5", "81.2.69.160"]


def test_nothing_to_offer_from_loopback_alone():
    assert phone_addresses({"lo": ["127.0.0.1", "::1"]}) == []


def test_the_table_is_found_at_the_best_address_and_answers_every_address_and_name_of_the_machine():
    found = table(port=8000, interfaces=LAPTOP, hostname="Cabin-Laptop.home", mdns=True)

    assert found.url == "http://192.168.1.23:8000/"
    assert found.also == ["http://cabin-laptop.local:8000/", "http://172.17.0.1:8000/"]
    for host in (
        "localhost",
        "127.0.0.1",
        "[::1]",
        "192.168.1.23",
        "[2a01:e0a:1:2::23]",
        "[fe80::1c2b:3cff:fe4d:5e6f]",
    ):
        assert host in found.hosts
    for name in ("cabin-laptop.home", "cabin-laptop", "cabin-laptop.local"):
        assert name in found.hosts


def test_an_address_given_wins_and_is_answered():
    found = table(port=8001, interfaces=LAPTOP, hostname="laptop", chosen="table.lan")

    assert found.url == "http://table.lan:8001/"
    assert "table.lan" in found.hosts
    assert found.also == ["http://192.168.1.23:8001/", "http://172.17.0.1:8001/"]


def test_without_a_network_the_machines_own_name_is_offered():
    assert table(port=8000, interfaces={"lo": ["127.0.0.1"]}, hostname="laptop").url == "http://laptop:8000/"
    assert table(port=8000, interfaces={}, hostname="laptop", mdns=True).url == "http://laptop.local:8000/"
    assert local_name("Cabin-Laptop.fritz.box") == "cabin-laptop.local"


def test_the_key_is_made_once_for_its_owner_only_and_kept(tmp_path):
    path = tmp_path / "key"
    secret_key_file(path)
    made = path.read_text()

    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(made.strip()) >= 50
    secret_key_file(path)
    assert path.read_text() == made


def test_the_terminal_says_what_to_open_on_the_phones_and_on_this_computer():
    said = banner(
        Table(url="http://192.168.1.23:8000/", also=["http://laptop.local:8000/"], hosts=[], port=8000), qr="[QR]"
    )

    lines = said.splitlines()
    assert (
        lines.index("    http://192.168.1.23:8000/")
        < lines.index("[QR]")
        < lines.index("    http://laptop.local:8000/")
    )
    assert "On this computer, open http://127.0.0.1:8000/" in lines
