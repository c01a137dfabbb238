"""Hostile input, driven by hypothesis through the test client: every form and htmx endpoint gets
random and malicious values (huge, negative and non-ASCII numbers, control characters, markup in
names, missing and extra fields, duplicated keys, wrong methods, tampered or foreign ids and
links, forged CSRF). Never a 500: always an answer the pad understands (a 4xx in words, or the
page again); and a refused request leaves every stored row as it was.

Each fuzz test sends what its strategy draws the way a phone sends it, through one function
(``script_save``, ``pad_post``, ``start_post``, ``history_get``, ``tampered_addresses``,
``name_post``): a form's own fields, as its page shows them, typed into with valid and nasty
values, beside fields no page has. So the examples reach the code each test names, not only its
first refusal: the tests at the end find, among each strategy's own examples, one that the form
takes whole and that does what the request is for (a value saved, a game started with the players
and sectors posted, each filter applied, a name kept, each address the view's)."""

from __future__ import annotations

from datetime import date

import pytest
from django import forms
from django.contrib.auth.models import User
from django.test import Client
from django.urls import Resolver404, resolve, reverse
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from scoring.actors import SESSION_NAMES
from scoring.fields import WORKERS, field_name, tokens_key
from scoring.forms.games import HistoryFilterForm
from scoring.forms.pad import LinkHolderNameForm
from scoring.models import Change, Game, GameLink, HibernationTokens, Player, Seat
from scoring.rules.categories import CATEGORIES, FACTIONS, MAX_PLAYERS, During, categories_of
from scoring.services.sharing import link_renew
from scoring.web.limits import counters_clear
from tests.conftest import SECOND_DATABASE
from tests.support.factories import game_started
from tests.support.pages import form_data, loaded, page, typed

pytestmark = pytest.mark.django_db
# 40 examples a fuzz on the first database (SQLite, where scripts/test.sh runs every test; new
# ones at every run: hypothesis is not derandomized here). The second run (PostgreSQL:
# TEST_DATABASE_FACING_ONLY=1) asks whether its database answers as the first did: 20 examples a
# fuzz, and each fuzz's examples of what one database may take and another refuse (NUL in a text,
# a number past a column's range), given below as ``BEYOND``.
EXAMPLES = settings(
    max_examples=20 if SECOND_DATABASE else 40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
NUL, HUGE = "\x00", "9" * 20  # (PostgreSQL refuses NUL in a text; 20 digits are past a bigint)
# Finding an example that reaches the code: the same examples at every run, the first found.
SEARCH = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)
HTMX = {"HX-Request": "true"}

# Text a phone or a script could send: anything, and the shapes that break parsers most often.
# fmt: off
NASTY = st.one_of(
    st.text(max_size=60),
    st.sampled_from([
        "", " ", "-1", "-999999", "1e9", "99999999999999999999", "١٢", "１２", "½", "0x10", "3+", "+", "3++4",
        "3+-4", "NaN", "inf", "None", "null", "true", "\x00", "\u202e12", "<script>alert(1)</script>",
        "' OR 1=1 --", "%(name)s", "{{ 7*7 }}", "\r\n", "\t12", "1" * 5000, "é" * 300, "s1-farms",
    ]),
)
# fmt: on


def mostly(own: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """A field's own kind of value three times in four, else nasty text: examples then often
    get past every field of a form at once, to what the form is for."""
    return st.integers(0, 3).flatmap(lambda draw: NASTY if draw == 3 else own)


# ---------------------------------------------------------------------------------------------
# The pad's fields: those of the table's game (three players, a comb of two sectors, the
# breakdown), named as the pad names them (the first reach test checks they are its page's own),
# and names no game has.

TABLE_SEATS, TABLE_SECTORS = 3, 2
PAD_FIELDS = [
    field_name(seat, key)
    for seat in range(1, TABLE_SEATS + 1)
    for key in [*(c.key for c in categories_of(During.BREAKDOWN)), WORKERS, *map(tokens_key, range(TABLE_SECTORS))]
]
FIELD_NAMES = st.one_of(
    st.sampled_from(PAD_FIELDS),
    st.sampled_from(
        [f"s{n}-{category.key}" for n in (0, 1, 2, 6, 99) for category in CATEGORIES[:4]]
        + ["s1-t0", "s1-t9", "s1-t-1", "s1-active_workers", "s01-farms", "s1-", "", "s1-__class__"]
    ),
    st.text(max_size=30),
)
# What a phone types into a field: counts in and out of range, sums, a flag's values, and nasty text.
TYPED = st.one_of(st.integers(-3, 130).map(str), st.sampled_from(["3+4", "12 + 1", "2+", "", "1", "on"]), NASTY)
NUMBERS = st.one_of(st.integers(0, 3).map(str), NASTY)  # a value's version, or a page's save number: or not

SAVES = st.fixed_dictionaries(
    {
        "field": FIELD_NAMES,
        "value": TYPED,
        "version": NUMBERS,
        "page": st.sampled_from(["hostile", "other tab"]),
        "seq": st.one_of(st.integers(0, 2**31).map(str), NASTY),
    },
    optional={"step": st.one_of(st.integers(-25, 25).map(str), NASTY)},
)
PAD_POSTS = st.tuples(
    st.dictionaries(FIELD_NAMES, TYPED, max_size=8),  # fields typed into (those of no page too)
    st.dictionaries(st.text(max_size=12), NASTY, max_size=3),  # and fields the form has not
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
    that these tests probe (tests/web/test_limits.py holds the limits)."""
    settings.RATE_LIMITS = {}


@pytest.fixture
def table(owner):
    """The owner signed in on a phone, with a game of three and a comb of two sectors."""
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    game = game_started("Alice", "Bruno", "Carla", owner=owner, sectors=[(9, 3), (6, 0)])
    return client, game


def answered(response, before) -> bool:
    """Never a 500; a refused request changed no stored row (``before``: the rows before it).
    Says whether the request was refused (every row then still as ``before``)."""
    assert response.status_code < 500, (response.status_code, response.content[:300])
    if response.status_code >= 400:
        assert snapshot() == before, "a refused request changed stored data"
        return True
    return False


def script_save(client: Client, game: Game, sent: dict, htmx: bool = False):
    """One save as the pad's script sends it (``sent``: its field, value, version, page, seq, step)."""
    return client.post(reverse("scoring:save", args=[game.public_id]), sent, headers=HTMX if htmx else {})


@EXAMPLES
@given(sent=SAVES, htmx=st.booleans())
@example(sent={"field": "s1-farm_income", "value": NUL, "version": "0", "page": "hostile", "seq": HUGE}, htmx=False)
@example(sent={"field": "s2-t0", "value": HUGE, "version": HUGE, "page": NUL, "seq": "1", "step": HUGE}, htmx=True)
def test_a_save_never_fails_and_a_refused_one_changes_nothing(table, sent, htmx):
    client, game = table
    before = snapshot()
    response = script_save(client, game, sent, htmx)
    answered(response, before)
    if htmx and response.status_code >= 400:
        assert response.content  # the pad shows the answer's words


def pad_post(client: Client, game: Game, values: dict[str, str], extra: dict[str, str]):
    """The pad's form posted without JavaScript as the phone loaded it (the values it showed, in
    its hidden ``initial-*`` fields, included), ``values`` typed into it, and ``extra`` fields beside."""
    return client.post(reverse("scoring:pad", args=[game.public_id]), {**extra, **typed(loaded(client, game), values)})


@EXAMPLES
@given(posted=PAD_POSTS)
@example(posted=({"s2-farm_income": "\t12", "s1-active_workers": "Z"}, {}))  # one saved, one refused: 422
@example(posted=({"s1-farm_income": NUL, "s2-farms": HUGE, "s3-t1": HUGE}, {NUL: NUL}))
def test_the_pad_posted_without_javascript_never_fails(table, posted):
    """A plain post saves every field it changed that holds a valid value and shows the others
    with their messages (422): only fields typed into change. Any other refusal changes nothing."""
    client, game = table
    values, extra = posted
    before, entries = snapshot(), entries_of(game)
    response = pad_post(client, game, values, extra)
    after = entries_of(game)
    changed = {name for name in entries.keys() | after.keys() if entries.get(name) != after.get(name)}
    assert changed <= set(values), (changed, values)
    if response.status_code == 422:
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


# ---------------------------------------------------------------------------------------------
# The start form: its players' and sectors' rows (the forms of its two formsets), its date, notes
# and the count of player rows its management form says were posted.

VP = mostly(st.integers(0, 99).map(str))  # (out of range: NASTY's "-1", "1e9", ...)
STARTS = st.fixed_dictionaries(
    {
        "names": st.lists(
            mostly(st.sampled_from(["Alice", "Bruno", "alice", " Carla ", "Dee", "Émile"])), max_size=MAX_PLAYERS
        ),
        "factions": st.lists(mostly(st.sampled_from(["", *FACTIONS])), max_size=MAX_PLAYERS),
        "sectors": st.lists(st.tuples(VP, VP), max_size=4),
        "played_on": mostly(st.dates(date(1990, 1, 1), date(2100, 12, 31)).map(date.isoformat)),
        "notes": mostly(st.text(max_size=30)),
        "total": st.one_of(st.none(), NASTY),  # None: the page's own count
    }
)


def start_post(client: Client, start: dict):
    """The start form as its page shows it, filled in with ``start``: player rows (name, faction),
    sector rows (1st and 2nd place VP), the date and the notes, each posted under the name the
    page's own field has (a name the page has not is an error of the test, not an example)."""
    data = form_data(page(client.get(reverse("scoring:start"))).one("form", action=reverse("scoring:start")))
    filled = {"played_on": start["played_on"], "notes": start["notes"]}
    for number, name in enumerate(start["names"]):
        filled[f"player-{number}-name"] = name
    for number, faction in enumerate(start["factions"]):
        filled[f"player-{number}-faction"] = faction
    for number, (first, second) in enumerate(start["sectors"]):
        filled[f"sector-{number}-first"], filled[f"sector-{number}-second"] = first, second
    if start["total"] is not None:
        filled["player-TOTAL_FORMS"] = start["total"]
    assert set(filled) <= set(data), f"not fields of the start page's form: {sorted(set(filled) - set(data))}"
    data.update({key: [value] for key, value in filled.items()})
    counters_clear()  # every example gets to the form (starting games is rate limited: tests/web/test_limits.py)
    return client.post(reverse("scoring:start"), data), data


@EXAMPLES
@given(start=STARTS)
@example(
    start={
        "names": [NUL, "Ann"],
        "factions": [NUL],
        "sectors": [(HUGE, NUL)],
        "played_on": NUL,
        "notes": NUL,
        "total": HUGE,
    }
)
def test_the_start_form_never_fails(table, start):
    client, _game = table
    before = snapshot()
    response, _posted = start_post(client, start)
    answered(response, before)
    if response.status_code == 302:
        assert Game.objects.count() == len(before[0]) + 1


# ---------------------------------------------------------------------------------------------
# The history's filters: each of the filter form's fields, given one of its own values or nasty text.


def _filter_values(field: forms.Field) -> st.SearchStrategy[str]:
    """A filter's own values (a date, one of its choices, a name), or nasty text."""
    if isinstance(field, forms.DateField):
        own = st.dates(date(1990, 1, 1), date(2100, 12, 31)).map(date.isoformat)
    elif isinstance(field, forms.ChoiceField):
        own = st.sampled_from([str(value) for value, _label in field.choices])
    else:
        own = st.sampled_from(["Alice", "ali", "Zed"])
    return mostly(own)


HISTORY_QUERIES = st.fixed_dictionaries(
    {},
    optional={
        **{name: _filter_values(field) for name, field in HistoryFilterForm.base_fields.items()},
        "page": st.one_of(st.integers(-1, 3).map(str), NASTY),
        "other": NASTY,
    },
)


def history_get(client: Client, query: dict):
    return client.get(reverse("scoring:history"), query)


@EXAMPLES
@given(query=HISTORY_QUERIES)
@example(query={"player": NUL, "page": HUGE, "other": NUL})
def test_the_history_filters_never_fail(table, query):
    client, _game = table
    response = history_get(client, query)
    assert response.status_code == 200


# ---------------------------------------------------------------------------------------------
# Tampered and foreign addresses

TAMPERED = st.fixed_dictionaries(
    {
        "public_id": st.one_of(st.from_regex(r"[A-Za-z0-9_-]{22}", fullmatch=True), NASTY),
        "change_id": st.integers(-10, 10**12),
        "token": st.one_of(st.from_regex(r"[A-Za-z0-9_-]{22}", fullmatch=True), NASTY),
        "kind": st.one_of(st.sampled_from(GameLink.Access.values), NASTY),
        "action": st.one_of(st.sampled_from(["new", "revoke"]), NASTY),
    }
)


def tampered_addresses(game: Game, theirs: Game, tampered: dict) -> list[tuple[str, str, str]]:
    """Each address sent, its method, and the view it names (a view of the pad's own urls)."""
    own, foreign = game.public_id, theirs.public_id
    return [
        (f"/games/{tampered['public_id']}/save/", "post", "save"),
        (f"/games/{foreign}/save/", "post", "save"),
        (f"/games/{foreign}/finish/", "post", "finish"),
        (f"/games/{foreign}/delete/", "post", "delete"),
        (f"/games/{own}/changes/{tampered['change_id']}/undo/", "post", "undo"),
        (f"/games/{own}/links/{tampered['kind']}/{tampered['action']}/", "post", "link"),
        (f"/join/{tampered['token']}/", "get", "join"),
        (f"/games/{foreign}/", "get", "pad"),
        (f"/games/{foreign}/export/", "get", "export"),
    ]


@pytest.fixture
def theirs(db) -> Game:
    """A game of another account's, that the owner's phone must not reach."""
    return game_started("Zed", owner=User.objects.create_user("stranger"))


@EXAMPLES
@given(tampered=TAMPERED)
@example(tampered={"public_id": NUL, "change_id": int(HUGE), "token": NUL, "kind": NUL, "action": NUL})
def test_tampered_and_foreign_addresses_are_refused(table, theirs, tampered):
    client, game = table
    before = snapshot()
    for address, method, _view in tampered_addresses(game, theirs, tampered):
        # (a new link of the owner's own game, made or revoked, is no refusal)
        response = getattr(client, method)(address, {"field": "s1-farms", "value": "3"}, headers=HTMX)
        if not answered(response, before):
            before = snapshot()
        if theirs.public_id in address:
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
    """One value of each key is read (Django's: the last), so one field is saved, with one value."""
    client, game = table
    response = client.post(
        reverse("scoring:save", args=[game.public_id]),
        "field=s1-farms&field=s2-farms&value=3&value=4&version=0&version=0&page=p&seq=1",
        content_type="application/x-www-form-urlencoded",
        headers=HTMX,
    )
    assert response.status_code == 200
    assert (entries_of(game)["s1-farms"], entries_of(game)["s2-farms"]) == (None, 4)


@pytest.mark.parametrize("name", ["save", "finish", "delete"])
def test_a_forged_csrf_token_is_refused(owner, name):
    game = game_started("Alice", "Bruno", owner=owner)
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    before = snapshot()
    response = client.post(
        reverse(f"scoring:{name}", args=[game.public_id]),
        {"field": "s1-farms", "value": "3", "csrfmiddlewaretoken": "forged" * 10},
        headers={**HTMX, "X-CSRFToken": "forged"},
    )
    assert response.status_code == 403
    assert snapshot() == before


# ---------------------------------------------------------------------------------------------
# A link holder's name


def link_holder(owner) -> tuple[Client, Game, GameLink]:
    """A phone that opened a game's edit link (no account)."""
    game = game_started("Alice", owner=owner)
    link = link_renew(game=game, access="edit")
    client = Client(raise_request_exception=False)
    assert client.get(reverse("scoring:join", args=[link.token])).status_code == 302
    return client, game, link


def name_post(client: Client, game: Game, name: str):
    return client.post(reverse("scoring:name", args=[game.public_id]), {"name": name})


@EXAMPLES
@given(name=NASTY)
@example(name=NUL)
@example(name=f"Ann{NUL}")
def test_a_link_holders_name_never_fails(owner, name):
    client, game, _link = link_holder(owner)
    before = snapshot()
    response = name_post(client, game, name)
    answered(response, before)


# ---------------------------------------------------------------------------------------------
# The fuzz tests reach what they name


def test_the_pad_fields_the_fuzz_types_into_are_the_pads_own(table):
    client, game = table
    form = page(client.get(reverse("scoring:pad", args=[game.public_id]))).by_id("pad")
    shown = {
        element["name"]
        for element in form.iter()
        if element.tag in ("input", "select", "textarea")
        and element.get("type") not in ("hidden", "submit")
        and element.get("name")
    }
    assert shown == set(PAD_FIELDS)


def reached(strategy, does) -> object:
    """The first of the strategy's examples (the same at every run) that ``does`` what its
    request is for; fails when none of its first SEARCH.max_examples does. (Not hypothesis's
    ``find``: it runs the example found again, and a value saved once is not saved again.)"""
    found = []

    @SEARCH
    @given(strategy)
    def search(drawn):
        if not found and does(drawn):
            found.append(drawn)

    search()
    assert found, f"none of {SEARCH.max_examples} examples does it"
    return found[0]


def test_the_script_save_fuzz_saves_values(table):
    client, game = table

    def saves(sent):
        entries = entries_of(game)
        return script_save(client, game, sent).status_code == 200 and entries_of(game) != entries

    sent = reached(SAVES, saves)
    assert sent["field"] in PAD_FIELDS


def test_the_pad_post_fuzz_saves_values_typed_into_the_form(table):
    client, game = table

    def saves(posted):
        entries = entries_of(game)
        response = pad_post(client, game, *posted)
        return response.status_code == 302 and entries_of(game) != entries

    values, _extra = reached(PAD_POSTS, saves)
    assert set(values) & set(PAD_FIELDS)


def test_the_start_fuzz_starts_games_with_the_players_and_sectors_posted(table):
    client, _game = table

    def starts_as_posted(start):
        response, posted = start_post(client, start)
        if response.status_code != 302:
            return False
        game = Game.objects.order_by("-pk").first()
        names = [name.strip() for number in range(MAX_PLAYERS) if (name := posted[f"player-{number}-name"][0]).strip()]
        firsts = [
            value
            for name, (value,) in posted.items()
            if name.startswith("sector-") and name.endswith("-first") and value.strip()
        ]
        seats = [seat.name for seat in game.seats.order_by("number")]
        return seats == names and game.sectors.count() == len(firsts) and names and firsts

    start = reached(STARTS, starts_as_posted)
    assert start["names"] and start["sectors"]


@pytest.mark.parametrize("name", list(HistoryFilterForm.base_fields))
def test_the_history_fuzz_applies_each_filter(table, name):
    client, _game = table

    def filters_by_it(query):
        response = history_get(client, query)
        return getattr(response.context["filters"], name) not in (None, "")

    assert name in reached(HISTORY_QUERIES, filters_by_it)


def test_the_tampered_addresses_are_the_views_own(table, theirs):
    """Each address the fuzz sends is one of the pad's views (refused by it, not by a missing url)."""
    _client, game = table

    def views_own(tampered):
        try:
            return all(
                resolve(address).url_name == view
                for address, _method, view in tampered_addresses(game, theirs, tampered)
            )
        except Resolver404:
            return False

    reached(TAMPERED, views_own)


def test_the_link_holder_name_fuzz_keeps_names(owner):
    client, game, link = link_holder(owner)

    def kept(name):
        name_post(client, game, name)
        form = LinkHolderNameForm({"name": name})
        return form.is_valid() and client.session.get(SESSION_NAMES, {}).get(str(link.pk)) == form.cleaned_data["name"]

    reached(NASTY, kept)
