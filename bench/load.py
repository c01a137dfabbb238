"""The gunicorn benchmark: ``gunicorn apiary_site.wsgi -w 2`` on the throw-away database, as
production runs it (DEBUG off, SECRET_KEY set, the static files collected and served by
WhiteNoise), and a bounded load generator.

- ``Gunicorn`` starts the server in its own process group on a free loopback port, waits for
  ``/healthz``, and always stops it (SIGTERM to the group, then SIGKILL);
- ``wire`` sends one request on a fresh socket and counts the bytes of the answer as sent:
  status line, headers and body, with ``Accept-Encoding: gzip, br`` as a phone sends;
- ``first_load`` fetches the pad page and every static file it references (and what the
  stylesheets reference), each as sent;
- ``run_load`` runs N clients for a fixed time (threads with http.client, a time-out on every
  socket, stopping by themselves) and reads the workers' CPU time from /proc before and after:
  a closed loop (each client sends its next request when the last is answered), the server's
  saves per second at saturation;
- ``club_night`` is the open loop of a club night: every phone types a value every 2 s (with
  jitter) and polls every 2 s as pad.js does, each request at its own scheduled time, whatever
  the server's answers take; the latency a table feels, counted from the scheduled time.
"""

from __future__ import annotations

import http.client
import os
import random
import re
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Self
from urllib.parse import urljoin, urlsplit

from bench.common import ROOT, summary
from bench.pad_client import AddressHolder, PadFields, decoded, save_body, saved_version

SOCKET_TIMEOUT = 10.0  # seconds, on every socket of the benchmark
ACCEPT_ENCODING = "gzip, br"
FORWARDED_PROTO = "https"  # as the deployment's TLS proxy says (bench/run.py sets PROXY_SSL_HEADER)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# Starts gunicorn in place of itself (the same process: the master's pid) after asking Linux to
# send it SIGTERM when the benchmark dies, even by SIGKILL (prctl PR_SET_PDEATHSIG, kept across
# exec), so that no server outlives the benchmark.
DIE_WITH_PARENT = """
import ctypes, os, signal, sys
try:
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)
except (OSError, AttributeError):
    pass
os.execv(sys.argv[1], sys.argv[1:])
"""


class Gunicorn:
    """The site's one server (``python -m apiary_site.server``, as docs/operations.md runs it) with
    WORKERS workers on 127.0.0.1:PORT, stopped on leaving, whatever happens. (The class keeps its
    old name, and the results their "gunicorn" key, so that earlier runs' JSON still reads.)"""

    def __init__(self, env: dict, folder: Path, workers: int = 2):
        self.env = {**env, "SERVER_WORKERS": str(workers)}
        self.workers = workers
        self.port = free_port()
        self.log = folder / "server.log"
        self.process: subprocess.Popen | None = None

    @property
    def command(self) -> list[str]:
        return [sys.executable, "-m", "apiary_site.server", "127.0.0.1", str(self.port)]

    def __enter__(self) -> Self:
        self.process = process = subprocess.Popen(
            [sys.executable, "-c", DIE_WITH_PARENT, *self.command],
            cwd=ROOT,
            env=self.env,
            start_new_session=True,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
        )
        try:
            self._wait_ready(process, deadline=time.monotonic() + 60)
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_ready(self, process: subprocess.Popen, deadline: float) -> None:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {process.returncode}:\n{self.log_tail()}")
            try:
                if (
                    wire("127.0.0.1", self.port, "GET", "/healthz").status == 200
                    and len(self.worker_pids()) >= self.workers
                ):
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer /healthz within 60 s:\n{self.log_tail()}")

    def worker_pids(self) -> list[int]:
        """The master's children (its workers), from /proc."""
        master = self.process.pid if self.process else -1
        pids = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                stat = _stat(int(entry))
                if stat and stat[1] == master:
                    pids.append(int(entry))
        return sorted(pids)

    def cpu_seconds(self) -> dict[int, float]:
        """Each worker's user + system CPU time so far, in seconds."""
        result = {}
        for pid in self.worker_pids():
            stat = _stat(pid)
            if stat:
                result[pid] = (stat[11] + stat[12]) / CLOCK_TICKS
        return result

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        except ProcessLookupError:
            pass

    def __exit__(self, *exc) -> None:
        self.stop()


def machine_jiffies() -> tuple[int, int]:
    """All cores' (busy, total) clock ticks so far, from /proc/stat (idle and iowait are not busy)."""
    try:
        fields = [int(f) for f in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, ValueError, IndexError):
        return 0, 0
    total = sum(fields[:8])  # user nice system idle iowait irq softirq steal (guest is inside user)
    return total - fields[3] - fields[4], total


def own_cpu() -> float:
    """This process's CPU time so far (every thread: the load's clients), in seconds."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _stat(pid: int) -> list[int] | None:
    """/proc/<pid>/stat's fields after the command's name, as numbers where they are: [state,
    ppid, ..., utime (index 11), stime (12), ...]."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2 :].split()
    return [int(f) if f.lstrip("-").isdigit() else 0 for f in fields]


# ---------------------------------------------------------------------------------------------
# One request, counted as sent


@dataclass
class Answer:
    status: int
    head: bytes  # the status line and headers, with the blank line
    body: bytes  # as sent (compressed when it was)
    headers: dict[str, list[str]] = field(default_factory=dict)

    @property
    def sent(self) -> int:
        return len(self.head) + len(self.body)

    def header(self, name: str) -> str:
        return ", ".join(self.headers.get(name.lower(), []))

    def text(self) -> str:
        """The body decoded as it was sent (``pad_client.decoded``)."""
        return decoded(self.body, self.header("Content-Encoding"))


def wire(
    host: str,
    port: int,
    method: str,
    path: str,
    headers: dict | None = None,
    body: bytes = b"",
    source: str | None = None,
) -> Answer:
    """One request on a fresh connection (gunicorn's sync workers close each one anyway), read
    to its end; the answer's bytes exactly as they came."""
    lines = [
        f"{method} {path} HTTP/1.1",
        f"Host: {host}:{port}",
        f"Accept-Encoding: {ACCEPT_ENCODING}",
        f"X-Forwarded-Proto: {FORWARDED_PROTO}",
        "Connection: close",
    ]
    lines += [f"{key}: {value}" for key, value in (headers or {}).items()]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    request = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
    with socket.create_connection(
        (host, port), timeout=SOCKET_TIMEOUT, source_address=(source, 0) if source else None
    ) as connection:
        connection.sendall(request)
        chunks = []
        while True:
            chunk = connection.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    data = b"".join(chunks)
    end = data.find(b"\r\n\r\n")
    if end < 0:
        raise OSError(f"no complete answer to {method} {path}")
    head, body = data[: end + 4], data[end + 4 :]
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parsed: dict[str, list[str]] = {}
    for line in header_lines:
        if ":" in line:
            key, value = line.split(":", 1)
            parsed.setdefault(key.strip().lower(), []).append(value.strip())
    if "chunked" in ", ".join(parsed.get("transfer-encoding", [])).lower():
        pass  # counted as sent, chunk framing included; text() would need de-chunking (not used)
    return Answer(int(status_line.split()[1]), head, body, parsed)


def cookies(answer: Answer) -> dict[str, str]:
    found = {}
    for line in answer.headers.get("set-cookie", []):
        name, _, rest = line.partition("=")
        found[name.strip()] = rest.split(";", 1)[0]
    return found


class _References(HTMLParser):
    """The files a page makes a phone's browser fetch: stylesheets, scripts, images, the manifest,
    the service worker's script (``data-sw``), and one tab icon (a browser takes one of those it is
    offered; the apple-touch-icon is fetched only as the app is put on an iPhone's home screen)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []
        self.icon = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        url = None
        if tag == "script":
            url = attrs.get("src")
        elif tag == "body":
            url = attrs.get("data-sw")
        elif tag == "link":
            rel = set((attrs.get("rel") or "").lower().split())
            if {"stylesheet", "preload", "modulepreload", "manifest"} & rel or ("icon" in rel and not self.icon):
                url = attrs.get("href")
                self.icon = self.icon or "icon" in rel
        elif tag in ("img", "source", "input") and attrs.get("src"):
            url = attrs.get("src")
        if url and not url.startswith(("data:", "#", "javascript:")) and url not in self.urls:
            self.urls.append(url)


JS_IMPORT = re.compile(r"""\bimport\s+(?:[^"';]+?\s+from\s+)?["'](\.{1,2}/[^"']+)["']""")
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)|@import\s+['"]([^'"]+)['"]""")


def first_load(host: str, port: int, path: str, session: str) -> dict:
    """The pad's first load as a phone makes it: the page (signed in, no CSRF cookie yet), then
    every static file it references, what those stylesheets reference and what those modules
    import, each as sent."""
    page = wire(host, port, "GET", path, {"Cookie": f"sessionid={session}", "Accept": "text/html"})
    requests = [{"url": path, "status": page.status, "bytes": page.sent, "encoding": page.header("Content-Encoding")}]
    reader = _References()
    reader.feed(page.text())
    queue, seen = [urljoin(path, url) for url in reader.urls], set()
    while queue:
        url = queue.pop(0)
        if url in seen or urlsplit(url).netloc:
            continue
        seen.add(url)
        answer = wire(host, port, "GET", url)
        requests.append(
            {"url": url, "status": answer.status, "bytes": answer.sent, "encoding": answer.header("Content-Encoding")}
        )
        if url.split("?")[0].endswith(".js") and answer.status == 200:  # an ES module: what it imports
            queue += [urljoin(url, found) for found in JS_IMPORT.findall(answer.text())]
        if url.split("?")[0].endswith(".css") and answer.status == 200:
            for match in CSS_URL.finditer(answer.text()):
                found = match.group(1) or match.group(2)
                if found and not found.startswith(("data:", "#")):
                    queue.append(urljoin(url, found))
    return {
        "total": sum(r["bytes"] for r in requests),
        "requests": requests,
        "all_ok": all(r["status"] == 200 for r in requests),
    }


# ---------------------------------------------------------------------------------------------
# The load


@dataclass
class TablePhone:
    """One client of the load: a phone at a table, signed in (its session cookie), typing into
    its own seat's fields of its table's game."""

    game_id: str
    session: str
    seat: int
    encoding: str
    page: str
    csrf: str = ""
    csrf_cookie: str = ""
    fields: list = field(default_factory=list)
    steppers: list = field(default_factory=list)
    versions: dict = field(default_factory=dict)
    seq: int = 0
    turn: int = 0
    etag: str = ""  # the live poll's, as the server gave it
    etag_revision: int = -2  # the game's revision that ETag is for
    next_poll: float = 0.0
    stepped_up: bool = False  # the club night's stepper: one up (its next step is -1) or not

    def polled(self, response) -> None:
        """A poll's answer (200): its ETag, and the revision it is for."""
        if response.getheader("ETag"):
            self.etag, self.etag_revision = response.getheader("ETag"), int(response.getheader("X-Pad-Revision", -2))

    def saved(self, response) -> None:
        """A save's answer (200): the poll goes on from its revision when its write is the only
        one since the revision polled last, as pad.js does (static/scoring/saving.js, pollAfterSave)."""
        revision = int(response.getheader("X-Pad-Revision", -2))
        if self.etag and response.getheader("ETag") and revision == self.etag_revision + 1:
            self.etag, self.etag_revision = response.getheader("ETag"), revision


@dataclass
class Sample:
    start: float
    end: float
    status: int  # 0: no answer (a network error or a time-out)
    poll: bool = False


def poll_interval(page: str) -> float:
    """Seconds between a pad's polls: the ``every Nms`` of the htmx trigger on the ``#live`` of the
    pad as served (settings.PAD_POLL_MS; 2 s when it cannot tell)."""
    match = re.search(r'id="live"[^>]*hx-trigger="every (\d+)ms', page)
    return int(match.group(1)) / 1000 if match else 2.0


def prepare(host: str, port: int, phone: TablePhone) -> None:
    """The pad page as the phone opens it: the CSRF cookie and token, its seat's fields and versions."""
    answer = wire(host, port, "GET", f"/games/{phone.game_id}/", {"Cookie": f"sessionid={phone.session}"})
    if answer.status != 200:
        raise RuntimeError(f"pad page answered {answer.status} to a load client")
    pad = PadFields.parse(answer.text())
    phone.csrf = pad.csrf
    phone.csrf_cookie = cookies(answer).get("csrftoken", "")
    phone.fields = [f.name for f in pad.typed(phone.seat)]
    phone.steppers = [f.name for f in pad.steppers(phone.seat)]
    phone.versions = {f.name: f.version or 0 for f in [*pad.typed(phone.seat), *pad.steppers(phone.seat)]}
    if not phone.fields or not phone.csrf:
        raise RuntimeError("a load client found no field or no CSRF token on the pad page")


def save_headers(host: str, port: int, phone: TablePhone, content_type: str) -> dict:
    """The headers of a save as a phone's fetch() sends them (the cookies, pad.js's two headers)."""
    return {
        "Content-Type": content_type,
        "Accept": "text/plain, text/html;q=0.9",
        "X-CSRFToken": phone.csrf,
        "Cookie": f"sessionid={phone.session}; csrftoken={phone.csrf_cookie}",
        "Origin": f"https://{host}:{port}",
        "Accept-Encoding": ACCEPT_ENCODING,
        "X-Forwarded-Proto": FORWARDED_PROTO,
    }


def wire_save(
    host: str, port: int, phone: TablePhone, source: str, *, value: str = "", step: int | None = None
) -> Answer:
    """One save on a fresh socket, its answer counted as sent: a typed value into the phone's
    first field, or a step of its first stepper (each with the version the phone last saw)."""
    phone.seq += 1
    name = phone.fields[0] if step is None else phone.steppers[0]
    if step is None:
        body, content_type = save_body(
            phone.encoding, name, value=value, version=phone.versions.get(name, 0), page=phone.page, seq=phone.seq
        )
    else:
        body, content_type = save_body(
            phone.encoding, name, step=step, version=phone.versions.get(name, 0), page=phone.page, seq=phone.seq
        )
    answer = wire(
        host,
        port,
        "POST",
        f"/games/{phone.game_id}/save/",
        save_headers(host, port, phone, content_type),
        body,
        source=source,
    )
    if answer.status == 200:
        version = saved_version(answer.text(), name)
        if version is not None:
            phone.versions[name] = version
    return answer


def _client(
    host: str,
    port: int,
    phone: TablePhone,
    kind: str,
    stop_at: float,
    samples: list[Sample],
    source: AddressHolder,
    poll_every: float = 0.0,
) -> None:
    """One client's loop until ``stop_at``: http.client on its loopback address (reconnecting
    when the server closes), a time-out on every socket; never raises. With ``poll_every``, a
    save phone also polls its game's live figures that often, as pad.js does (If-None-Match:
    the ETag it last got, as it got it)."""
    address = source.address
    connection = http.client.HTTPConnection(host, port, timeout=SOCKET_TIMEOUT, source_address=(address, 0))
    value = 0
    try:
        while time.monotonic() < stop_at:
            polling = bool(poll_every) and kind == "save" and time.monotonic() >= phone.next_poll
            name = ""
            if polling:
                method, path, body = "GET", f"/games/{phone.game_id}/live/", None
                headers = {
                    "HX-Request": "true",
                    "Cookie": f"sessionid={phone.session}; csrftoken={phone.csrf_cookie}",
                    "Accept-Encoding": ACCEPT_ENCODING,
                    "X-Forwarded-Proto": FORWARDED_PROTO,
                }
                if phone.etag:
                    headers["If-None-Match"] = phone.etag
            elif kind == "save":
                current = source.use()
                if current != address:
                    connection.close()
                    address = current
                    connection = http.client.HTTPConnection(
                        host, port, timeout=SOCKET_TIMEOUT, source_address=(address, 0)
                    )
                name = phone.fields[phone.turn % len(phone.fields)]
                phone.turn += 1
                phone.seq += 1
                value = value % 9 + 1
                body, content_type = save_body(
                    phone.encoding,
                    name,
                    value=str(value),
                    version=phone.versions.get(name, 0),
                    page=phone.page,
                    seq=phone.seq,
                )
                method, path, headers = (
                    "POST",
                    f"/games/{phone.game_id}/save/",
                    save_headers(host, port, phone, content_type),
                )
            else:
                method, path, body = "GET", "/healthz", None
                headers = {"Accept-Encoding": ACCEPT_ENCODING, "X-Forwarded-Proto": FORWARDED_PROTO}
            start = time.monotonic()
            status = 0
            try:
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                data = response.read()
                status = response.status
                if polling and status == 200:
                    phone.polled(response)
                elif kind == "save" and status == 200:
                    phone.saved(response)
                    version = saved_version(decoded(data, response.getheader("Content-Encoding")), name)
                    if version is not None:
                        phone.versions[name] = version
            except (OSError, http.client.HTTPException):
                connection.close()
                time.sleep(0.01)
            samples.append(Sample(start, time.monotonic(), status, polling))
            if polling:
                phone.next_poll = time.monotonic() + poll_every  # counted from this poll's answer, as pad.js does
    finally:
        connection.close()


def run_load(
    server: Gunicorn,
    clients: list[TablePhone],
    kind: str,
    seconds: float,
    warmup: float,
    holders: list[AddressHolder],
    poll_every: float = 0.0,
) -> dict:
    """``kind`` "save" (each client a TablePhone) or "healthz" (the baseline). Latency, answers
    per second and the workers' CPU per answer over the measured window (after the warm-up)."""
    host, port = "127.0.0.1", server.port
    begin = time.monotonic()
    window_start, stop_at = begin + warmup, begin + warmup + seconds
    samples: list[list[Sample]] = [[] for _ in clients]
    for i, phone in enumerate(clients):  # the phones' polls spread over the interval, not all at once
        phone.next_poll = begin + i * poll_every / len(clients) if poll_every else 0.0
    threads = [
        threading.Thread(
            target=_client,
            args=(host, port, phone, kind, stop_at, samples[i], holders[i], poll_every),
            daemon=True,
            name=f"bench-client-{i}",
        )
        for i, phone in enumerate(clients)
    ]
    for thread in threads:
        thread.start()
    time.sleep(max(0.0, window_start - time.monotonic()))
    machine_before, client_before = machine_jiffies(), own_cpu()
    cpu_before, at_before = server.cpu_seconds(), time.monotonic()
    time.sleep(max(0.0, stop_at - time.monotonic()))
    cpu_after, at_after = server.cpu_seconds(), time.monotonic()
    machine_after, client_after = machine_jiffies(), own_cpu()
    for thread in threads:
        thread.join(timeout=SOCKET_TIMEOUT + 5)
    hung = sum(thread.is_alive() for thread in threads)
    answered = [s for per in samples for s in per if at_before <= s.end <= at_after]
    window = [s for s in answered if not s.poll]
    polls = [s for s in answered if s.poll]
    statuses: dict[str, int] = {}
    for s in window:
        statuses[str(s.status)] = statuses.get(str(s.status), 0) + 1
    ok = [s for s in window if s.status == 200]
    elapsed = at_after - at_before
    cpu = sum(cpu_after.get(pid, 0.0) - cpu_before.get(pid, 0.0) for pid in cpu_after)
    busy, total = (after - before for after, before in zip(machine_after, machine_before, strict=True))
    cores = os.cpu_count() or 1
    return {
        "clients": len(clients),
        "seconds": elapsed,
        "answers": len(window),
        "ok": len(ok),
        "per_second": len(ok) / elapsed if elapsed else 0.0,
        "errors": len(window) - len(ok),
        "statuses": statuses,
        "latency_ms": summary([(s.end - s.start) * 1000 for s in window]),
        "cpu_seconds": cpu,
        "cpu_ms_per_answer": cpu * 1000 / len(window) if window else None,
        "workers_same": sorted(cpu_before) == sorted(cpu_after),
        # Where the machine's CPU went in the window, as shares of all its cores: a machine near
        # 100 % busy was the limit; workers far below their share were waiting (locks, I/O).
        "machine_busy": busy / total if total else None,
        "workers_share": cpu / (elapsed * cores) if elapsed else None,
        "client_share": (client_after - client_before) / (elapsed * cores) if elapsed else None,
        "clients_still_running": hung,
        **(
            {
                "polls": {
                    "every_seconds": poll_every,
                    "answers": len(polls),
                    "per_second": len(polls) / elapsed if elapsed else 0.0,
                    "statuses": {
                        str(k): sum(1 for p in polls if p.status == k) for k in sorted({p.status for p in polls})
                    },
                    "latency_ms": summary([(p.end - p.start) * 1000 for p in polls]),
                }
            }
            if poll_every
            else {}
        ),
    }


# ---------------------------------------------------------------------------------------------
# The club night: an open loop
#
# Each phone is two threads, as a pad has two timers: one sends its saves, the other its polls,
# each at the times of its own schedule (fixed before the start: ``club_schedule``). A thread
# sleeps until the next scheduled time and sends then, on a fresh connection (gunicorn's sync
# workers close each one), whatever the answers before it took: the load does not slow down when
# the server does. The one exception is honest and counted: a phone does not send two saves (or
# two polls) at once, so a request whose time comes while the phone still waits for the one
# before goes as soon as that one is answered, late, and its latency is counted from its
# SCHEDULED time (the lateness included, as the player waits it: no coordinated omission). The
# send lateness is reported beside it. The loop is bounded: a schedule is finite, every socket
# has a time-out, and a phone still sending ``SOCKET_TIMEOUT`` after the schedule's end stops
# (the requests it did not send are errors).

STEP_EVERY = 5  # one save in five is a stepper's step (the comb's tokens), the others typed values


@dataclass
class ClubSample:
    scheduled: float  # monotonic time the request was due
    sent: float  # when it went (later than scheduled when the phone still waited for the one before)
    end: float
    status: int  # 0: no answer (a network error or a time-out)
    kind: str  # "save", "step" or "poll"


def club_schedule(
    seconds: float, interval: float, jitter: float, poll_every: float, rng: random.Random
) -> tuple[list[float], list[float]]:
    """One phone's send times, in seconds from the start, all in [0, seconds): its saves, the
    first at a random offset in [0, interval), then each ``interval`` ± ``jitter`` (uniform)
    after the one before; its polls, the first at a random offset in [0, poll_every), then
    every ``poll_every``."""
    if interval <= 0 or poll_every <= 0 or not 0 <= jitter < interval:
        raise ValueError("interval and poll_every above 0, jitter from 0 to below the interval")
    saves, at = [], rng.uniform(0, interval)
    while at < seconds:
        saves.append(at)
        at += interval + rng.uniform(-jitter, jitter)
    polls, at = [], rng.uniform(0, poll_every)
    while at < seconds:
        polls.append(at)
        at += poll_every
    return saves, polls


def club_value(rng: random.Random) -> str:
    """A value as a player types it into a score field: a number up to 15, or now and then a
    sum of two ("4+3", the field adds it up)."""
    if rng.random() < 0.25:
        return f"{rng.randint(1, 7)}+{rng.randint(1, 7)}"
    return str(rng.randint(0, 15))


def club_save_body(phone: TablePhone, rng: random.Random) -> tuple[str, str, bytes, str]:
    """The phone's next save: (kind, field, body, content type). Its own seat's fields in turn, a
    typed value into each; every ``STEP_EVERY``-th save a step of its seat's first stepper (+1,
    then -1 back: the seat's tokens stay within the 7 it owns). Each with the version the phone
    last saw of that field, and the page's next seq."""
    phone.turn += 1
    phone.seq += 1
    if phone.steppers and phone.turn % STEP_EVERY == 0:
        name = phone.steppers[0]
        step = -1 if phone.stepped_up else 1
        phone.stepped_up = not phone.stepped_up
        body, content_type = save_body(
            phone.encoding, name, step=step, version=phone.versions.get(name, 0), page=phone.page, seq=phone.seq
        )
        return "step", name, body, content_type
    typed = phone.turn - phone.turn // STEP_EVERY  # the typed values so far, this one included
    name = phone.fields[(typed - 1) % len(phone.fields)]
    body, content_type = save_body(
        phone.encoding, name, value=club_value(rng), version=phone.versions.get(name, 0), page=phone.page, seq=phone.seq
    )
    return "save", name, body, content_type


def _club_request(
    host: str, port: int, phone: TablePhone, kind: str, holder: AddressHolder, rng: random.Random
) -> tuple[int, str]:
    """One scheduled request of the club night: (status, "save" | "step" | "poll"). Never raises."""
    if kind == "save":
        kind, name, body, content_type = club_save_body(phone, rng)
        method, path, headers = "POST", f"/games/{phone.game_id}/save/", save_headers(host, port, phone, content_type)
        source = holder.use()
    else:
        name, body, method, path = "", None, "GET", f"/games/{phone.game_id}/live/"
        headers = {
            "HX-Request": "true",
            "Cookie": f"sessionid={phone.session}; csrftoken={phone.csrf_cookie}",
            "Accept-Encoding": ACCEPT_ENCODING,
            "X-Forwarded-Proto": FORWARDED_PROTO,
        }
        if phone.etag:
            headers["If-None-Match"] = phone.etag
        source = holder.address
    connection = http.client.HTTPConnection(host, port, timeout=SOCKET_TIMEOUT, source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        if kind == "poll" and response.status == 200:
            phone.polled(response)
        elif kind != "poll" and response.status == 200:
            phone.saved(response)
            version = saved_version(decoded(data, response.getheader("Content-Encoding")), name)
            if version is not None:
                phone.versions[name] = version
        return response.status, kind
    except (OSError, http.client.HTTPException):
        return 0, kind
    finally:
        connection.close()


def _club_sender(
    host: str,
    port: int,
    phone: TablePhone,
    kind: str,
    times: list[float],
    origin: float,
    deadline: float,
    holder: AddressHolder,
    rng: random.Random,
    samples: list[ClubSample],
    unsent: list[float],
) -> None:
    """One phone's saves (``kind`` "save") or polls ("poll"), each at ``origin`` + its time, or as
    soon as the phone's request before it is answered; stops by itself at the schedule's end,
    or at ``deadline`` (the times not sent then go to ``unsent``)."""
    for index, offset in enumerate(times):
        scheduled = origin + offset
        wait = scheduled - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        if time.monotonic() >= deadline:
            unsent.extend(origin + t for t in times[index:])
            return
        sent = time.monotonic()
        status, done = _club_request(host, port, phone, kind, holder, rng)
        samples.append(ClubSample(scheduled, sent, time.monotonic(), status, done))


def club_summary(samples: list[ClubSample], unsent: list[float], window: tuple[float, float], hung: int = 0) -> dict:
    """The club night's figures over the requests scheduled in ``window`` (monotonic start, end):
    latency from the scheduled time (the figure) and from the actual send, statuses, answers per
    second, send lateness, and the errors: a save or step answered anything but 200 (a 409 too:
    each phone types only its own seat's fields, so a conflict is never expected), a poll
    answered anything but 200 or 304, no answer, a request never sent, a phone still running."""
    start, end = window
    seconds = end - start
    counted = [s for s in samples if start <= s.scheduled < end]
    out: dict = {}
    for name, kinds, fine in (("save", ("save", "step"), (200,)), ("poll", ("poll",), (200, 304))):
        mine = [s for s in counted if s.kind in kinds]
        statuses: dict[str, int] = {}
        for s in mine:
            statuses[str(s.status)] = statuses.get(str(s.status), 0) + 1
        ok = [s for s in mine if s.status in fine]
        out[name] = {
            "answers": len(mine),
            "ok": len(ok),
            "per_second": len(ok) / seconds if seconds > 0 else 0.0,
            "statuses": dict(sorted(statuses.items())),
            "errors": len(mine) - len(ok),
            "latency_ms": summary([(s.end - s.scheduled) * 1000 for s in mine]),
            "service_ms": summary([(s.end - s.sent) * 1000 for s in mine]),
            "late_ms": summary([(s.sent - s.scheduled) * 1000 for s in mine]),
        }
    out["save"]["steps"] = sum(1 for s in counted if s.kind == "step")
    missed = sum(1 for t in unsent if start <= t < end)
    out["unsent"] = missed
    out["threads_still_running"] = hung
    out["errors"] = out["save"]["errors"] + out["poll"]["errors"] + missed + hung
    return out


def club_night(
    host: str,
    port: int,
    phones: list[TablePhone],
    holders: list[AddressHolder],
    *,
    seconds: float,
    warmup: float,
    interval: float = 2.0,
    jitter: float = 0.5,
    poll_every: float = 2.0,
    seed: int | None = None,
    server: Gunicorn | None = None,
) -> dict:
    """The open loop (see above) for ``warmup`` + ``seconds``: the requests scheduled in the last
    ``seconds`` are measured. Each phone already ``prepare``d, with its own ``holders`` entry.
    With ``server``, the workers' CPU over the measured window too."""
    seed = random.SystemRandom().randrange(2**32) if seed is None else seed
    total = warmup + seconds
    schedules = [
        club_schedule(total, interval, jitter, poll_every, random.Random(f"{seed}-{i}")) for i in range(len(phones))
    ]
    samples: list[ClubSample] = []  # list.append is atomic: every thread appends here
    unsent: list[float] = []
    origin = time.monotonic() + 0.2  # the threads started before the first send
    deadline = origin + total + SOCKET_TIMEOUT
    threads = []
    for i, (phone, (saves, polls)) in enumerate(zip(phones, schedules, strict=True)):
        for kind, times in (("save", saves), ("poll", polls)):
            rng = random.Random(f"{seed}-{i}-{kind}-values")
            threads.append(
                threading.Thread(
                    target=_club_sender,
                    args=(host, port, phone, kind, times, origin, deadline, holders[i], rng, samples, unsent),
                    daemon=True,
                    name=f"bench-club-{i}-{kind}",
                )
            )
    for thread in threads:
        thread.start()
    window = (origin + warmup, origin + total)
    time.sleep(max(0.0, window[0] - time.monotonic()))
    machine_before, client_before = machine_jiffies(), own_cpu()
    cpu_before = server.cpu_seconds() if server else {}
    at_before = time.monotonic()
    time.sleep(max(0.0, window[1] - time.monotonic()))
    cpu_after = server.cpu_seconds() if server else {}
    at_after = time.monotonic()
    machine_after, client_after = machine_jiffies(), own_cpu()
    for thread in threads:
        thread.join(timeout=max(0.0, deadline + SOCKET_TIMEOUT + 1 - time.monotonic()))
    hung = sum(thread.is_alive() for thread in threads)
    found = club_summary(list(samples), list(unsent), window, hung)
    elapsed = at_after - at_before
    cores = os.cpu_count() or 1
    busy, all_ticks = (after - before for after, before in zip(machine_after, machine_before, strict=True))
    cpu = sum(cpu_after.get(pid, 0.0) - cpu_before.get(pid, 0.0) for pid in cpu_after)
    scheduled = [sum(1 for t in saves if t >= warmup) for saves, _ in schedules]
    polled = [sum(1 for t in polls if t >= warmup) for _, polls in schedules]
    return {
        "phones": len(phones),
        "tables": len({phone.game_id for phone in phones}),
        "addresses": sorted({holder.address for holder in holders}),  # (one: a room behind one router)
        "interval": interval,
        "jitter": jitter,
        "poll_every": poll_every,
        "seconds": seconds,
        "warmup": warmup,
        "seed": seed,
        "scheduled": {
            "save": sum(scheduled),
            "poll": sum(polled),
            "save_per_second": sum(scheduled) / seconds,
            "poll_per_second": sum(polled) / seconds,
        },
        **found,
        "cpu_seconds": cpu if server else None,
        "cpu_ms_per_request": cpu * 1000 / (found["save"]["answers"] + found["poll"]["answers"])
        if server and found["save"]["answers"] + found["poll"]["answers"]
        else None,
        "machine_busy": busy / all_ticks if all_ticks else None,
        "workers_share": cpu / (elapsed * cores) if server and elapsed else None,
        "client_share": (client_after - client_before) / (elapsed * cores) if elapsed else None,
    }
