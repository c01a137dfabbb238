"""The benchmark (`make bench`, bench/run.py) still runs, at a tiny size, and writes its JSON;
and its pieces do what they say: the club night's schedule, its saves, its summary and its open
loop (against a stand-in server), and the report's verdicts on given figures.

Nothing here times anything or asserts on a measured figure: the benchmark reports figures, it
never fails on speed, and neither does the suite. The whole run keeps the harness working as
the code it measures changes (a renamed field, a new header, a moved URL): five samples, a
second of each load from four clients, gunicorn and all (about 20 seconds).
"""

from __future__ import annotations

import copy
import http.server
import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from bench import load, report
from bench.pad_client import Addresses, save_body
from scoring.rules.categories import During, categories_of

ROOT = Path(__file__).resolve().parent.parent


def test_the_benchmark_runs_at_a_tiny_size_and_writes_valid_json(tmp_path):
    output = tmp_path / "bench.json"
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "run.py"),
            "--games",
            "3",
            "--samples",
            "5",
            "--warmup",
            "1",
            "--history-samples",
            "1",
            "--clients",
            "4",
            "--seconds",
            "1",
            "--load-warmup",
            "0.2",
            "--sectors",
            "2",
            # (the club night longer than a poll's period, 2 s: every phone polls at least once in it)
            "--club-phones",
            "4",
            "--club-tables",
            "2",
            "--club-seconds",
            "2.5",
            "--club-interval",
            "0.5",
            "--club-jitter",
            "0.1",
            "--large-club-tables",
            "1",
            # (Lighthouse is make bench's: Node's package, installed there once, and minutes of runs)
            "--no-lighthouse",
            "--json",
            str(output),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    results = json.loads(output.read_text(encoding="utf-8"))

    assert {"machine", "git", "database", "inprocess", "gunicorn", "figures"} <= set(results)
    timings = results["inprocess"]["sizes"]["3"]["timings"]
    assert set(timings) == {"save", "step", "pad4", "pad5", "poll", "poll_news", "poll_made", "history"}
    assert all(line["measured"]["n"] == 5 and line["baseline"]["n"] == 5 for line in timings.values())
    assert set(results["inprocess"]["sizes"]["3"]["statements"]) == {"save_1p", "save_5p", "step_1p", "step_5p"}
    load = results["gunicorn"]["load"]
    assert load["save"]["answers"] > 0 and load["healthz"]["answers"] > 0
    assert load["save"]["clients_still_running"] == 0
    club = results["gunicorn"]["club"]  # the open loop: every phone's saves and polls, and it stopped
    assert club["phones"] == 4 and club["tables"] == 2 and club["threads_still_running"] == 0
    assert club["save"]["answers"] > 0 and club["poll"]["answers"] > 0
    assert club["save"]["statuses"].get("409", 0) == 0  # each phone types only its own seat's fields
    for night in (club, results["gunicorn"]["club_large"]):  # a room behind one router, none of it refused
        assert night["addresses"] == ["127.0.0.1"] and night["save"]["statuses"].get("429", 0) == 0
    assert results["rate_limit"]["club_address"] == "127.0.0.1"
    large = results["gunicorn"]["club_large"]  # the large night: 4 phones at each of its tables
    assert large["phones"] == 4 and large["tables"] == 1 and large["threads_still_running"] == 0
    assert large["save"]["answers"] > 0 and large["poll"]["answers"] > 0
    html = results["inprocess"]["html"]  # the pad page and a poll's answer, before compression
    assert html["pad4_html"] > html["poll_html"] > 0
    assert set(html["pad4_html_5"]) == {"track", "breakdown"}  # (5 sectors, either way of counting)
    assert 0 < html["pad4_html_5"]["track"] < html["pad4_html_5"]["breakdown"]
    typed = results["gunicorn"]["browser"]  # a whole game typed in Chromium: one save per value
    if os.environ.get("CI") == "true" or "skipped" not in typed:
        assert typed.get("values") == 4 * (len(categories_of(During.BREAKDOWN)) + 2 + 1), typed
        assert typed["saves"] == typed["values"], typed
    figures = results["figures"]
    assert figures and all(
        {"figure", "measured", "baseline", "ratio", "budget", "met", "group"} <= set(f) for f in figures
    )
    assert {
        "club.save_p99",
        "club.poll_p99",
        "club.errors",
        "club_large.save_p99",
        "club_large.poll_p99",
        "club_large.errors",
        "load.rate",
        "first_load",
        "time.pad4.3",
        "time.poll_made.3",
        "html.pad4",
    } <= {f.get("key") for f in figures}
    assert "figure" in result.stdout and "met?" in result.stdout


# -- the club night's pieces -------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_a_phones_schedule_has_its_sends_within_the_time_and_its_gaps_within_the_jitter(seed):
    seconds, interval, jitter, every = 60.0, 2.0, 0.5, 2.0
    saves, polls = load.club_schedule(seconds, interval, jitter, every, random.Random(seed))

    assert all(0 <= t < seconds for t in saves + polls)
    assert saves == sorted(saves) and 0 <= saves[0] < interval and 0 <= polls[0] < every
    gaps = [b - a for a, b in zip(saves, saves[1:], strict=False)]
    assert all(interval - jitter <= gap <= interval + jitter for gap in gaps)
    assert len({round(gap, 9) for gap in gaps}) > 1  # jittered, not a metronome
    # As many saves as the gaps allow: every one that fits before the end, none after.
    assert saves[-1] + interval + jitter >= seconds
    assert (seconds - interval) / (interval + jitter) <= len(saves) <= seconds / (interval - jitter) + 1
    assert all(abs((b - a) - every) < 1e-9 for a, b in zip(polls, polls[1:], strict=False))
    assert len(polls) in (int(seconds / every), int(seconds / every) + 1)


def test_without_jitter_a_schedule_is_one_send_each_interval_and_a_jitter_as_long_as_the_interval_is_refused():
    saves, polls = load.club_schedule(10.0, 2.0, 0.0, 2.0, random.Random(1))
    assert len(saves) == len(polls) == 5
    with pytest.raises(ValueError):
        load.club_schedule(10.0, 2.0, 2.0, 2.0, random.Random(1))


def a_phone() -> load.TablePhone:
    phone = load.TablePhone(
        game_id="g", session="s", seat=2, encoding="urlencoded", page="0123456789abcdef", csrf="t", csrf_cookie="c"
    )
    phone.fields = [f"s2-{key}" for key in ("starting_vp", "farm_income", "farms")]
    phone.steppers = ["s2-t1", "s2-active_workers"]
    phone.versions = {"s2-starting_vp": 4, "s2-farm_income": 0, "s2-farms": 7, "s2-t1": 2, "s2-active_workers": 0}
    return phone


class Answer:
    """An answer's headers, as http.client gives them."""

    def __init__(self, **headers: str):
        self.headers = {name.replace("_", "-").lower(): value for name, value in headers.items()}

    def getheader(self, name: str, default=None):
        return self.headers.get(name.lower(), default)


def test_a_club_phone_polls_on_from_its_own_save_when_nothing_else_was_written_between_as_the_pad_does():
    phone = a_phone()
    phone.saved(Answer(ETag='"rev-1"', X_Pad_Revision="1"))
    assert phone.etag == ""  # (nothing polled yet: the next poll brings the whole game)
    phone.polled(Answer(ETag='W/"rev-4"', X_Pad_Revision="4"))
    phone.saved(Answer(ETag='W/"rev-5"', X_Pad_Revision="5"))
    assert (phone.etag, phone.etag_revision) == ('W/"rev-5"', 5)
    phone.saved(Answer(ETag='W/"rev-7"', X_Pad_Revision="7"))  # another phone wrote the revision between
    assert (phone.etag, phone.etag_revision) == ('W/"rev-5"', 5)


def test_a_club_phone_types_its_own_fields_in_turn_and_steps_now_and_then_each_save_with_the_version_it_saw():
    phone, rng = a_phone(), random.Random(3)
    sent = []
    for _ in range(4 * load.STEP_EVERY):
        kind, name, body, content_type = load.club_save_body(phone, rng)
        assert content_type.startswith("application/x-www-form-urlencoded")
        sent.append((kind, name, {key: values[0] for key, values in parse_qs(body.decode()).items()}))

    assert [kind for kind, _, _ in sent].count("step") == 4
    assert all(kind == "step" for kind, _, _ in sent[load.STEP_EVERY - 1 :: load.STEP_EVERY])
    typed = [name for kind, name, _ in sent if kind == "save"]
    assert typed == [phone.fields[i % 3] for i in range(len(typed))]  # its own seat's fields, in turn
    for kind, name, form in sent:
        assert form["field"] == name and form["version"] == str(phone.versions[name])
        assert form["page"] == phone.page
        assert ("value" in form) == (kind == "save") and ("step" in form) == (kind == "step")
    assert [form["step"] for kind, _, form in sent if kind == "step"] == ["1", "-1", "1", "-1"]
    assert [int(form["seq"]) for _, _, form in sent] == list(range(1, len(sent) + 1))
    for _, _, form in sent:
        if "value" in form:  # a number or a sum of two, as typed into a score field
            assert all(part.isdigit() for part in form["value"].split("+")) and eval(form["value"]) <= 15


def test_a_step_names_its_version_as_a_typed_value_does():
    body, _ = save_body("urlencoded", "s1-t3", step=-1, version=9, page="p", seq=4)
    assert parse_qs(body.decode()) == {
        "field": ["s1-t3"],
        "step": ["-1"],
        "version": ["9"],
        "page": ["p"],
        "seq": ["4"],
    }


def test_the_club_summary_counts_the_window_and_every_kind_of_error():
    sample = load.ClubSample
    samples = [
        sample(9.0, 9.0, 9.5, 500, "save"),  # scheduled before the window: left out
        sample(10.0, 10.0, 10.010, 200, "save"),
        sample(11.0, 11.5, 11.520, 200, "step"),  # sent late: counted from 11.0
        sample(12.0, 12.0, 12.030, 409, "save"),  # a conflict is never expected: an error
        sample(13.0, 13.0, 13.005, 0, "save"),  # no answer
        sample(10.5, 10.5, 10.504, 304, "poll"),
        sample(11.5, 11.5, 11.508, 200, "poll"),
        sample(12.5, 12.5, 12.512, 404, "poll"),
        sample(20.0, 20.0, 20.1, 200, "poll"),  # scheduled after the window: left out
    ]
    found = load.club_summary(samples, unsent=[14.0, 25.0], window=(10.0, 20.0), hung=1)

    assert found["save"]["answers"] == 4 and found["save"]["ok"] == 2 and found["save"]["steps"] == 1
    assert found["save"]["statuses"] == {"0": 1, "200": 2, "409": 1}
    assert found["poll"]["answers"] == 3 and found["poll"]["ok"] == 2 and found["poll"]["errors"] == 1
    assert found["unsent"] == 1 and found["threads_still_running"] == 1
    assert found["errors"] == 2 + 1 + 1 + 1
    assert found["save"]["latency_ms"]["max"] == pytest.approx(520)  # from the scheduled time
    assert found["save"]["service_ms"]["max"] == pytest.approx(30)  # from the actual send
    assert found["save"]["late_ms"]["max"] == pytest.approx(500)
    assert found["save"]["per_second"] == pytest.approx(0.2) and found["poll"]["per_second"] == pytest.approx(0.2)


class StandIn(http.server.BaseHTTPRequestHandler):
    """A stand-in for the app: a save answers its field's status at a higher version, a poll 304."""

    def do_POST(self):  # noqa: N802 - http.server's name
        form = parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
        assert "version" in form, form  # every save names its version
        self.server.saves.append(form)
        body = (
            f'<span class="status" id="status-{form["field"][0]}" data-status '
            f'data-version="{int(form["version"][0]) + 1}"></span>'
        ).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):  # noqa: N802
        self.server.polls.append(self.headers.get("If-None-Match"))
        self.send_response(304 if self.headers.get("If-None-Match") else 200)
        self.send_header("ETag", 'W/"rev-1"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def test_the_open_loop_stops_by_itself_having_sent_its_schedule():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), StandIn)
    server.saves, server.polls = [], []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        phones = [a_phone(), a_phone()]
        addresses = Addresses(10**9, fixed="127.0.0.1")
        found = load.club_night(
            "127.0.0.1",
            server.server_address[1],
            phones,
            [addresses.holder() for _ in phones],
            seconds=0.6,
            warmup=0.2,
            interval=0.1,
            jitter=0.02,
            poll_every=0.1,
            seed=5,
        )
    finally:
        server.shutdown()
        server.server_close()

    assert not [t for t in threading.enumerate() if t.name.startswith("bench-club-")]
    assert found["threads_still_running"] == 0 and found["unsent"] == 0 and found["errors"] == 0
    assert found["save"]["answers"] > 0 and found["poll"]["answers"] > 0
    assert len(server.saves) == sum(phone.seq for phone in phones)  # every scheduled save went, once
    # Each phone's first poll has no ETag yet; every later one sends back the ETag it got.
    assert server.polls.count(None) == len(phones) and set(server.polls) == {None, 'W/"rev-1"'}
    assert all(phone.versions["s2-starting_vp"] >= 5 for phone in phones)  # the version taken from the answer


# -- the report's verdicts ---------------------------------------------------------------------


def club(save_p99: float, poll_p99: float, errors: int = 0) -> dict:
    def part(p99, **more):
        lat = {"n": 100, "median": p99 / 3, "p95": p99 / 2, "p99": p99, "max": p99}
        return {
            "answers": 100,
            "ok": 100 - more.get("errors", 0),
            "per_second": 16.0,
            "errors": 0,
            "statuses": {"200": 100},
            "latency_ms": lat,
            "service_ms": lat,
            "late_ms": {"n": 100, "p99": 1.0, "max": 2.0},
            **more,
        }

    return {
        "phones": 32,
        "tables": 8,
        "addresses": ["127.0.0.1"],
        "interval": 2.0,
        "jitter": 0.5,
        "poll_every": 2.0,
        "seconds": 60.0,
        "save": part(save_p99, steps=20),
        "poll": part(poll_p99),
        "unsent": 0,
        "threads_still_running": 0,
        "errors": errors,
        "scheduled": {"save_per_second": 16.0, "poll_per_second": 16.0},
        "machine_busy": None,
        "cpu_ms_per_request": None,
    }


def statements(count: int) -> dict:
    return {"count": count, "by_statement": {"SELECT scoring_game": 1, "UPDATE scoring_seat": count - 1}}


def timing(median: float) -> dict:
    return {
        "measured": {"n": 200, "median": median, "p95": median * 2, "p99": median * 3},
        "baseline": {"n": 200, "median": 0.5, "p95": 0.6, "p99": 0.7},
    }


def given(database: str = "SQLite (a file in a temporary folder)", **figures) -> dict:
    results = {
        "database": database,
        "options": {"sectors": figures.get("sectors", 20)},
        "inprocess": {
            "sizes": {
                size: {
                    "statements": {
                        f"{kind}_{n}p": statements(figures.get("statements", 6))
                        for kind in ("save", "step")
                        for n in (1, 5)
                    },
                    "timings": {
                        "pad4": timing(figures.get("pad4", 12.0)),
                        "poll_news": timing(6.0),
                        "poll_made": timing(figures.get("poll_made", 2.0)),
                    },
                }
                for size in ("10", "100000")
            },
            "html": {
                "pad4_html": figures.get("pad4_html", 50_000),
                "poll_html": 15_000,
                "pad4_html_5": {"track": figures.get("pad4_html_5_track", 50_000), "breakdown": 70_000},
            },
            "bodies": {"encoding": "urlencoded", "save": 68, "step": 57},
            "poll": {"status": 304, "body_bytes": 0, "count": 1, "by_statement": {"SELECT scoring_game": 1}},
            "history": {
                "sizes": figures.get("history_sizes", ["1000", "100000"]),
                "baseline": {},
                "pages": {"history page": {"1000": 10.0, "10": 10.0, "100000": figures.get("history", 12.0)}},
            },
        },
        "gunicorn": {
            "workers": 2,
            "club": club(figures.get("save_p99", 30.0), figures.get("poll_p99", 30.0), figures.get("errors", 0)),
            "club_large": {
                **club(figures.get("large_save_p99", 40.0), 40.0, figures.get("large_errors", 0)),
                "phones": 96,
                "tables": 24,
            },
            "sizes": {
                "save": {"bytes": 1500, "status": 200},
                "step": {"bytes": 1400, "status": 200},
                "poll": {"bytes": 700, "status": 304, "body": 0},
            },
            "first_load": {
                "total": figures.get("first_load", 42_000),
                "all_ok": True,
                "requests": [{"url": "/games/x/", "bytes": figures.get("first_load", 42_000)}],
            },
            "load": {
                "save": {
                    "clients": 32,
                    "per_second": figures.get("rate", 180.0),
                    "ok": 900,
                    "seconds": 5.0,
                    "errors": 0,
                    "statuses": {"200": 900},
                    "clients_still_running": 0,
                    "latency_ms": {"n": 900, "median": 160, "p95": 190, "p99": 240},
                    "cpu_ms_per_answer": 8.7,
                    "workers_same": True,
                }
            },
            "browser": {"skipped": "--no-browser"},
        },
    }
    return results


def verdicts(results: dict) -> dict:
    return {row["key"]: row["met"] for row in report.figures(results) if row.get("key")}


def test_within_the_budget_every_budgeted_figure_is_met_and_the_withdrawn_ones_have_no_verdict():
    rows = report.figures(given())
    met = {row["key"]: row["met"] for row in rows}
    for key in (
        "club.save_p99",
        "club.poll_p99",
        "club.errors",
        "club_large.save_p99",
        "club_large.poll_p99",
        "club_large.errors",
        "load.rate",
        "sql.save_1p.10",
        "sql.step_5p.100000",
        "sql.save.same",
        "body.save",
        "body.step",
        "sent.save",
        "poll",
        "first_load",
        "history.history page",
        "time.pad4.10",
        "time.pad4.100000",
        "time.poll_made.10",
        "html.pad4",
    ):
        assert met[key] is True, key
    for key in ("load.p99", "load.cpu", "club.rates", "requests_per_game", "time.poll_news.10", "html.poll"):
        # information, or not measured
        assert met[key] is None, key
    assert [row["group"] for row in rows] == sorted((row["group"] for row in rows), key=report.GROUPS.index)
    withdrawn = [row for row in rows if row["group"] == report.INFO]
    assert withdrawn and all(row["met"] is None and row["budget"] == "—" for row in withdrawn)
    budgets = {row["budget"] for row in rows}
    assert not budgets & {"≤ 5", "≤ 3 ms", "≥ 300/s", "p99 < 100 ms"}  # issue 9's withdrawn budgets
    assert not [budget for budget in budgets if "/healthz" in budget]


@pytest.mark.parametrize(
    ("figures", "key", "met"),
    [
        ({"save_p99": 50.0}, "club.save_p99", True),
        ({"save_p99": 50.1}, "club.save_p99", False),
        ({"poll_p99": 75.0}, "club.poll_p99", False),
        ({"errors": 1}, "club.errors", False),
        ({"rate": 100.0}, "load.rate", True),
        ({"rate": 99.0}, "load.rate", False),
        ({"statements": 8}, "sql.save_5p.100000", True),
        ({"statements": 9}, "sql.save_5p.100000", False),
        ({"first_load": 45 * 1024}, "first_load", True),
        ({"first_load": 45 * 1024 + 1}, "first_load", False),
        ({"history": 15.0}, "history.history page", True),
        ({"history": 15.1}, "history.history page", False),
        ({"large_save_p99": 50.0}, "club_large.save_p99", True),
        ({"large_save_p99": 51.0}, "club_large.save_p99", False),
        ({"large_errors": 1}, "club_large.errors", False),
        ({"pad4": 15.0}, "time.pad4.100000", True),
        ({"pad4": 15.1}, "time.pad4.100000", False),
        ({"pad4_html": 60 * 1024}, "html.pad4", True),
        ({"pad4_html": 60 * 1024 + 1}, "html.pad4", False),
        ({"pad4_html_5_track": 60 * 1024}, "html.pad4_5_track", True),
        ({"pad4_html_5_track": 60 * 1024 + 1}, "html.pad4_5_track", False),
        ({}, "html.pad4_5_breakdown", False),
        ({"poll_made": 3.0}, "time.poll_made.10", True),
        ({"poll_made": 3.1}, "time.poll_made.10", False),
    ],
)
def test_each_budget_is_marked_met_or_not_on_given_figures(figures, key, met):
    assert verdicts(given(**figures))[key] is met


def test_budgets_that_do_not_apply_to_the_run_have_no_verdict():
    # ≥ 100 saves/s is a budget on SQLite; the history's compares 100,000 games with 1,000; the pad
    # page's are for 20 sectors.
    assert verdicts(given("PostgreSQL (apiary_bench_x)", rate=50.0))["load.rate"] is None
    assert verdicts(given(history_sizes=["10", "100000"], history=100.0))["history.history page"] is None
    few = verdicts(given(sectors=2, pad4=100.0, pad4_html=10**6))
    assert few["time.pad4.10"] is None and few["html.pad4"] is None and few["time.poll_made.10"] is True


def test_a_club_night_behind_one_address_says_so():
    results = given()
    results["gunicorn"]["club_large"]["addresses"] = ["127.1.0.2", "127.1.0.3"]  # (an older run's phones)
    rows = {row["key"]: row["figure"] for row in report.figures(results) if row.get("key")}
    assert rows["club.save_p99"].startswith("club night (32 phones at 8 tables behind one address (127.0.0.1), each")
    assert rows["club_large.save_p99"].startswith("club night (96 phones at 24 tables, each")


def test_a_run_without_the_club_night_says_not_measured_and_passes_nothing():
    results = given()
    del results["gunicorn"]["club"], results["gunicorn"]["club_large"]
    results["options"] = {"no_club": True}
    rows = {row["key"]: row for row in report.figures(results)}
    assert rows["club.save_p99"]["met"] is None and "--no-club" in rows["club.save_p99"]["measured"]
    assert rows["club_large.errors"]["met"] is None and "--no-club" in rows["club_large.errors"]["measured"]


def test_a_run_without_the_large_club_night_says_so():
    results = given()
    del results["gunicorn"]["club_large"]
    results["options"] = {"large_club_tables": 0}
    rows = {row["key"]: row for row in report.figures(results)}
    assert rows["club.save_p99"]["met"] is True
    assert (
        rows["club_large.poll_p99"]["met"] is None
        and "--large-club-tables 0" in rows["club_large.poll_p99"]["measured"]
    )


def test_the_docs_table_is_written_between_the_markers(tmp_path):
    results = copy.deepcopy(given())
    results.update(
        machine={
            "date": "today",
            "cpu_count": 2,
            "cpu_model": "cpu",
            "load_average_at_start": None,
            "python": "3.13",
            "django": "6.1",
            "sqlite": "3",
        },
        git={"commit": "abc", "subject": "s", "uncommitted_changes": []},
        command="bench/run.py",
        rate_limit={"how": "each phone its own address"},
    )
    results["figures"] = report.figures(results)
    doc = tmp_path / "performance.md"
    doc.write_text(f"prose\n{report.DOCS_BEGIN}\nold table\n{report.DOCS_END}\nmore prose\n", encoding="utf-8")

    assert report.update_docs(results, doc)
    text = doc.read_text(encoding="utf-8")
    assert text.startswith("prose\n") and text.endswith("more prose\n") and "old table" not in text
    assert f"| **{report.CLUB}** |" in text and "| p99 ≤ 50 ms | yes |" in text


def test_lighthouses_rows_give_each_pages_scores_and_meet_the_budget_only_at_100_without_a_shift():
    """Issue 51: Lighthouse's mobile run of the four pages, each with its four scores and its
    metrics; a page under 100 anywhere, or with a layout shift, does not meet the budget, and the
    audits that cost it a point are named."""

    def page(performance: int, cls: float, failing=()) -> dict:
        shown = dict.fromkeys(("first-contentful-paint", "largest-contentful-paint"), "1.0 s")
        return {
            "scores": {"performance": performance, "accessibility": 100, "best-practices": 100, "seo": 100},
            "metrics": {"cumulative-layout-shift": cls},
            "shown": {**shown, "total-blocking-time": "0 ms", "total-byte-weight": "Total size was 29 KiB"},
            "failing": list(failing),
        }

    found = {"home": page(100, 0), "pad": page(90, 0.172), "results": page(100, 0, ["meta-description"])}
    rows = report.lighthouse_rows({"gunicorn": {"lighthouse": {**found, "table": {"error": "no answer"}}}})

    assert [(r["key"], r["met"]) for r in rows] == [
        ("lighthouse.home", True),
        ("lighthouse.pad", False),
        ("lighthouse.results", True),
        ("lighthouse.table", None),
    ]
    assert "90 / 100 / 100 / 100 (CLS 0.172" in rows[1]["measured"]
    assert rows[2]["measured"].endswith("points lost to meta-description")
    assert rows[3]["measured"] == "not measured (no answer)"
    skipped = report.lighthouse_rows({"gunicorn": {"lighthouse": {"skipped": "npm is not installed"}}})
    assert [r["measured"] for r in skipped] == ["not measured (npm is not installed)"]
