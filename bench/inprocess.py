"""The in-process benchmark: Django's test client through the whole middleware (DEBUG off), on
the throw-away database. Imported once Django is set up (bench/run.py).

Every timing is interleaved with its baseline, ``/healthz`` (one ``SELECT 1``, a tiny text
template) asked by the same signed-in client: a sample of the figure, a sample of the
baseline, and so on (the order alternating), so both see the same machine.

SQL statements are counted with CaptureQueriesContext, leaving out the transaction's own
statements (BEGIN, COMMIT, SAVEPOINT, RELEASE, ROLLBACK TO) and the session look-ups (the
SELECTs of django_session and auth_user); every statement left is counted, the rate limit's
cache included, and listed in the JSON.
"""

from __future__ import annotations

import re
import secrets
import statistics
import time
from collections import Counter
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bench.common import summary
from bench.pad_client import Addresses, AddressHolder, PadFields, decoded, save_body, saved_version
from scoring.models import Game
from scoring.rules.categories import During, categories_of
from scoring.services.finishing import game_finish
from scoring.services.games import PlayerSetup, game_create

PLAYERS = {
    1: [PlayerSetup("Automa", automa=True), PlayerSetup("Solo")],  # a solo game
    4: [PlayerSetup(name) for name in ("Alice", "Bruno", "Carla", "Dmitri")],
    5: [PlayerSetup(name) for name in ("Alice", "Bruno", "Carla", "Dmitri", "Eve")],
}
# Every request comes through the deployment's TLS proxy (bench/run.py sets PROXY_SSL_HEADER).
# A phone's fetch() and page loads accept compressed answers (and send the Host).
PROXY_HEADERS = {"X-Forwarded-Proto": "https", "Host": "testserver", "Accept-Encoding": "gzip, br"}
ORIGIN = "https://testserver"  # what a phone's fetch() sends with a POST
BOOKKEEPING = re.compile(r"^\s*(BEGIN|COMMIT|SAVEPOINT|RELEASE|ROLLBACK TO)\b", re.IGNORECASE)
TABLE = re.compile(r'\b(?:FROM|INTO|UPDATE)\s+["`]?(\w+)["`]?', re.IGNORECASE)


def comb(sectors: int) -> list[tuple[int, int]]:
    return [(9 + i % 5, i % 4) for i in range(sectors)]


def game_for(owner: User, players: int, sectors: int):
    """A game as the start form makes it, its during-the-game points as the breakdown: the
    benchmark's pads type every one of its rows (the most fields a pad has)."""
    return game_create(players=PLAYERS[players], sectors=comb(sectors), owner=owner, during=During.BREAKDOWN)


def games_finished_for(owner: User, players: int, sectors: int):
    """A game of ``game_for``'s shape, every value entered (each player a different total) and
    finished: the results and the table view as a table reads them at the end."""
    game = game_for(owner, players, sectors)
    for seat in game.seats.all():
        for category in categories_of(During.BREAKDOWN):
            setattr(seat, category.key, True if category.is_flag else seat.number + 2)
        seat.active_workers = seat.number % 3
        seat.save()
    game_finish(game=game)
    return game


def classify(sql: str) -> tuple[str, str]:
    """("counted" | "transaction" | "session", "VERB table") for one statement."""
    verb = sql.strip().split(None, 1)[0].upper() if sql.strip() else "?"
    match = TABLE.search(sql)
    table = match.group(1) if match else "-"
    if BOOKKEEPING.match(sql):
        return "transaction", verb
    if verb == "SELECT" and table in ("django_session", "auth_user"):
        return "session", f"{verb} {table}"
    return "counted", f"{verb} {table}"


def count_statements(queries: list[dict]) -> dict:
    kinds: dict[str, list[str]] = {"counted": [], "transaction": [], "session": []}
    for query in queries:
        kind, label = classify(query["sql"])
        kinds[kind].append(label if kind != "counted" else f"{label}: {query['sql'][:160]}")
    tables = Counter(classify(q["sql"])[1] for q in queries if classify(q["sql"])[0] == "counted")
    return {
        "count": len(kinds["counted"]),
        "by_statement": dict(sorted(tables.items())),
        "left_out": {"transaction": len(kinds["transaction"]), "session": len(kinds["session"])},
        "statements": kinds["counted"],
    }


@dataclass
class Phone:
    """A signed-in phone on one game's pad: its page id, its rising seq, the versions it saw."""

    client: Client
    game: Game
    encoding: str
    address: AddressHolder

    def __post_init__(self):
        self.page = secrets.token_hex(8)
        self.seq = 0
        self.pad = PadFields()
        self.reload()
        self.value = 0
        self.token = 0

    @property
    def pad_url(self) -> str:
        return f"/games/{self.game.public_id}/"

    def reload(self):
        response = self.client.get(self.pad_url)
        assert response.status_code == 200, ("pad page", response.status_code)
        self.pad = PadFields.parse(text(response))
        return response

    def headers(self) -> dict:
        return {"Accept": "text/plain, text/html;q=0.9", "X-CSRFToken": self.pad.csrf, "Origin": ORIGIN}

    def _post(self, name: str, **kind):
        self.seq += 1
        body, content_type = save_body(self.encoding, name, page=self.page, seq=self.seq, **kind)
        start = time.perf_counter()
        response = self.client.post(
            f"/games/{self.game.public_id}/save/",
            body,
            content_type=content_type,
            headers=self.headers(),
            REMOTE_ADDR=self.address.use(),
        )
        elapsed = (time.perf_counter() - start) * 1000
        self.last_body = body
        return response, elapsed

    def save(self, name: str):
        """A typed value (different from the last), based on the version this phone saw."""
        self.value = self.value % 9 + 1
        field = self.pad.fields[name]
        response, elapsed = self._post(name, value=str(self.value), version=field.version or 0)
        if response.status_code != 200:
            raise RuntimeError(f"save answered {response.status_code}: {text(response)[:300]!r}")
        version = saved_version(text(response), name)
        field.version = version if version is not None else field.version
        return response, elapsed

    def step(self, name: str):
        """A stepper's +1, then -1, and so on (the stored value stays within its limits), with
        the version this phone saw, as every save sends it."""
        self.token = 1 - self.token
        field = self.pad.fields[name]
        response, elapsed = self._post(name, step=1 if self.token else -1, version=field.version or 0)
        if response.status_code != 200:
            raise RuntimeError(f"step answered {response.status_code}: {text(response)[:300]!r}")
        version = saved_version(text(response), name)
        field.version = version if version is not None else field.version
        return response, elapsed

    def poll(self, etag: str):
        start = time.perf_counter()
        response = self.client.get(
            f"/games/{self.game.public_id}/live/", headers={"HX-Request": "true", "If-None-Match": etag}
        )
        return response, (time.perf_counter() - start) * 1000


def interleaved(target, baseline, samples: int, warmup: int) -> tuple[list[float], list[float]]:
    """``target()`` and ``baseline()`` each return one sample in ms; alternate them."""
    for _ in range(warmup):
        target()
        baseline()
    measured, base = [], []
    for i in range(samples):
        if i % 2:
            base.append(baseline())
            measured.append(target())
        else:
            measured.append(target())
            base.append(baseline())
    return measured, base


class InProcess:
    """The phones and games of the in-process section, on one owner's account."""

    def __init__(self, *, sectors: int, encoding: str, addresses: Addresses):
        self.owner = User.objects.create_user("bench-owner")
        self.client = Client(enforce_csrf_checks=True, headers=PROXY_HEADERS)
        self.client.force_login(self.owner)
        self.encoding = encoding
        self.addresses = addresses
        self.games = {n: game_for(self.owner, n, sectors) for n in (1, 4, 5)}
        self.phones = {n: Phone(self.client, game, encoding, addresses.holder()) for n, game in self.games.items()}

    def healthz(self) -> float:
        start = time.perf_counter()
        response = self.client.get("/healthz")
        elapsed = (time.perf_counter() - start) * 1000
        assert response.status_code == 200, ("healthz", response.status_code)
        return elapsed

    def fields(self, players: int) -> tuple[str, str]:
        """The typed field and the stepper this game's benchmark uses: its last seat's (the
        solo game's player; the Automa sits first)."""
        phone = self.phones[players]
        seat = phone.pad.seats()[-1]
        return phone.pad.pick_typed(seat).name, phone.pad.pick_stepper(seat).name

    # -- SQL statements ------------------------------------------------------------------------

    def statements(self, players: int, kind: str, repeat: int = 7) -> dict:
        """The statements of one save (``kind`` "save") or step ("step") once warm: the usual
        count of ``repeat`` in a row (one save's statements listed, every count kept)."""
        phone = self.phones[players]
        typed, stepper = self.fields(players)
        act = (lambda: phone.save(typed)) if kind == "save" else (lambda: phone.step(stepper))
        for _ in range(3):
            act()
        phone.address.ensure_room(repeat)
        counts = []
        for _ in range(repeat):
            with CaptureQueriesContext(connection) as captured:
                act()
            counts.append(count_statements(captured.captured_queries))
        # The usual count: now and then the save limit sweeps its old rows (one statement more).
        usual = statistics.mode(c["count"] for c in counts)
        found = next(c for c in counts if c["count"] == usual)
        return {**found, "counts": [c["count"] for c in counts], "field": typed if kind == "save" else stepper}

    def poll_statements(self) -> dict:
        phone = self.phones[4]
        etag = self.client.get(f"/games/{phone.game.public_id}/live/", headers={"HX-Request": "true"})["ETag"]
        phone.poll(etag)
        with CaptureQueriesContext(connection) as captured:
            response, _ = phone.poll(etag)
        return {
            **count_statements(captured.captured_queries),
            "status": response.status_code,
            "body_bytes": len(response.content),
            "etag": etag,
        }

    # -- timings ---------------------------------------------------------------------------------

    def timings(self, samples: int, warmup: int) -> dict[str, dict]:
        """Each line against its own interleaved baseline: {line: {"measured": summary, "baseline": summary}}."""
        results = {}
        phone4, phone5 = self.phones[4], self.phones[5]
        typed, stepper = self.fields(4)

        def line(name, target):
            measured, base = interleaved(target, self.healthz, samples, warmup)
            results[name] = {"measured": summary(measured), "baseline": summary(base)}

        line("save", lambda: phone4.save(typed)[1])
        line("step", lambda: phone4.step(stepper)[1])
        line("pad4", lambda: self._get(phone4.pad_url))
        line("pad5", lambda: self._get(phone5.pad_url))
        etag = self.client.get(f"/games/{phone4.game.public_id}/live/", headers={"HX-Request": "true"})["ETag"]
        statuses: Counter[int] = Counter()

        def poll():
            response, elapsed = phone4.poll(etag)  # the ETag as the phone got it, sent back as it is
            statuses[response.status_code] += 1
            return elapsed

        line("poll", poll)
        results["poll"]["statuses"] = {str(k): v for k, v in statuses.items()}

        def poll_after_a_save():
            """The first phone of the table to poll after a save: its answer made for it."""
            phone4.save(typed)  # (not timed: another phone's save)
            return phone4.poll(etag)[1]

        line("poll_news", poll_after_a_save)
        # The same revision asked again by the table's other phones (each with the ETag of an
        # earlier revision): the answer the first one made, when it is kept.
        line("poll_made", lambda: phone4.poll(etag)[1])
        line("history", lambda: self._get("/"))
        return results

    def _get(self, url: str) -> float:
        start = time.perf_counter()
        response = self.client.get(url)
        elapsed = (time.perf_counter() - start) * 1000
        assert response.status_code == 200, (url, response.status_code)
        return elapsed

    # -- sizes -------------------------------------------------------------------------------------

    def request_bodies(self) -> dict:
        """The bodies of a typed save and of a step as pad.js sends them (a 16-hex page id, seq
        12, version 3 with both, a two-digit value): their bytes."""
        typed, stepper = self.fields(4)
        page = secrets.token_hex(8)
        save, content_type = save_body(self.encoding, typed, value="12", version=3, page=page, seq=12)
        step, _ = save_body(self.encoding, stepper, step=1, version=3, page=page, seq=12)
        return {
            "encoding": self.encoding,
            "content_type": content_type.split(";")[0],
            "save": len(save),
            "step": len(step),
            "save_example": save.decode(errors="replace"),
            "step_example": step.decode(errors="replace"),
            "csrf_header": len(f"X-CSRFToken: {self.phones[4].pad.csrf}\r\n"),
        }

    def page_bytes(self) -> dict:
        """The HTML of the 4-player pad page and of a poll that finds something new, before
        compression (``Accept-Encoding: identity``); and of a 4-player pad with 5 sectors, its
        during-the-game points counted either way (``pad4_html_5``: {"track": …, "breakdown": …})."""
        phone = self.phones[4]
        plain = {"Accept-Encoding": "identity"}
        page = self.client.get(phone.pad_url, headers=plain)
        live = self.client.get(f"/games/{phone.game.public_id}/live/", headers={"HX-Request": "true", **plain})
        assert page.status_code == live.status_code == 200, (page.status_code, live.status_code)
        assert not page.get("Content-Encoding") and not live.get("Content-Encoding")
        five = {}
        for during in (During.TRACK, During.BREAKDOWN):
            game = game_create(players=PLAYERS[4], sectors=comb(5), owner=self.owner, during=during)
            small = self.client.get(f"/games/{game.public_id}/", headers=plain)
            assert small.status_code == 200 and not small.get("Content-Encoding"), small.status_code
            five[str(during)] = len(small.content)
        return {"pad4_html": len(page.content), "poll_html": len(live.content), "pad4_html_5": five}

    def sent_estimates(self) -> dict:
        """Bytes of a save's and the pad page's answers as Django hands them to the server: the
        status line, headers and body (gunicorn adds Server, Date, Connection). Used only when
        the gunicorn section does not run (it measures them on the wire)."""
        phone = self.phones[4]
        typed, stepper = self.fields(4)
        return {
            "save": as_sent(phone.save(typed)[0]),
            "step": as_sent(phone.step(stepper)[0]),
            "pad4_html": as_sent(self.client.get(phone.pad_url, headers={"Accept-Encoding": "gzip, br"})),
        }


def text(response) -> str:
    return decoded(response.content, response.get("Content-Encoding"))


def as_sent(response) -> int:
    head = f"HTTP/1.1 {response.status_code} {response.reason_phrase}\r\n"
    head += "".join(f"{key}: {value}\r\n" for key, value in response.items())
    head += "".join(f"Set-Cookie: {morsel.OutputString()}\r\n" for morsel in response.cookies.values())
    return len((head + "\r\n").encode()) + len(response.content)


def engine(samples: int) -> dict:
    """The scoring rules alone (pure Python): a full 5-player, 20-sector game, against the
    subtotals alone (no comb, no ranking)."""
    from scoring.rules.categories import CATEGORIES
    from scoring.rules.engine import PlayerSheet, Sector, category_vp, score_game

    sectors = [Sector(9 + i % 5, i % 4) for i in range(20)]
    sheets = [
        PlayerSheet(
            entries={c.key: (True if c.is_flag else (i + 3) % (c.maximum + 1)) for c in CATEGORIES},
            active_workers=i % 5,
            tokens=[(i + s) % 2 for s in range(20)][:7] + [0] * 13,
        )
        for i in range(5)
    ]

    def one(function) -> float:
        start = time.perf_counter()
        function()
        return (time.perf_counter() - start) * 1000

    measured, base = interleaved(
        lambda: one(lambda: score_game(sectors, sheets)),
        lambda: one(lambda: [category_vp(sheet.entries) for sheet in sheets]),
        samples,
        samples // 10,
    )
    return {"measured": summary(measured), "baseline": summary(base)}
