"""Several phones saving one game at once, for ``tests/test_concurrency.py``.

Run as ``python -m tests.concurrency_driver`` from the project with DATABASE_URL set (a migrated database): it
creates a game owned by an account and its edit link, starts PHONES processes that each send
about ninety saves through the real views as the pad's script sends them (typed values against
the version each phone last saw, stale values from an old page, and stepper taps; every save
names the version it is based on), records every answer, and prints one JSON document: the
stored game and what the answers acknowledged, compared. Nothing here is timed.

The first phone is the owner's, signed in; the others open the game's edit link (``/join/<token>/``)
as the phones of the table do, and save through it. The abuse limits are off (``RATE_LIMITS``):
four phones from one address would soon reach them, and they are not what this measures.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import re
import sys

PHONES = 4
ROUNDS = 30  # per phone; each round sends about three saves
NAMES = ["Ann", "Ben", "Cid", "Dee"]
SECTORS = [(9, 4), (6, 3), (13, 0)]
TYPED_KEYS = ["explore_tokens", "farm_income", "recruits", "developments"]  # every phone types these
STEPPED = ["s1-farms", "s2-farms", "s3-farms"]  # every phone taps + on these (never past the limit of 99)


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "apiary_site.settings")
    os.environ.setdefault("DEBUG", "true")  # development mode, as the suite that starts it
    os.environ["ALLOWED_HOSTS"] = "testserver"
    import django
    from django.conf import settings

    django.setup()
    settings.RATE_LIMITS = {}


def status_of(html: str) -> tuple[int, str]:
    """The version and stored value the save's answer gives its field (its first element, the
    field's status: ``<span class="status" … data-version="3" data-stored="12" … data-status>``,
    its attributes quoted or not, as the minifier leaves them)."""
    from tests.support.pages import parse  # (once Django is set up)

    status = parse(html).find(data_status=True)
    assert status is not None and status.get("data-version") and status.get("data-stored") is not None, html[:300]
    return int(status["data-version"]), status["data-stored"]


def phone(number: int, game_id: str, owner_id: int, token: str, seed: int, results) -> None:
    """One phone's saves; its log (or what stopped it) goes to ``results``."""
    try:
        results.put(_phone(number, game_id, owner_id, token, seed))
    except BaseException:  # noqa: BLE001 - the parent must hear of it, not wait for a log that never comes
        import traceback

        results.put({"crashed": number, "error": traceback.format_exc()})


def _phone(number: int, game_id: str, owner_id: int, token: str, seed: int) -> list[dict]:
    setup_django()
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client

    connection.close()
    client = Client(HTTP_ACCEPT="text/plain, text/html;q=0.9")  # as the pad's script (no HX-Request)
    if number == 1:
        client.force_login(User.objects.get(pk=owner_id))  # the owner's phone
    else:
        joined = client.get(f"/join/{token}/")  # a phone of the table, by the link
        assert joined.status_code == 302 and joined["Location"] == f"/games/{game_id}/who/", joined  # "which player?"
    url = f"/games/{game_id}/save/"
    rng = random.Random(seed)
    seqs = {f"phone{number}": 0, f"phone{number}-old-tab": 0}  # this phone's page, and a stale one of it
    seen: dict[str, int] = {}  # the version this phone last saw of each field
    log = []

    def save(page=f"phone{number}", stale=False, **data):
        seqs[page] += 1
        response = client.post(url, {**data, "page": page, "seq": seqs[page]})
        assert response.status_code in (200, 409), (response.status_code, response.content[:300])
        version, stored = status_of(response.content.decode())
        log.append(
            {
                "field": data["field"],
                "status": response.status_code,
                "version": version,
                "stored": stored,
                "value": data.get("value"),
                "step": data.get("step"),
                "base": data.get("version"),
                "stale": stale,
            }
        )
        return response.status_code, version

    taps = 0
    for _round in range(ROUNDS):
        seat = rng.randint(1, 4)
        name = f"s{seat}-{rng.choice(TYPED_KEYS)}"
        _code, seen[name] = save(
            field=name, value=str(rng.randint(0, 50)), version=seen.get(name, 0)
        )  # saved or not, the answer says what is stored now
        token = f"s{rng.randint(1, 4)}-t{rng.randint(0, 2)}"
        _code, seen[token] = save(field=token, value=str(rng.randint(0, 2)), version=seen.get(token, 0))
        if taps < 6 and rng.random() < 0.5:  # at most 6 taps a phone: 24 on a field in all, within limits
            taps += 1
            stepped = rng.choice(STEPPED)  # (a step names a version too; it applies to whatever is stored)
            _code, seen[stepped] = save(field=stepped, step="+1", version=seen.get(stepped, 0))
        if rng.random() < 0.2 and seen.get(name, 0) > 0:
            # A stale page (an old tab of this phone): a value typed over the field's first state,
            # though it has been written since: refused, whatever this phone's own page sent.
            save(page=f"phone{number}-old-tab", stale=True, field=name, value="99", version=0)
    return log


def main() -> None:
    setup_django()
    from django.contrib.auth.models import User

    from scoring.models import Change, Game, HibernationTokens, Seat
    from scoring.rules.categories import During
    from scoring.services.games import PlayerSetup, game_create
    from scoring.services.sharing import link_renew

    owner = User.objects.create_user(f"table-owner-{os.getpid()}-{random.randrange(10**9)}")
    game = game_create(
        players=[PlayerSetup(n) for n in NAMES], sectors=SECTORS, owner=owner, during=During.BREAKDOWN
    )  # (the phones type the breakdown's fields)
    link = link_renew(game=game, access="edit")
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    workers = [
        context.Process(target=phone, args=(n, game.public_id, owner.pk, link.token, 1000 + n, results))
        for n in range(1, PHONES + 1)
    ]
    for worker in workers:
        worker.start()
    answers = [results.get(timeout=600) for _worker in workers]
    for worker in workers:
        worker.join(timeout=60)
    crashed = [answer for answer in answers if isinstance(answer, dict)]
    if crashed:
        print("\n".join(f"phone {item['crashed']} stopped:\n{item['error']}" for item in crashed), file=sys.stderr)
        sys.exit(1)
    logs = [entry for answer in answers for entry in answer]

    # What was acknowledged: per field, the saved value with the highest version (versions only
    # go up), and per stepped field the number of taps answered 200.
    expected: dict[str, str] = {}
    best: dict[str, int] = {}
    taps: dict[str, int] = {}
    problems = []
    counts = {"saved": 0, "conflicts": 0, "steps": 0, "stale_refused": 0}
    for entry in logs:
        if entry["status"] not in (200, 409):
            problems.append(f"unexpected answer {entry}")
        if entry["step"]:
            if entry["status"] == 200:
                taps[entry["field"]] = taps.get(entry["field"], 0) + 1
                counts["steps"] += 1
            continue
        if entry["status"] == 200:
            counts["saved"] += 1
            if entry["version"] > best.get(entry["field"], -1):
                best[entry["field"]], expected[entry["field"]] = entry["version"], entry["value"]
            if entry["stored"] != entry["value"]:
                problems.append(f"a 200 that did not store what was sent: {entry}")
        else:
            counts["conflicts"] += 1
            if entry["stale"]:
                counts["stale_refused"] += 1
        if entry["stale"] and entry["status"] == 200:
            problems.append(f"a stale page's save was taken: {entry}")

    game = Game.objects.get(pk=game.pk)
    seats = {seat.number: seat for seat in Seat.objects.filter(game=game)}
    stored: dict[str, str] = {}
    for name in expected:
        seat_number, key = re.fullmatch(r"s(\d)-(.+)", name).groups()
        seat = seats[int(seat_number)]
        if key.startswith("t"):
            row = HibernationTokens.objects.filter(seat=seat, sector__position=int(key[1:])).first()
            stored[name] = str(row.count) if row else ""
        else:
            stored[name] = str(getattr(seat, key))
    for name, count in taps.items():
        seat_number, key = re.fullmatch(r"s(\d)-(.+)", name).groups()
        value = getattr(seats[int(seat_number)], key) or 0
        if value != count:
            problems.append(f"{name}: {count} taps acknowledged, {value} stored")
    mismatches = {name: [expected[name], stored[name]] for name in expected if expected[name] != stored[name]}
    revision = game.revision  # it moves with every save that wrote something (a save that wrote nothing rolls back)
    # Each real write makes a new version of its field; a save that found its value already
    # stored (no conflict, nothing written) answers with a version another save made.
    writes = len({(entry["field"], entry["version"]) for entry in logs if entry["status"] == 200})
    # Every write is recorded as a change, with its author: the owner's account or the edit link.
    changes = Change.objects.filter(game=game)
    authors = {
        "owner": changes.filter(by_user=owner, by_link=None).count(),
        "link": changes.filter(by_user=None, by_link=link).count(),
        "all": changes.count(),
    }
    print(
        json.dumps(
            {
                "mismatches": mismatches,
                "problems": problems,
                "counts": counts,
                "requests": len(logs),
                "revision": revision,
                "writes": writes,
                "authors": authors,
            }
        )
    )


if __name__ == "__main__":
    main()
