"""The figures of a run against the budget of issue 9 ("Fast at the table"): one row per
figure (figure | measured | baseline | ratio | budget | met?), printed, written as JSON and,
on request, as the Markdown of docs/performance.md.

A budget that a run could not measure says so ("not measured") instead of passing.
"""

from __future__ import annotations

import json
from pathlib import Path

KB = 1024

# The budgets of issue 9.
SAVE_RATIO = 3.0
PAD5_RATIO = 5.0
MAX_STATEMENTS = 5
CPU_MS = 3.0
SAVES_PER_SECOND = 300
P99_MS = 100.0
BODY_BYTES = 300
SAVE_SENT_BYTES = 2 * KB
FIRST_LOAD_BYTES = 30 * KB

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


def row(figure: str, measured: str, baseline: str = "—", ratio: float | None = None, budget: str = "—",
        met: bool | None = None, **raw) -> dict:
    return {"figure": figure, "measured": measured, "baseline": baseline,
            "ratio": None if ratio is None else round(ratio, 2), "budget": budget, "met": met, **raw}


def figures(results: dict) -> list[dict]:
    rows: list[dict] = []
    inproc = results.get("inprocess") or {}
    sizes = inproc.get("sizes") or {}
    size_keys = sorted(sizes, key=int)

    lines = {
        "save": ("htmx field save, in-process", SAVE_RATIO),
        "step": ("htmx stepper step, in-process", SAVE_RATIO),
        "pad4": ("pad page, 4 players, in-process", None),
        "pad5": ("pad page, 5 players, in-process", PAD5_RATIO),
        "poll": ("live poll, nothing new (304), in-process", None),
        "history": ("history page (first page), in-process", None),
    }
    for key, (label, limit) in lines.items():
        for size in size_keys:
            line = sizes[size].get("timings", {}).get(key)
            if not line:
                continue
            measured, base = line["measured"], line["baseline"]
            odd = {k: v for k, v in line.get("statuses", {}).items() if k != "304"} if key == "poll" else {}
            ratio = measured["median"] / base["median"] if base.get("median") else None
            rows.append(row(
                f"{label}, {number(int(size))} stored games",
                timing(measured) + (f" — answered {', '.join(odd)}, not 304" if odd else ""), timing(base), ratio,
                f"≤ {limit:g}x /healthz (medians)" if limit else "— (for comparison)",
                None if limit is None or ratio is None else ratio <= limit,
                key=f"time.{key}.{size}", value=measured["median"], baseline_value=base["median"]))

    # SQL statements per save and per step: at most 5, and the same whatever the players and games.
    counts: dict[str, list[int]] = {"save": [], "step": []}
    for size in size_keys:
        for name, found in sorted(sizes[size].get("statements", {}).items()):
            kind, players = name.split("_")
            counts[kind].append(found["count"])
            verbs: dict[str, int] = {}
            for label, n in found["by_statement"].items():
                verbs[label.split()[0]] = verbs.get(label.split()[0], 0) + n
            by = ", ".join(f"{verb} {n}" for verb, n in sorted(verbs.items(), key=lambda item: -item[1]))
            rows.append(row(
                f"SQL statements per {'field save' if kind == 'save' else 'stepper step'}, "
                f"{players[:-1]} player{'s' if players != '1p' else ''}, {number(int(size))} stored games",
                f"{found['count']} ({by})", budget=f"≤ {MAX_STATEMENTS}", met=found["count"] <= MAX_STATEMENTS,
                key=f"sql.{name}.{size}", value=found["count"]))
    for kind, values in counts.items():
        if values:
            rows.append(row(
                f"SQL statements per {'field save' if kind == 'save' else 'stepper step'}: the same for 1 or 5 "
                f"players and {' or '.join(number(int(s)) for s in size_keys)} stored games",
                "the same" if len(set(values)) == 1 else f"differ: {sorted(set(values))}",
                budget="the same everywhere", met=len(set(values)) == 1, key=f"sql.{kind}.same"))

    poll = inproc.get("poll")
    if poll:
        # The ETag sent back exactly as the phone got it, with Accept-Encoding: gzip, br.
        wired = ((results.get("gunicorn") or {}).get("sizes") or {}).get("poll")
        status, body = (wired["status"], wired["body"]) if wired else (poll["status"], poll["body_bytes"])
        ok = poll["status"] == 304 and status == 304 and poll["count"] == 1 and body == 0
        rows.append(row(
            "live poll that finds nothing new (If-None-Match: the ETag it was given)",
            f"{status}, {poll['count']} statement{'s' if poll['count'] != 1 else ''} "
            f"({', '.join(poll['by_statement'])}), {body:,} bytes of body"
            + (" as sent by gunicorn" if wired else "") + f"; ETag {poll.get('etag', '?')}",
            budget="304, one cheap query, no body", met=ok, key="poll"))

    bodies = inproc.get("bodies")
    if bodies:
        for kind in ("save", "step"):
            rows.append(row(
                f"save request body ({'typed value' if kind == 'save' else 'stepper step'}, "
                f"{bodies['encoding']} as pad.js sends it)",
                f"{bodies[kind]} bytes" + (f" (and {bodies['csrf_header']} bytes of X-CSRFToken header)"
                                            if bodies.get("csrf_header") else ""),
                budget=f"≤ {BODY_BYTES} bytes", met=bodies[kind] <= BODY_BYTES,
                key=f"body.{kind}", value=bodies[kind]))

    gun = results.get("gunicorn") or {}
    wire = gun.get("sizes") or {}
    estimates = inproc.get("estimates") or {}
    source = "as sent by gunicorn" if wire else "in-process estimate"
    for kind, label in (("save", "save response (typed value)"), ("step", "save response (stepper step)")):
        value = wire.get(kind, {}).get("bytes") if wire else estimates.get(kind)
        if value is not None:
            rows.append(row(f"{label}, {source}, Accept-Encoding: gzip, br", f"{number(value)} bytes",
                            budget=f"≤ {SAVE_SENT_BYTES // KB} KB", met=value <= SAVE_SENT_BYTES,
                            key=f"sent.{kind}", value=value))
    first = gun.get("first_load")
    if first:
        parts = " + ".join(f"{r['url'].rsplit('/', 1)[-1] or 'page'} {number(r['bytes'])}" for r in first["requests"])
        rows.append(row(
            f"pad first load, 4 players, as sent ({len(first['requests'])} requests)",
            f"{number(first['total'])} bytes ({parts})", budget=f"≤ {FIRST_LOAD_BYTES // KB} KB (1 KB = 1,024 bytes)",
            met=first["total"] <= FIRST_LOAD_BYTES and first["all_ok"], key="first_load", value=first["total"]))
    else:
        rows.append(row("pad first load, 4 players, as sent", "not measured (needs the gunicorn section)",
                        budget=f"≤ {FIRST_LOAD_BYTES // KB} KB", key="first_load"))
    for kind, label in (("pad4_html", "pad page HTML alone, 4 players"), ("pad5_html", "pad page HTML alone, 5 players"),
                        ("poll", "live poll, nothing new"), ("healthz", "/healthz")):
        if kind in wire:
            rows.append(row(f"{label}, as sent", f"{number(wire[kind]['bytes'])} bytes", budget="— (for comparison)",
                            key=f"sent.{kind}", value=wire[kind]["bytes"]))

    load = gun.get("load") or {}
    saves, base = load.get("save"), load.get("healthz")
    if saves:
        clients = saves["clients"]
        ratio = saves["per_second"] / base["per_second"] if base and base["per_second"] else None
        rows.append(row(f"gunicorn, 2 workers, {clients} clients: saves per second",
                        f"{saves['per_second']:.0f}/s ({number(saves['ok'])} in {saves['seconds']:.1f} s{cpu_shares(saves)})",
                        f"{base['per_second']:.0f}/s /healthz" if base else "—", ratio,
                        f"≥ {SAVES_PER_SECOND}/s", saves["per_second"] >= SAVES_PER_SECOND,
                        key="load.rate", value=saves["per_second"]))
        lat, blat = saves["latency_ms"], (base or {}).get("latency_ms") or {}
        rows.append(row(f"gunicorn, {clients} clients: save latency",
                        f"p99 {ms(lat.get('p99'))} (p50 {ms(lat.get('median'))}, p95 {ms(lat.get('p95'))})",
                        f"p99 {ms(blat.get('p99'))} /healthz" if blat else "—",
                        lat["p99"] / blat["p99"] if blat.get("p99") else None,
                        f"p99 < {P99_MS:g} ms", lat.get("p99", 1e9) < P99_MS, key="load.p99", value=lat.get("p99")))
        statuses = {k: v for k, v in saves["statuses"].items() if k != "200"}
        rows.append(row(f"gunicorn, {clients} clients: errors",
                        f"{saves['errors']}" + (f" ({', '.join(f'{k or 'no answer'}: {v}' for k, v in statuses.items())})"
                                                if statuses else ""),
                        budget="none", met=saves["errors"] == 0 and not saves["clients_still_running"],
                        key="load.errors", value=saves["errors"]))
        cpu, bcpu = saves["cpu_ms_per_answer"], (base or {}).get("cpu_ms_per_answer")
        rows.append(row("gunicorn: worker CPU per save (utime + stime, /proc)", ms(cpu),
                        f"{ms(bcpu)} per /healthz" if bcpu else "—", cpu / bcpu if cpu and bcpu else None,
                        f"≤ {CPU_MS:g} ms", None if cpu is None else cpu <= CPU_MS and saves["workers_same"],
                        key="load.cpu", value=cpu))
        mixed = load.get("save_poll")
        if mixed:
            polls = mixed["polls"]
            shares = ", ".join(f"{n:,} × {status}" for status, n in polls["statuses"].items())
            rows.append(row(
                f"gunicorn, {clients} clients saving and each polling every {polls['every_seconds']:g} s as pad.js does",
                f"{mixed['per_second']:.0f} saves/s, save p99 {ms(mixed['latency_ms'].get('p99'))}; "
                f"{polls['per_second']:.0f} polls/s ({shares}), poll p99 {ms(polls['latency_ms'].get('p99'))}; "
                f"{mixed['errors']} save errors{cpu_shares(mixed)}",
                f"{saves['per_second']:.0f} saves/s without polls", mixed["per_second"] / saves["per_second"]
                if saves["per_second"] else None, "— (for comparison)", key="load.with_polls",
                value=mixed["per_second"]))
    else:
        for label, budget in ((f"gunicorn, 2 workers, {results.get('options', {}).get('clients', 32)} clients: saves per second",
                               f"≥ {SAVES_PER_SECOND}/s"), ("gunicorn: worker CPU per save", f"≤ {CPU_MS:g} ms")):
            rows.append(row(label, "not measured", budget=budget))

    typed = gun.get("browser") or {}
    if typed.get("values"):
        other = f", {typed['other']} other" if typed["other"] else ""
        errors = f"; {typed['errors_shown']} fields showing an error" if typed["errors_shown"] else ""
        rows.append(row(f"requests for a whole {typed['players']}-player game ({typed['sectors']} sectors), "
                        f"typed in {typed['browser']}",
                        f"{typed['saves']:,} saves for {typed['values']:,} values typed (and {typed['polls']} polls"
                        f"{other}, in {typed['seconds']:g} s){errors}",
                        budget="one per value entered",
                        met=typed["saves"] == typed["values"] and not typed["other"] and not typed["errors_shown"],
                        key="requests_per_game", value=typed["saves"]))
    else:
        why = typed.get("skipped") or ("--no-browser" if gun else "no gunicorn section")
        rows.append(row("requests for a whole 4-player game", f"not measured ({why})", budget="one per value entered",
                        key="requests_per_game"))

    engine = inproc.get("engine")
    if engine:
        ratio = engine["measured"]["median"] / engine["baseline"]["median"]
        rows.append(row("engine: score 5 players, 20 sectors (pure Python)", timing(engine["measured"]),
                        f"{timing(engine['baseline'])} subtotals alone", ratio, "— (for comparison)", key="engine"))
    return rows


def cpu_shares(load: dict) -> str:
    """Where the machine's CPU went during the window (shares of all its cores)."""
    if load.get("machine_busy") is None:
        return ""
    others = max(0.0, load["machine_busy"] - load["workers_share"] - load["client_share"])
    return (f"; machine {load['machine_busy']:.0%} busy: workers {load['workers_share']:.0%}, "
            f"load clients {load['client_share']:.0%}, other processes {others:.0%}")


def verdict(met: bool | None) -> str:
    return "—" if met is None else "yes" if met else "NO"


def print_table(rows: list[dict]) -> None:
    headers = ("figure", "measured", "baseline", "ratio", "budget", "met?")
    cells = [(r["figure"], r["measured"], r["baseline"], "—" if r["ratio"] is None else f"{r['ratio']:.2f}x",
              r["budget"], verdict(r["met"])) for r in rows]
    widths = [min(max(len(str(c[i])) for c in [headers, *cells]), cap) for i, cap in enumerate((70, 60, 40, 8, 34, 4))]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    print(line)
    print("-" * len(line))
    for cell in cells:
        print("  ".join(str(c).ljust(w) for c, w in zip(cell, widths, strict=True)))


def markdown(results: dict) -> str:
    m, g = results["machine"], results["git"]
    changed = g["uncommitted_changes"]
    lines = [
        f"Measured {m['date']} on {m['cpu_count']} × {m['cpu_model']} (load average at start "
        f"{' '.join(m['load_average_at_start'] or ['?'])}), Python {m['python']}, Django {m['django']}, "
        f"SQLite {m['sqlite']}; database: {results['database']}; commit `{g['commit']}` ({g['subject']})"
        + (f", with uncommitted changes to {', '.join(f'`{c}`' for c in changed)}" if changed else "") + ".",
        f"Options: `{results['command']}`. Rate limit: {results['rate_limit']['how']}.",
        "",
        "| figure | measured | baseline | ratio | budget | met? |",
        "|---|---|---|---|---|---|",
    ]
    for r in results["figures"]:
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
