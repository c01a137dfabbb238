"""The figures of a run against the budget of the tracker issue "Speed: what a table feels": one
row per figure (figure | measured | baseline | ratio | budget | met?), in five groups: the club
nights (the open loop a table feels: 8 tables, and 24), the headroom, each piece of work done once
(issue 29: the pad page and a poll, in process), the promises kept from issue 9, and figures
given as information without a budget (issue 9's withdrawn budgets among them). Printed,
written as JSON and, on request, as the Markdown of docs/performance.md.

A budget that a run could not measure says so ("not measured") instead of passing.
"""

from __future__ import annotations

import json
from pathlib import Path

KB = 1024

# The budget of "Speed: what a table feels".
CLUB_P99_MS = 50.0  # the club night (open loop): a save's p99, and a poll's
SATURATION_SAVES = 100  # saves a second at saturation (the closed loop), on SQLite
MAX_STATEMENTS = 8  # per save (a typed value or a step), the same for 1 or 5 players and every size
# Each piece of work once (issue 29): the pad page, 4 players and 20 sectors (the bench's game counts
# its during-the-game points as the breakdown: the most fields a pad has), and a poll that finds
# something new once its answer is made (the table's other phones at the same revision).
PAD_PAGE_MS = 15.0  # in process, median
PAD_PAGE_BYTES = 60 * KB  # its HTML before compression (20 sectors, and 5 sectors either way of counting)
WAYS_OF_COUNTING = {"track": "the VP track", "breakdown": "the breakdown"}  # (the pad's during-the-game points)
PAD_PAGE_SECTORS = 20
POLL_MADE_MS = 3.0  # in process, median
# Kept from issue 9, as met then.
BODY_BYTES = 300
SAVE_SENT_BYTES = 2 * KB
FIRST_LOAD_BYTES = 45 * KB  # was 30 KB
HISTORY_RATIO = 1.5  # a history page at 100,000 stored games against its cost at 1,000
HISTORY_SIZES = (1_000, 100_000)

CLUB = "Club night, open loop (what a table feels)"
HEADROOM = "Headroom"
ONCE = "Each piece of work once, in process"
KEPT = "Kept from issue 9"
INFO = "Information (no budget)"
SLOW_PHONE = "A slow phone: Lighthouse's mobile run (issue 51)"
GROUPS = (CLUB, HEADROOM, ONCE, SLOW_PHONE, KEPT, INFO)
LIGHTHOUSE_PAGES = {
    "home": "the home page",
    "pad": "a 4-player pad",
    "results": "the results",
    "table": "the table view",
}
# The club nights: the first (--club-phones at --club-tables) and the large one (--large-club-tables).
NIGHTS = (("club", "--no-club"), ("club_large", "--large-club-tables 0"))

DOCS_BEGIN = "<!-- bench:figures:begin -->"
DOCS_END = "<!-- bench:figures:end -->"


def ms(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f} ms" if value < 100 else f"{value:.0f} ms"


def timing(s: dict | None) -> str:
    if not s or not s.get("n"):
        return "—"
    return f"{ms(s['median'])} (p95 {ms(s['p95'])}, p99 {ms(s['p99'])})"


def number(value: int) -> str:
    return f"{value:,}"


def row(
    figure: str,
    measured: str,
    baseline: str = "—",
    ratio: float | None = None,
    budget: str = "—",
    met: bool | None = None,
    group: str = INFO,
    **raw,
) -> dict:
    return {
        "figure": figure,
        "measured": measured,
        "baseline": baseline,
        "ratio": None if ratio is None else round(ratio, 2),
        "budget": budget,
        "met": met,
        "group": group,
        **raw,
    }


def figures(results: dict) -> list[dict]:
    """Every row, the groups in the order of ``GROUPS``."""
    rows = [
        *club_rows(results),
        *headroom_rows(results),
        *once_rows(results),
        *lighthouse_rows(results),
        *kept_rows(results),
        *information_rows(results),
    ]
    return sorted(rows, key=lambda r: GROUPS.index(r["group"]))  # (a stable sort: each group's order kept)


def _statuses(statuses: dict, fine: tuple[str, ...]) -> str:
    odd = {k: v for k, v in statuses.items() if k not in fine}
    return ", ".join(f"{v:,} × {'no answer' if k == '0' else k}" for k, v in odd.items())


def club_rows(results: dict) -> list[dict]:
    """Each club night's rows (the first, then the large one), keyed ``club.…`` and ``club_large.…``."""
    return [line for night, left_out in NIGHTS for line in night_rows(results, night, left_out)]


def night_rows(results: dict, night: str, left_out: str) -> list[dict]:
    gun = results.get("gunicorn") or {}
    club = gun.get(night)
    options = results.get("options") or {}
    p99_budget = f"p99 ≤ {CLUB_P99_MS:g} ms"
    if not club:
        if options.get("no_club") or options.get("no_gunicorn"):
            why = "--no-club" if options.get("no_club") else "--no-gunicorn"
        elif night == "club_large" and options.get("large_club_tables") == 0:
            why = left_out
        else:
            why = "not in this run"
        name = "club night" if night == "club" else "large club night"
        return [
            row(f"{name}: {label}", f"not measured ({why})", budget=budget, group=CLUB, key=f"{night}.{key}")
            for key, label, budget in (
                ("save_p99", "save latency", p99_budget),
                ("poll_p99", "poll latency", p99_budget),
                ("errors", "errors", "0"),
            )
        ]
    rows = []
    addresses = club.get("addresses") or []
    behind = f" behind one address ({addresses[0]})" if len(addresses) == 1 else ""
    head = (
        f"club night ({club['phones']} phones at {club['tables']} tables{behind}, each a save every "
        f"{club['interval']:g} s ± {club['jitter']:g} and a poll every {club['poll_every']:g} s; "
        f"{club['seconds']:g} s, gunicorn -w {gun.get('workers', '?')})"
    )
    for kind, label in (
        ("save", "save latency from its scheduled time"),
        ("poll", "poll latency from its scheduled time"),
    ):
        found = club[kind]
        lat = found["latency_ms"]
        what = (
            f"{number(found['answers'])} saves ({found['steps']:,} of them steps)"
            if kind == "save"
            else f"{number(found['answers'])} polls ({', '.join(f'{v:,} × {k}' for k, v in found['statuses'].items())})"
        )
        if lat.get("n"):
            measured = (
                f"p99 {ms(lat['p99'])} (p50 {ms(lat['median'])}, p95 {ms(lat['p95'])}); {what}; "
                f"sent late: p99 {ms(found['late_ms'].get('p99'))}, at most {ms(found['late_ms'].get('max'))}"
            )
        else:
            measured = "nothing answered"
        rows.append(
            row(
                f"{head}: {label}",
                measured,
                budget=p99_budget,
                met=lat["p99"] <= CLUB_P99_MS if lat.get("n") else False,
                group=CLUB,
                key=f"{night}.{kind}_p99",
                value=lat.get("p99"),
                median=lat.get("median"),
                p95=lat.get("p95"),
            )
        )
    details = [
        part
        for part in (
            f"saves: {_statuses(club['save']['statuses'], ('200',))}" if club["save"]["errors"] else "",
            f"polls: {_statuses(club['poll']['statuses'], ('200', '304'))}" if club["poll"]["errors"] else "",
            f"{club['unsent']:,} never sent" if club["unsent"] else "",
            f"{club['threads_still_running']} phones still running" if club["threads_still_running"] else "",
        )
        if part
    ]
    short = f"club night, {club['tables']} tables"
    rows.append(
        row(
            f"{short}: errors (a save not 200, a 409 included; a poll not 200 or 304; no answer; not sent)",
            f"{club['errors']:,}" + (f" ({'; '.join(details)})" if details else ""),
            budget="0",
            met=club["errors"] == 0,
            group=CLUB,
            key=f"{night}.errors",
            value=club["errors"],
        )
    )
    scheduled = club["scheduled"]
    rows.append(
        row(
            f"{short}: achieved rates",
            f"{club['save']['per_second']:.1f} saves/s and {club['poll']['per_second']:.1f} polls/s answered "
            f"(scheduled {scheduled['save_per_second']:.1f} and {scheduled['poll_per_second']:.1f})" + cpu_shares(club),
            budget="— (as scheduled)",
            group=CLUB,
            key=f"{night}.rates",
            value=club["save"]["per_second"],
        )
    )
    return rows


def headroom_rows(results: dict) -> list[dict]:
    rows = []
    gun = results.get("gunicorn") or {}
    load = gun.get("load") or {}
    saves, base = load.get("save"), load.get("healthz")
    on_sqlite = str(results.get("database", "")).startswith("SQLite")
    budget = f"≥ {SATURATION_SAVES}/s on SQLite"
    if saves:
        ratio = saves["per_second"] / base["per_second"] if base and base["per_second"] else None
        rows.append(
            row(
                f"saves a second at saturation (closed loop: gunicorn -w {gun.get('workers', '?')}, "
                f"{saves['clients']} clients each sending its next save when the last is answered)",
                f"{saves['per_second']:.0f}/s ({number(saves['ok'])} in {saves['seconds']:.1f} s, "
                f"{saves['errors']:,} errors{cpu_shares(saves)})",
                f"{base['per_second']:.0f}/s /healthz" if base else "—",
                ratio,
                budget if on_sqlite else f"{budget} (this run: {results.get('database')})",
                saves["per_second"] >= SATURATION_SAVES if on_sqlite else None,
                group=HEADROOM,
                key="load.rate",
                value=saves["per_second"],
            )
        )
    else:
        rows.append(
            row(
                "saves a second at saturation (closed loop)",
                "not measured (needs the gunicorn section)",
                budget=budget,
                group=HEADROOM,
                key="load.rate",
            )
        )

    # SQL statements per save and per step (a step is a save): at most 8, and the same whatever
    # the players and the stored games.
    sizes = (results.get("inprocess") or {}).get("sizes") or {}
    size_keys = sorted(sizes, key=int)
    counts: dict[str, list[int]] = {"save": [], "step": []}
    for size in size_keys:
        for name, found in sorted(sizes[size].get("statements", {}).items()):
            kind, players = name.split("_")
            counts[kind].append(found["count"])
            verbs: dict[str, int] = {}
            for label, n in found["by_statement"].items():
                verbs[label.split()[0]] = verbs.get(label.split()[0], 0) + n
            by = ", ".join(f"{verb} {n}" for verb, n in sorted(verbs.items(), key=lambda item: -item[1]))
            rows.append(
                row(
                    f"SQL statements per {'field save' if kind == 'save' else 'stepper step'}, "
                    f"{players[:-1]} player{'s' if players != '1p' else ''}, {number(int(size))} stored games",
                    f"{found['count']} ({by})",
                    budget=f"≤ {MAX_STATEMENTS}",
                    met=found["count"] <= MAX_STATEMENTS,
                    group=HEADROOM,
                    key=f"sql.{name}.{size}",
                    value=found["count"],
                )
            )
    for kind, values in counts.items():
        if values:
            rows.append(
                row(
                    f"SQL statements per {'field save' if kind == 'save' else 'stepper step'}: the same for 1 or 5 "
                    f"players and {' or '.join(number(int(s)) for s in size_keys)} stored games",
                    "the same" if len(set(values)) == 1 else f"differ: {sorted(set(values))}",
                    budget="the same everywhere",
                    met=len(set(values)) == 1,
                    group=HEADROOM,
                    key=f"sql.{kind}.same",
                )
            )
    if not counts["save"]:
        rows.append(
            row("SQL statements per save", "not measured", budget=f"≤ {MAX_STATEMENTS}", group=HEADROOM, key="sql.save")
        )
    return rows


def once_rows(results: dict) -> list[dict]:
    """Issue 29's in-process figures: the 4-player pad page (its time at each size, its HTML before
    compression) and a poll that finds something new, made for the first phone of the table to ask
    (information) and already made for the others (budgeted). The page's budgets are for 20
    sectors: with another ``--sectors`` they have no verdict."""
    rows: list[dict] = []
    inproc = results.get("inprocess") or {}
    sizes = inproc.get("sizes") or {}
    sectors = (results.get("options") or {}).get("sectors", PAD_PAGE_SECTORS)
    judged = sectors == PAD_PAGE_SECTORS
    aside = "" if judged else f" (the budget is for {PAD_PAGE_SECTORS} sectors)"
    lines = (
        (
            "pad4",
            f"pad page, 4 players, {sectors} sectors, in-process",
            f"median ≤ {PAD_PAGE_MS:g} ms{aside}",
            PAD_PAGE_MS if judged else None,
        ),
        (
            "poll_news",
            "live poll that finds something new, the first phone to ask at its revision, in-process",
            "—",
            None,
        ),
        (
            "poll_made",
            (
                "live poll that finds something new, its answer already made (another phone of the table "
                "at the same revision), in-process"
            ),
            f"median ≤ {POLL_MADE_MS:g} ms",
            POLL_MADE_MS,
        ),
    )
    for key, label, budget, limit in lines:
        for size in sorted(sizes, key=int):
            line = sizes[size].get("timings", {}).get(key)
            if not line:
                continue
            measured, base = line["measured"], line["baseline"]
            ratio = measured["median"] / base["median"] if base.get("median") else None
            rows.append(
                row(
                    f"{label}, {number(int(size))} stored games",
                    timing(measured),
                    timing(base),
                    ratio,
                    budget,
                    None if limit is None else measured["median"] <= limit,
                    group=ONCE,
                    key=f"time.{key}.{size}",
                    value=measured["median"],
                    baseline_value=base["median"],
                )
            )
    html = inproc.get("html")
    if html:
        rows.append(
            row(
                f"pad page HTML, 4 players, {sectors} sectors, before compression",
                f"{number(html['pad4_html'])} bytes",
                budget=f"≤ {PAD_PAGE_BYTES // KB} KB{aside}",
                met=html["pad4_html"] <= PAD_PAGE_BYTES if judged else None,
                group=ONCE,
                key="html.pad4",
                value=html["pad4_html"],
            )
        )
        for during, size in (html.get("pad4_html_5") or {}).items():
            rows.append(
                row(
                    f"pad page HTML, 4 players, 5 sectors, {WAYS_OF_COUNTING.get(during, during)}, before compression",
                    f"{number(size)} bytes",
                    budget=f"≤ {PAD_PAGE_BYTES // KB} KB",
                    met=size <= PAD_PAGE_BYTES,
                    group=ONCE,
                    key=f"html.pad4_5_{during}",
                    value=size,
                )
            )
        rows.append(
            row(
                f"live poll that finds something new, 4 players, {sectors} sectors, before compression",
                f"{number(html['poll_html'])} bytes",
                group=ONCE,
                key="html.poll",
                value=html["poll_html"],
            )
        )
    return rows


def lighthouse_rows(results: dict) -> list[dict]:
    """Each page's Lighthouse scores and metrics (bench/lighthouse.py): 100 in each category and
    no layout shift, each audit that cost a point named."""
    found = (results.get("gunicorn") or {}).get("lighthouse") or {}
    if not found or "skipped" in found:
        why = found.get("skipped") or ("--no-lighthouse" if results.get("gunicorn") else "no gunicorn section")
        return [
            row(
                "Lighthouse, mobile",
                f"not measured ({why})",
                budget="100 in each, CLS 0",
                group=SLOW_PHONE,
                key="lighthouse",
            )
        ]
    rows = []
    for name, words in LIGHTHOUSE_PAGES.items():
        page = found.get(name) or {}
        if "scores" not in page:
            rows.append(
                row(
                    f"Lighthouse, {words}",
                    f"not measured ({page.get('error', '?')})",
                    group=SLOW_PHONE,
                    key=f"lighthouse.{name}",
                )
            )
            continue
        scores, shown = page["scores"], page["shown"]
        cls = page["metrics"]["cumulative-layout-shift"] or 0
        lost = f"; points lost to {', '.join(page['failing'])}" if page["failing"] else ""
        rows.append(
            row(
                f"Lighthouse, {words}: performance, accessibility, best practices, SEO",
                " / ".join(str(scores[category]) for category in scores)
                + f" (CLS {cls:.3f}, FCP {shown['first-contentful-paint']}, LCP {shown['largest-contentful-paint']}, "
                f"TBT {shown['total-blocking-time']}; {shown['total-byte-weight']}){lost}",
                budget="100 in each, CLS 0",
                met=all(score == 100 for score in scores.values()) and cls == 0,
                group=SLOW_PHONE,
                key=f"lighthouse.{name}",
                value=scores["performance"],
            )
        )
    return rows


def kept_rows(results: dict) -> list[dict]:
    rows = []
    inproc = results.get("inprocess") or {}
    gun = results.get("gunicorn") or {}
    wire = gun.get("sizes") or {}

    typed = gun.get("browser") or {}
    if typed.get("values"):
        other = f", {typed['other']} other" if typed["other"] else ""
        errors = f"; {typed['errors_shown']} fields showing an error" if typed["errors_shown"] else ""
        rows.append(
            row(
                f"requests for a whole {typed['players']}-player game ({typed['sectors']} sectors), "
                f"typed in {typed['browser']}",
                f"{typed['saves']:,} saves for {typed['values']:,} values typed (and {typed['polls']} polls"
                f"{other}, in {typed['seconds']:g} s){errors}",
                budget="one per value entered",
                met=typed["saves"] == typed["values"] and not typed["other"] and not typed["errors_shown"],
                group=KEPT,
                key="requests_per_game",
                value=typed["saves"],
            )
        )
    else:
        why = typed.get("skipped") or ("--no-browser" if gun else "no gunicorn section")
        rows.append(
            row(
                "requests for a whole 4-player game",
                f"not measured ({why})",
                budget="one per value entered",
                group=KEPT,
                key="requests_per_game",
            )
        )

    bodies = inproc.get("bodies")
    if bodies:
        for kind in ("save", "step"):
            rows.append(
                row(
                    f"save request body ({'typed value' if kind == 'save' else 'stepper step'}, with its version, "
                    f"{bodies['encoding']} as pad.js sends it)",
                    f"{bodies[kind]} bytes"
                    + (
                        f" (and {bodies['csrf_header']} bytes of X-CSRFToken header)"
                        if bodies.get("csrf_header")
                        else ""
                    ),
                    budget=f"≤ {BODY_BYTES} bytes",
                    met=bodies[kind] <= BODY_BYTES,
                    group=KEPT,
                    key=f"body.{kind}",
                    value=bodies[kind],
                )
            )

    estimates = inproc.get("estimates") or {}
    source = "as sent by gunicorn" if wire else "in-process estimate"
    for kind, label in (("save", "save response (typed value)"), ("step", "save response (stepper step)")):
        value = wire.get(kind, {}).get("bytes") if wire else estimates.get(kind)
        if value is not None:
            rows.append(
                row(
                    f"{label}, {source}, Accept-Encoding: gzip, br",
                    f"{number(value)} bytes",
                    budget=f"≤ {SAVE_SENT_BYTES // KB} KB",
                    met=value <= SAVE_SENT_BYTES,
                    group=KEPT,
                    key=f"sent.{kind}",
                    value=value,
                )
            )

    poll = inproc.get("poll")
    if poll:
        # The ETag sent back exactly as the phone got it, with Accept-Encoding: gzip, br.
        wired = wire.get("poll")
        status, body = (wired["status"], wired["body"]) if wired else (poll["status"], poll["body_bytes"])
        ok = poll["status"] == 304 and status == 304 and body == 0
        rows.append(
            row(
                "live poll that finds nothing new (If-None-Match: the ETag it was given)",
                f"{status}, {body:,} bytes of body"
                + (" as sent by gunicorn" if wired else "")
                + f"; {poll['count']} statement{'s' if poll['count'] != 1 else ''} ({', '.join(poll['by_statement'])})"
                + f"; ETag {poll.get('etag', '?')}",
                budget="304, no body",
                met=ok,
                group=KEPT,
                key="poll",
            )
        )

    first = gun.get("first_load")
    if first:
        parts = " + ".join(f"{r['url'].rsplit('/', 1)[-1] or 'page'} {number(r['bytes'])}" for r in first["requests"])
        rows.append(
            row(
                f"pad first load, 4 players, as sent ({len(first['requests'])} requests)",
                f"{number(first['total'])} bytes ({parts})",
                budget=f"≤ {FIRST_LOAD_BYTES // KB} KB (1 KB = 1,024 bytes)",
                met=first["total"] <= FIRST_LOAD_BYTES and first["all_ok"],
                group=KEPT,
                key="first_load",
                value=first["total"],
            )
        )
    else:
        rows.append(
            row(
                "pad first load, 4 players, as sent",
                "not measured (needs the gunicorn section)",
                budget=f"≤ {FIRST_LOAD_BYTES // KB} KB",
                group=KEPT,
                key="first_load",
            )
        )

    rows += history_rows(inproc.get("history"))
    return rows


def history_rows(history: dict | None) -> list[dict]:
    """Each history, players or statistics page at 100,000 stored games against its cost at
    1,000 (medians, in-process). Other sizes: the largest against the smallest, without a verdict."""
    base_size, top_size = HISTORY_SIZES
    budget = f"≤ {HISTORY_RATIO:g}x (at {number(top_size)} games against {number(base_size)})"
    if not history or not history.get("pages") or len(history.get("sizes", [])) < 2:
        return [
            row(
                f"history, players and statistics pages at {number(top_size)} stored games against {number(base_size)}",
                f"not measured (needs --history-samples and --games {base_size},{top_size})",
                budget=budget,
                group=KEPT,
                key="history",
            )
        ]
    sizes = [int(s) for s in history["sizes"]]
    budgeted = base_size in sizes and top_size in sizes
    low, high = (base_size, top_size) if budgeted else (sizes[0], sizes[-1])
    rows = []
    for page, values in history["pages"].items():
        a, b = values.get(str(low)), values.get(str(high))
        ratio = b / a if a and b else None
        measured = f"{ms(b)} at {number(high)} games" if b else f"not measured at {number(high)} games"
        if not budgeted:
            measured += (
                f" (the budget compares {number(top_size)} with {number(base_size)}: --games {base_size},{top_size})"
            )
        rows.append(
            row(
                f"{page}, in-process, {number(high)} stored games against {number(low)}",
                measured,
                f"{ms(a)} at {number(low)} games" if a else "not measured",
                ratio,
                budget,
                None if not budgeted or ratio is None else ratio <= HISTORY_RATIO,
                group=KEPT,
                key=f"history.{page}",
                value=ratio,
            )
        )
    return rows


def information_rows(results: dict) -> list[dict]:
    """Figures without a budget: issue 9's withdrawn budgets among them (save ≤ 3x /healthz, ≤ 3 ms
    of CPU a save, ≥ 300 saves/s, pad page ≤ 5x, gunicorn p99 < 100 ms), for comparison."""
    rows: list[dict] = []
    inproc = results.get("inprocess") or {}
    sizes = inproc.get("sizes") or {}
    lines = {
        "save": "htmx field save, in-process",
        "step": "htmx stepper step, in-process",
        "pad5": "pad page, 5 players, in-process",
        "poll": "live poll, nothing new (304), in-process",
        "history": "history page (first page), in-process",
    }
    for key, label in lines.items():
        for size in sorted(sizes, key=int):
            line = sizes[size].get("timings", {}).get(key)
            if not line:
                continue
            measured, base = line["measured"], line["baseline"]
            odd = {k: v for k, v in line.get("statuses", {}).items() if k != "304"} if key == "poll" else {}
            ratio = measured["median"] / base["median"] if base.get("median") else None
            rows.append(
                row(
                    f"{label}, {number(int(size))} stored games",
                    timing(measured) + (f" — answered {', '.join(odd)}, not 304" if odd else ""),
                    timing(base),
                    ratio,
                    key=f"time.{key}.{size}",
                    value=measured["median"],
                    baseline_value=base["median"],
                )
            )

    gun = results.get("gunicorn") or {}
    wire = gun.get("sizes") or {}
    for kind, label in (
        ("pad4_html", "pad page HTML alone, 4 players"),
        ("pad5_html", "pad page HTML alone, 5 players"),
        ("poll", "live poll, nothing new"),
        ("healthz", "/healthz"),
    ):
        if kind in wire:
            rows.append(
                row(
                    f"{label}, as sent",
                    f"{number(wire[kind]['bytes'])} bytes",
                    key=f"sent.{kind}",
                    value=wire[kind]["bytes"],
                )
            )

    load = gun.get("load") or {}
    saves, base = load.get("save"), load.get("healthz")
    if saves:
        clients = saves["clients"]
        lat, blat = saves["latency_ms"], (base or {}).get("latency_ms") or {}
        rows.append(
            row(
                f"closed loop, {clients} clients: save latency at saturation",
                f"p99 {ms(lat.get('p99'))} (p50 {ms(lat.get('median'))}, p95 {ms(lat.get('p95'))})",
                f"p99 {ms(blat.get('p99'))} /healthz" if blat else "—",
                lat["p99"] / blat["p99"] if lat.get("p99") and blat.get("p99") else None,
                key="load.p99",
                value=lat.get("p99"),
            )
        )
        statuses = {k: v for k, v in saves["statuses"].items() if k != "200"}
        rows.append(
            row(
                f"closed loop, {clients} clients: errors",
                f"{saves['errors']}"
                + (f" ({_statuses(statuses, ())})" if statuses else "")
                + (
                    f"; {saves['clients_still_running']} clients still running"
                    if saves["clients_still_running"]
                    else ""
                ),
                key="load.errors",
                value=saves["errors"],
            )
        )
        cpu, bcpu = saves["cpu_ms_per_answer"], (base or {}).get("cpu_ms_per_answer")
        rows.append(
            row(
                "closed loop: worker CPU per save (utime + stime, /proc)",
                ms(cpu),
                f"{ms(bcpu)} per /healthz" if bcpu else "—",
                cpu / bcpu if cpu and bcpu else None,
                key="load.cpu",
                value=cpu,
            )
        )
        mixed = load.get("save_poll")
        if mixed:
            polls = mixed["polls"]
            shares = ", ".join(f"{n:,} × {status}" for status, n in polls["statuses"].items())
            rows.append(
                row(
                    f"closed loop, {clients} clients saving and each polling every {polls['every_seconds']:g} s",
                    f"{mixed['per_second']:.0f} saves/s, save p99 {ms(mixed['latency_ms'].get('p99'))}; "
                    f"{polls['per_second']:.0f} polls/s ({shares}), poll p99 {ms(polls['latency_ms'].get('p99'))}; "
                    f"{mixed['errors']} save errors{cpu_shares(mixed)}",
                    f"{saves['per_second']:.0f} saves/s without polls",
                    mixed["per_second"] / saves["per_second"] if saves["per_second"] else None,
                    key="load.with_polls",
                    value=mixed["per_second"],
                )
            )
    for night, _left_out in NIGHTS:
        club = gun.get(night)
        if not club:
            continue
        name = f"club night, {club['tables']} tables"
        for kind in ("save", "poll"):
            served = club[kind]["service_ms"]
            rows.append(
                row(
                    f"{name}: {kind} latency from its actual send (the server's part)",
                    timing(served),
                    key=f"{night}.{kind}_service",
                    value=served.get("p99"),
                )
            )
        if club.get("cpu_ms_per_request") is not None:
            rows.append(
                row(
                    f"{name}: worker CPU per request (saves and polls)",
                    ms(club["cpu_ms_per_request"]),
                    key=f"{night}.cpu",
                    value=club["cpu_ms_per_request"],
                )
            )

    engine = inproc.get("engine")
    if engine:
        ratio = engine["measured"]["median"] / engine["baseline"]["median"]
        rows.append(
            row(
                "engine: score 5 players, 20 sectors (pure Python)",
                timing(engine["measured"]),
                f"{timing(engine['baseline'])} subtotals alone",
                ratio,
                key="engine",
            )
        )
    return rows


def cpu_shares(load: dict) -> str:
    """Where the machine's CPU went during the window (shares of all its cores)."""
    if load.get("machine_busy") is None or load.get("workers_share") is None or load.get("client_share") is None:
        return ""
    others = max(0.0, load["machine_busy"] - load["workers_share"] - load["client_share"])
    return (
        f"; machine {load['machine_busy']:.0%} busy: workers {load['workers_share']:.0%}, "
        f"load clients {load['client_share']:.0%}, other processes {others:.0%}"
    )


def verdict(met: bool | None) -> str:
    return "—" if met is None else "yes" if met else "NO"


def print_table(rows: list[dict]) -> None:
    headers = ("figure", "measured", "baseline", "ratio", "budget", "met?")
    cells = [
        (
            r["figure"],
            r["measured"],
            r["baseline"],
            "—" if r["ratio"] is None else f"{r['ratio']:.2f}x",
            r["budget"],
            verdict(r["met"]),
        )
        for r in rows
    ]
    widths = [min(max(len(str(c[i])) for c in [headers, *cells]), cap) for i, cap in enumerate((70, 60, 40, 8, 34, 4))]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    print(line)
    print("-" * len(line))
    group = None
    for r, cell in zip(rows, cells, strict=True):
        if r.get("group") != group:
            group = r.get("group")
            print(f"[{group}]")
        print("  ".join(str(c).ljust(w) for c, w in zip(cell, widths, strict=True)))


def markdown(results: dict) -> str:
    m, g = results["machine"], results["git"]
    changed = g["uncommitted_changes"]
    lines = [
        f"Measured {m['date']} on {m['cpu_count']} × {m['cpu_model']} (load average at start "
        f"{' '.join(m['load_average_at_start'] or ['?'])}), Python {m['python']}, Django {m['django']}, "
        f"SQLite {m['sqlite']}; database: {results['database']}; commit `{g['commit']}` ({g['subject']})"
        + (f", with uncommitted changes to {', '.join(f'`{c}`' for c in changed)}" if changed else "")
        + ".",
        f"Options: `{results['command']}`. Rate limit: {results['rate_limit']['how']}.",
        "",
        "| figure | measured | baseline | ratio | budget | met? |",
        "|---|---|---|---|---|---|",
    ]
    group = None
    for r in results["figures"]:
        if r.get("group") != group:
            group = r.get("group")
            lines.append(f"| **{group}** | | | | | |")
        ratio = "—" if r["ratio"] is None else f"{r['ratio']:.2f}x"
        cells = [r["figure"], r["measured"], r["baseline"], ratio, r["budget"], verdict(r["met"])]
        lines.append("| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |")
    table = history_table(results)
    if table:
        lines += ["", "History, players and statistics pages (medians, in-process; issue 8's benchmark):", ""]
        lines += ["| " + " | ".join(table[0]) + " |", "|---" * len(table[0]) + "|"]
        lines += ["| " + " | ".join(cells) + " |" for cells in table[1:]]
    return "\n".join(lines) + "\n"


def history_table(results: dict) -> list[tuple[str, ...]]:
    """Issue 8's pages at each size, with the ratio of the largest size to the smallest."""
    history = (results.get("inprocess") or {}).get("history")
    if not history or not history["pages"]:
        return []
    sizes = history["sizes"]
    table = [("page", *(f"{number(int(s))} games" for s in sizes), "ratio (largest / smallest)")]
    for page, values in history["pages"].items():
        first, last = values.get(sizes[0]), values.get(sizes[-1])
        table.append((page, *(ms(values.get(s)) for s in sizes), f"{last / first:.2f}" if first and last else "—"))
    table.append(("/healthz (baseline)", *(ms(history["baseline"].get(s)) for s in sizes), "—"))
    return table


def print_history(results: dict) -> None:
    table = history_table(results)
    if table:
        print("\nHistory, players and statistics pages (medians, in-process; issue 8's benchmark):")
        widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
        for cells in table:
            print("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)))


def write_json(results: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2, default=str) + "\n", encoding="utf-8")


def update_docs(results: dict, path: Path) -> bool:
    """Replace the figures between the markers of ``path`` (docs/performance.md) by this run's."""
    text = path.read_text(encoding="utf-8")
    if DOCS_BEGIN not in text or DOCS_END not in text:
        return False
    before, rest = text.split(DOCS_BEGIN, 1)
    _, after = rest.split(DOCS_END, 1)
    path.write_text(before + DOCS_BEGIN + "\n" + markdown(results) + DOCS_END + after, encoding="utf-8")
    return True
