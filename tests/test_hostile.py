"""Hostile input, driven by hypothesis through the test client: every form and htmx endpoint gets
random and malicious values (huge, negative and non-ASCII numbers, control characters, markup in
names, missing and extra fields, duplicated keys, wrong methods, tampered or foreign ids and
links, forged CSRF). Never a 500: always an answer the pad understands (a 4xx in words, or the
page again); and a refused request leaves every stored row as it was."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scoring import services
from scoring.categories import CATEGORIES
from scoring.limits import counters_clear
from scoring.models import Change, Game, GameLink, HibernationTokens, Player, Seat
from tests.factories import game_started

pytestmark = pytest.mark.django_db
EXAMPLES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
HTMX = {"HX-Request": "true"}

# Text a phone or a script could send: anything, and the shapes that break parsers most often.
NASTY = st.one_of(
    st.text(max_size=60),
    st.sampled_from([
        "", " ", "-1", "-999999", "1e9", "99999999999999999999", "١٢", "１２", "½", "0x10", "3+", "+", "3++4",
        "3+-4", "NaN", "inf", "None", "null", "true", "\x00", "\u202e12", "<script>alert(1)</script>",
        "' OR 1=1 --", "%(name)s", "{{ 7*7 }}", "\r\n", "\t12", "1" * 5000, "é" * 300, "s1-farms",
    ]),
)
FIELD_NAMES = st.one_of(
    st.sampled_from([f"s{n}-{category.key}" for n in (0, 1, 2, 6, 99) for category in CATEGORIES[:4]]
                    + ["s1-t0", "s1-t9", "s1-t-1", "s1-active_workers", "s01-farms", "s1-", "", "s1-__class__"]),
    st.text(max_size=30),
)


def snapshot() -> tuple:
    """Every row a request could change."""
    return (
        list(Game.objects.order_by("pk").values()),
        list(Seat.objects.order_by("pk").values()),
        list(HibernationTokens.objects.order_by("pk").values()),
        list(Change.objects.order_by("pk").values_list("pk", "field", "new")),
        list(GameLink.objects.order_by("pk").values()),
        list(Player.objects.order_by("pk").values()),
        list(User.objects.order_by("pk").values_list("pk", "username", "password")),
    )


@pytest.fixture(autouse=True)
def _no_rate_limits(settings):
    """Hundreds of requests of one phone a minute: the limits would answer 429 before the code
    that these tests probe (tests/test_limits.py holds the limits)."""
    settings.RATE_LIMITS = {}


@pytest.fixture
def table(owner):
    """The owner signed in on a phone, with a game of three and a comb of two sectors."""
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    game = game_started("Alice", "Bruno", "Carla", owner=owner, sectors=[(9, 3), (6, 0)])
    return client, game


def answered(response, before) -> None:
    assert response.status_code < 500, (response.status_code, response.content[:300])
    if response.status_code >= 400:
        assert snapshot() == before, "a refused request changed stored data"


@EXAMPLES
@given(name=FIELD_NAMES, value=NASTY, version=NASTY, seq=NASTY, step=st.one_of(st.none(), NASTY), htmx=st.booleans())
def test_a_save_never_fails_and_a_refused_one_changes_nothing(table, name, value, version, seq, step, htmx):
    client, game = table
    data = {"field": name, "value": value, "version": version, "page": "hostile", "seq": seq}
    if step is not None:
        data["step"] = step
    before = snapshot()
    response = client.post(reverse("scoring:save", args=[game.public_id]), data, headers=HTMX if htmx else {})
    answered(response, before)
    if htmx and response.status_code >= 400:
        assert response.content  # the pad shows the answer's words


@EXAMPLES
@given(values=st.dictionaries(FIELD_NAMES, NASTY, max_size=8), extra=st.dictionaries(st.text(max_size=12), NASTY,
                                                                                        max_size=3))
@example(values={"s2-farm_income": "\t12", "s1-active_workers": "Z"}, extra={})  # one saved, one refused: 422
def test_the_pad_posted_without_javascript_never_fails(table, values, extra):
    """A plain post saves every field it changed that holds a valid value and shows the others
    with their messages (422): then only posted fields changed. Any other refusal changes nothing."""
    client, game = table
    before = snapshot()
    entries = entries_of(game)
    response = client.post(reverse("scoring:pad", args=[game.public_id]), {**values, **extra})
    if response.status_code == 422:
        after = entries_of(game)
        changed = {name for name in entries.keys() | after.keys() if entries.get(name) != after.get(name)}
        assert changed <= set(values), (changed, values)
        assert "field-error" in response.content.decode()
    else:
        answered(response, before)


def entries_of(game) -> dict[str, object]:
    """Every pad field's stored value by its name (s1-farms, s2-active_workers, s1-t0)."""
    found = {}
    for seat in Seat.objects.filter(game=game):
        for category in CATEGORIES:
            found[f"s{seat.number}-{category.key}"] = getattr(seat, category.key)
        found[f"s{seat.number}-active_workers"] = seat.active_workers
    for tokens in HibernationTokens.objects.filter(seat__game=game).select_related("seat", "sector"):
        found[f"s{tokens.seat.number}-t{tokens.sector.position}"] = tokens.count
    return found


@EXAMPLES
@given(names=st.lists(NASTY, min_size=0, max_size=7), factions=st.lists(NASTY, max_size=7), played_on=NASTY,
       sector=NASTY, notes=NASTY, total=NASTY)
def test_the_start_form_never_fails(table, names, factions, played_on, sector, notes, total):
    client, _game = table
    data = {"played_on": played_on, "notes": notes, "players-TOTAL_FORMS": total, "players-INITIAL_FORMS": "0",
            "sectors-TOTAL_FORMS": "1", "sectors-INITIAL_FORMS": "0", "sectors-0-first_vp": sector,
            "sectors-0-second_vp": "0"}
    for number, name in enumerate(names):
        data[f"players-{number}-name"] = name
        if number < len(factions):
            data[f"players-{number}-faction"] = factions[number]
    counters_clear()  # every example gets to the form (starting games is rate limited: tests/test_limits.py)
    before = snapshot()
    response = client.post(reverse("scoring:start"), data)
    answered(response, before)


@EXAMPLES
@given(query=st.dictionaries(st.sampled_from(["player", "since", "until", "players", "faction", "status", "page",
                                              "other"]), NASTY, max_size=6))
def test_the_history_filters_never_fail(table, query):
    client, _game = table
    response = client.get(reverse("scoring:history"), query)
    assert response.status_code == 200


@EXAMPLES
@given(public_id=NASTY, change_id=st.integers(-10, 10**12), token=NASTY, kind=NASTY, action=NASTY)
def test_tampered_and_foreign_addresses_are_refused(table, public_id, change_id, token, kind, action):
    client, game = table
    theirs = game_started("Zed", owner=User.objects.get_or_create(username="stranger")[0])
    before = snapshot()
    for address, method in [
        (f"/games/{public_id}/save/", "post"), (f"/games/{theirs.public_id}/save/", "post"),
        (f"/games/{theirs.public_id}/finish/", "post"), (f"/games/{theirs.public_id}/delete/", "post"),
        (f"/games/{game.public_id}/changes/{change_id}/undo/", "post"),
        (f"/games/{game.public_id}/links/{kind}/{action}/", "post"), (f"/join/{token}/", "get"),
        (f"/games/{theirs.public_id}/", "get"), (f"/games/{theirs.public_id}/export/", "get"),
    ]:
        response = getattr(client, method)(address, {"field": "s1-farms", "value": "3"}, headers=HTMX)
        answered(response, before)
        if "theirs" in address or theirs.public_id in address:
            assert response.status_code == 404


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
@pytest.mark.parametrize("name", ["save", "pad", "finish", "delete", "live", "results"])
def test_wrong_methods_are_refused(table, method, name):
    client, game = table
    before = snapshot()
    response = getattr(client, method)(reverse(f"scoring:{name}", args=[game.public_id]))
    assert response.status_code == 405
    assert snapshot() == before


def test_duplicated_keys_count_once(table):
    client, game = table
    before = snapshot()
    response = client.post(reverse("scoring:save", args=[game.public_id]),
                           "field=s1-farms&field=s2-farms&value=3&value=999999&page=p&seq=1",
                           content_type="application/x-www-form-urlencoded", headers=HTMX)
    assert response.status_code in (200, 422)
    if response.status_code == 422:
        assert snapshot() == before
    assert not Seat.objects.filter(game=game, number=2, farms__isnull=False).exists()  # the second key is ignored


@pytest.mark.parametrize("name", ["save", "finish", "delete"])
def test_a_forged_csrf_token_is_refused(owner, name):
    game = game_started("Alice", "Bruno", owner=owner)
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    before = snapshot()
    response = client.post(reverse(f"scoring:{name}", args=[game.public_id]),
                           {"field": "s1-farms", "value": "3", "csrfmiddlewaretoken": "forged" * 10},
                           headers={**HTMX, "X-CSRFToken": "forged"})
    assert response.status_code == 403
    assert snapshot() == before


@EXAMPLES
@given(name=NASTY)
def test_a_link_holders_name_never_fails(owner, name):
    game = game_started("Alice", owner=owner)
    link = services.link_renew(game=game, access="edit")
    client = Client(raise_request_exception=False)
    assert client.get(reverse("scoring:join", args=[link.token])).status_code == 302
    before = snapshot()
    response = client.post(reverse("scoring:name", args=[game.public_id]), {"name": name})
    answered(response, before)
