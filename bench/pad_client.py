"""What a phone sends to the pad, shared by the in-process and the gunicorn benchmarks.

- ``save_encoding`` reads ``static/scoring/pad.js`` to see how it sends a save (``FormData``:
  multipart, as a browser builds it; ``URLSearchParams``: urlencoded), so the benchmark sends
  the same body, of the same size;
- ``save_body`` builds that body: ``field``, then ``value`` (a typed value) or ``step`` (a
  stepper's change), ``version`` (the field's version the phone last saw, sent with a step too:
  every save names it), then ``page`` and ``seq``, as ``send()`` in pad.js does;
- ``PadFields`` reads the pad page: the CSRF token pad.js sends, every field with its version,
  which fields are steppers;
- ``Addresses`` gives each phone its own loopback address (127.x.y.z) and a fresh one before it
  reaches the save limit (settings.RATE_LIMITS["save"]), so that the limit counts every save as
  in production and refuses none of the benchmark's.
"""

from __future__ import annotations

import gzip
import re
import secrets
import string
import threading
import zlib
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlencode

import brotli

from bench.common import ROOT

PAD_JS = ROOT / "static" / "scoring" / "pad.js"


def save_encoding(script: str | None = None) -> str:
    """``"multipart"`` or ``"urlencoded"``: what pad.js builds the body of a save with (the
    constructor nearest before the fetch of ``saveUrl``); ``"urlencoded"`` when it cannot tell."""
    if script is None:
        try:
            script = PAD_JS.read_text(encoding="utf-8")
        except OSError:
            return "urlencoded"
    at = script.find("saveUrl")
    fetches = [m.start() for m in re.finditer(r"fetch\(\s*[\w.]*saveUrl", script)]
    if fetches:
        at = fetches[0]
    if at < 0:
        return "urlencoded"
    before = script[:at]
    form, params = before.rfind("new FormData"), before.rfind("new URLSearchParams")
    return "multipart" if form > params else "urlencoded"


def multipart(pairs: list[tuple[str, str]], boundary: str | None = None) -> tuple[bytes, str]:
    """A multipart/form-data body as a browser sends a FormData (Chromium's boundary shape)."""
    boundary = boundary or "----WebKitFormBoundary" + "".join(
        secrets.choice(string.ascii_letters + string.digits) for _ in range(16)
    )
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n' for name, value in pairs
    ]
    body = ("".join(parts) + f"--{boundary}--\r\n").encode()
    return body, f"multipart/form-data; boundary={boundary}"


def save_body(
    encoding: str,
    name: str,
    *,
    value: str | None = None,
    version: int | None = None,
    step: int | None = None,
    page: str,
    seq: int,
) -> tuple[bytes, str]:
    """The body of one save, as pad.js's send() builds it, and its Content-Type. ``version``:
    the field's version the phone last saw, for a typed value and for a step alike (the save
    endpoint is to require it on every save); left out only when it is None."""
    pairs = [("field", name)]
    pairs += [("value", value or "")] if step is None else [("step", str(step))]
    if version is not None:
        pairs += [("version", str(version))]
    pairs += [("page", page), ("seq", str(seq))]
    if encoding == "multipart":
        return multipart(pairs)
    return urlencode(pairs).encode(), "application/x-www-form-urlencoded;charset=UTF-8"


@dataclass
class Field:
    name: str
    seat: int
    version: int | None
    stepper: bool = False
    sum: bool = False


@dataclass
class PadFields:
    """What a phone reads from the pad page."""

    csrf: str = ""
    fields: dict[str, Field] = field(default_factory=dict)

    @classmethod
    def parse(cls, html: str) -> PadFields:
        reader = _PadReader()
        reader.feed(html)
        found = cls(csrf=reader.csrf)
        for attrs in reader.inputs:
            name = attrs.get("name") or ""
            try:
                seat = int(attrs.get("data-seat") or 0)
            except ValueError:
                seat = 0
            version = attrs.get("data-version")
            found.fields[name] = Field(
                name=name,
                seat=seat,
                version=int(version) if version and version.isdigit() else None,
                stepper=name in reader.steppers,
                sum="sum" in (attrs.get("class") or "").split(),
            )
        return found

    def seats(self) -> list[int]:
        return sorted({f.seat for f in self.fields.values() if f.seat})

    def typed(self, seat: int) -> list[Field]:
        """The seat's fields that take a typed number (a sum), in page order."""
        return [f for f in self.fields.values() if f.seat == seat and f.sum]

    def steppers(self, seat: int) -> list[Field]:
        return [f for f in self.fields.values() if f.seat == seat and f.stepper]

    def pick_typed(self, seat: int, preferred: str = "farm_income") -> Field:
        candidates = self.typed(seat)
        if not candidates:
            raise LookupError(f"no typed field for seat {seat} on the pad page")
        return next((f for f in candidates if f.name.endswith("-" + preferred)), candidates[0])

    def pick_stepper(self, seat: int, preferred: str = "t0") -> Field:
        candidates = self.steppers(seat)
        if not candidates:
            raise LookupError(f"no stepper for seat {seat} on the pad page")
        return next((f for f in candidates if f.name.endswith("-" + preferred)), candidates[0])


class _PadReader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.csrf = ""
        self.inputs: list[dict] = []
        self.steppers: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = {key: (value or "") for key, value in attrs}
        if tag == "input":
            if attrs.get("name") == "csrfmiddlewaretoken" and not self.csrf:
                self.csrf = attrs.get("value", "")
            if "data-field" in attrs and attrs.get("name"):
                self.inputs.append(attrs)
        elif tag == "button" and attrs.get("name") == "step" and ":" in attrs.get("value", ""):
            self.steppers.add(attrs["value"].rsplit(":", 1)[0])

    handle_startendtag = handle_starttag


DECOMPRESS = {"gzip": gzip.decompress, "deflate": zlib.decompress, "br": brotli.decompress}


def decoded(body: bytes, content_encoding: str | None) -> str:
    """An answer's text, decompressed as it came (gzip, deflate or Brotli: the site sends pages
    in Brotli to a phone that accepts it, and gzip to one that does not)."""
    decompress = DECOMPRESS.get((content_encoding or "").strip().lower())
    return (decompress(body) if decompress else body).decode("utf-8", errors="replace")


def saved_version(html: str, name: str) -> int | None:
    """The version a save's answer gives its field (the field's status, ``data-version``)."""
    match = re.search(r'id="status-' + re.escape(name) + r'"[^>]*?data-version="(\d+)"', html)
    return int(match.group(1)) if match else None


class Addresses:
    """Loopback client addresses, 127.1.0.1 upwards, each used for at most ``per_address``
    saves (under settings.RATE_LIMITS["save"]'s count per window; Linux routes all of 127/8 to
    the loopback interface). Thread-safe."""

    def __init__(self, per_address: int, fixed: str | None = None):
        self.per_address = per_address
        self.fixed = fixed  # every phone on this one address (the limit then refuses what is over it)
        self._next = 0
        self._lock = threading.Lock()
        self.taken = 0

    def _take(self) -> str:
        with self._lock:
            self._next += 1
            self.taken += 1
            n = self._next
        if self.fixed:
            return self.fixed
        return f"127.{1 + n // 65025}.{(n // 255) % 255}.{1 + n % 255}"

    def holder(self) -> AddressHolder:
        return AddressHolder(self)


class AddressHolder:
    """One phone's address: a fresh one after ``per_address`` saves (or sooner, on request)."""

    def __init__(self, pool: Addresses):
        self.pool = pool
        self.address = pool._take()
        self.used = 0

    def use(self) -> str:
        if self.used >= self.pool.per_address:
            self.renew()
        self.used += 1
        return self.address

    def ensure_room(self, saves: int) -> None:
        if self.used + saves > self.pool.per_address:
            self.renew()

    def renew(self) -> None:
        self.address, self.used = self.pool._take(), 0
