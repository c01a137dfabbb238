"""The table's own server: what ``make run`` starts on a laptop for the phones around it.

``python -m apiary_site.table`` (scripts/run.sh, after making .venv) runs the site as it runs for
real, on the local network:

1. a secret key of its own, made on the first run and kept in ``KEY_FILE`` (git ignores it,
   readable by its owner only; SECRET_KEY_FILE names another), so that a restart signs nobody
   out and a visitor's games stay theirs;
2. production's settings (DEBUG off, static files collected, hashed and compressed) over plain
   HTTP, which is what a home network has (HTTPS=false: cookies not marked Secure; CSRF checks
   the request's origin against the host it named);
3. the hosts it answers computed now: this machine's addresses and names, and localhost; a
   request naming another host is refused, as in production;
4. the address the phones open, printed with its QR code, and given to the site (TABLE_URL)
   for the share links made from the laptop's own browser at 127.0.0.1;
5. then the site's one server (apiary_site/server.py) in this process's place, on every
   interface (HOST, 0.0.0.0 by default) and PORT (8000): Ctrl-C stops it and its workers.

What the phones reach is found from this machine's network interfaces (``phone_addresses``);
``TABLE_ADDRESS`` names it instead, an address or a host name, when the guess is wrong (a VPN, a
virtual machine's bridge) or to test.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import socket
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from scoring.web.addresses import only_here

ROOT = Path(__file__).resolve().parent.parent
KEY_FILE = ROOT / ".secret-key"
# Interfaces that a phone on the home network does not reach: containers' and virtual machines'
# bridges, VPN tunnels. Their addresses are answered, but never offered to the phones first.
_ASIDE = ("docker", "br-", "veth", "virbr", "vboxnet", "vmnet", "tun", "tap", "wg", "utun", "zt", "tailscale")


@dataclass(frozen=True)
class Table:
    """Where the phones find the site: ``url`` (what to open on a phone), the other addresses they
    may use, and every host name the site answers to."""

    url: str
    also: list[str]
    hosts: list[str]
    port: int


def phone_addresses(interfaces: Mapping[str, Iterable[str]]) -> list[str]:
    """The IPv4 addresses of ``interfaces`` (an interface's name → its addresses, as they are up)
    that another device on the network can reach, best first: neither loopback nor link-local,
    a home network's private ranges before others, virtual interfaces last."""
    found = []
    for name, addresses in interfaces.items():
        aside = name.lower().startswith(_ASIDE)
        for text in addresses:
            try:
                address = ipaddress.ip_address(text.split("%")[0])
            except ValueError:
                continue
            if address.version != 4 or address.is_loopback or address.is_link_local or address.is_unspecified:
                continue
            found.append((aside, not address.is_private, str(address)))
    return [address for *_, address in sorted(set(found), key=lambda item: item[:2])]


def machine_interfaces() -> dict[str, list[str]]:
    """This machine's interfaces that are up, each with its addresses (psutil reads them)."""
    import psutil

    up = {name for name, stats in psutil.net_if_stats().items() if stats.isup}
    return {
        name: [entry.address for entry in entries if entry.family in (socket.AF_INET, socket.AF_INET6)]
        for name, entries in psutil.net_if_addrs().items()
        if name in up
    }


def local_name(hostname: str) -> str:
    """The machine's name on the network's multicast DNS (Bonjour, Avahi): ``laptop.local``."""
    return hostname.split(".")[0].lower() + ".local"


def answers_multicast_dns() -> bool:
    """Whether this machine answers ``.local`` names: macOS always, Linux when Avahi runs."""
    return sys.platform == "darwin" or Path("/run/avahi-daemon/socket").exists()


def host_of(address: str) -> str:
    """An address as a host of ALLOWED_HOSTS and of a URL: IPv6 in brackets."""
    try:
        return f"[{address}]" if ipaddress.ip_address(address.split("%")[0]).version == 6 else address
    except ValueError:
        return address


def table(
    *, port: int, interfaces: Mapping[str, Iterable[str]], hostname: str, chosen: str = "", mdns: bool = False
) -> Table:
    """Where the phones find the site on ``port``: ``chosen`` (TABLE_ADDRESS) if given, else the best
    of ``interfaces``' addresses, else this machine's own name; the hosts it answers: every address
    of ``interfaces``, the machine's names, and localhost."""
    reachable = phone_addresses(interfaces)
    names = [hostname.lower(), hostname.split(".")[0].lower(), local_name(hostname)]
    first = chosen or (reachable[0] if reachable else (local_name(hostname) if mdns else hostname.lower()))
    others = [address for address in reachable if address != first]
    if mdns and local_name(hostname) != first:
        others.insert(0, local_name(hostname))
    every = [text.split("%")[0] for addresses in interfaces.values() for text in addresses]
    hosts = ["localhost", "127.0.0.1", "[::1]", host_of(first), *names, *map(host_of, every)]
    return Table(
        url=f"http://{host_of(first)}:{port}/",
        also=[f"http://{host_of(address)}:{port}/" for address in others],
        hosts=list(dict.fromkeys(hosts)),
        port=port,
    )


def secret_key_file(path: Path = KEY_FILE) -> Path:
    """``path``, holding this site's key: made on the first run (readable by its owner only), kept."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path
    with os.fdopen(descriptor, "w") as made:
        made.write(secrets.token_urlsafe(50) + "\n")
    return path


def banner(place: Table, *, qr: str) -> str:
    """What the terminal says: the address to open on the phones, its QR code, the others."""
    lines = [
        "",
        "Apiary Scorepad is serving the table.",
        "Open this address on each phone on this network, or scan the code.",
        "",
        f"    {place.url}",
        "",
        qr,
        "",
    ]
    if place.also:
        lines += ["If a phone cannot open it, try one of these instead.", *(f"    {url}" for url in place.also)]
    lines += [f"On this computer, open http://127.0.0.1:{place.port}/", "Ctrl-C stops it.", ""]
    return "\n".join(lines)


def terminal_qr(text: str) -> str:
    import io

    import segno

    drawn = io.StringIO()
    segno.make(text, error="m").terminal(out=drawn, compact=True, border=2)
    return drawn.getvalue().rstrip("\n")


def prepare(env: Mapping[str, str]) -> None:
    """The database migrated, the cache table made, the static files collected, under ``env``."""
    os.environ.update(env)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    from django.db import connections

    connections.close_all()  # (the server's workers are forked from this process: none inherits a connection)


def main() -> None:
    host = os.environ.get("HOST") or "0.0.0.0"
    port = int(os.environ.get("PORT") or 8000)
    place = table(
        port=port,
        interfaces=machine_interfaces(),
        hostname=socket.gethostname(),
        chosen=os.environ.get("TABLE_ADDRESS", "").strip(),
        mdns=answers_multicast_dns(),
    )
    given = [name for name in os.environ.get("ALLOWED_HOSTS", "").split(",") if name.strip()]
    env = {
        "DJANGO_SETTINGS_MODULE": "apiary_site.settings",
        "DEBUG": "false",
        "HTTPS": "false",
        "SECRET_KEY_FILE": str(secret_key_file(Path(os.environ.get("SECRET_KEY_FILE") or KEY_FILE))),
        "ALLOWED_HOSTS": ",".join([*place.hosts, *given]),
        "TABLE_URL": place.url.rstrip("/"),
    }
    prepare(env)
    if only_here(host):  # (HOST=127.0.0.1: the phones are left out)
        print(
            f"\nApiary Scorepad is serving this computer only (HOST={host}): open http://127.0.0.1:{port}/", flush=True
        )
    else:
        print(banner(place, qr=terminal_qr(place.url)), flush=True)
    from apiary_site.server import server

    server(host=host, port=port).serve()


if __name__ == "__main__":
    main()
