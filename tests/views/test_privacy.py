"""The privacy sweep (issue 18, item 2): an account sees nothing of another account's, anywhere.

Two accounts each hold games (one in progress, one finished and imported with a faction of its
own), players (one merged into another, so an alias), a saved comb layout, notes, share links,
and changes by the owner and by a link's holder. Every text of an account carries its *tag*, a
word found nowhere else; its game addresses and link tokens are random. Then every page, partial
(htmx), download, suggestion list and form that B can reach, and every address of A's that B
might try, is asked for as B, and no answer holds A's tag, address or token, nor A's login.

So that the sweep cannot pass on empty pages, each of B's own texts is looked for where it
belongs.

A visitor (a browser scoring without an account, issue 19) holds the same (but players across
games and a login, which only an account has): the sweep runs with a visitor on either side, and
between two visitors. A visitor's id (what names its browser, in its session) is among its
secrets: no page ever shows it, not even to that browser. Who may reach a game, request by
request, is ``tests/test_permissions.py``; here, what the answers say.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scoring.actors import SESSION_VISITOR, Actor
from scoring.gamefile import GameData, PlayerData
from scoring.models import Change, CombLayout, Game, GameLink, Player
from scoring.rules.engine import Sector
from scoring.services.games import PlayerSetup, comb_layout_save, game_create
from scoring.services.imports import game_store
from scoring.services.people import players_merge
from scoring.services.sharing import link_renew
from tests.support.factories import PASSWORD, save_value, seat_of
from tests.support.pages import HTMX, started_on, url

pytestmark = pytest.mark.django_db

A_TAG, B_TAG = "Zanzibarian", "Quillworted"  # nowhere in the site's own words, nor in each other


@dataclass
class Holdings:
    """One account and everything it holds, each text carrying ``tag``."""

    tag: str
    user: User
    in_progress: Game
    finished: Game
    layout: CombLayout
    links: list[GameLink]

    @property
    def texts(self) -> dict[str, str]:
        """What the account's texts are, by what they are."""
        tag = self.tag
        return {
            "login": self.user.username,
            "display name": f"{tag} Shown",
            "player": f"{tag} Player",
            "second player": f"{tag} Second",
            "alias": f"{tag} Alias",
            "layout": f"{tag} Layout",
            "notes": f"{tag} Notes",
            "finished notes": f"{tag} Finished",
            "faction": f"{tag} Faction",
            "link holder": f"{tag} Holder",
        }

    @property
    def secrets(self) -> list[str]:
        """What carries no tag but is the account's alone: its games' addresses, its links' tokens."""
        return [self.in_progress.public_id, self.finished.public_id, *(link.token for link in self.links)]

    def players(self) -> list[Player]:
        return list(Player.objects.filter(owner=self.user))


def holdings(tag: str) -> Holdings:
    """An account holding one of everything, every text carrying ``tag``."""
    user = User.objects.create_user(f"{tag.lower()}-login", password=PASSWORD, first_name=f"{tag} Shown")
    comb = [(9, 4), (6, 0)]
    layout = comb_layout_save(name=f"{tag} Layout", sectors=comb, owner=user)
    in_progress = game_create(
        players=[PlayerSetup(f"{tag} Player"), PlayerSetup(f"{tag} Second")],
        sectors=comb,
        notes=f"{tag} Notes",
        played_on=date(2026, 3, 1),
        owner=user,
    )
    finished = game_store(
        GameData(
            players=[
                PlayerData(
                    name=f"{tag} Player",
                    seat=1,
                    faction=f"{tag} Faction",
                    entries={"farm_income": 12},
                    hibernation=[1, 0],
                ),
                PlayerData(name=f"{tag} Alias", seat=2, entries={"recruits": 3}, hibernation=[0, 1]),
            ],
            comb=[Sector(first, second) for first, second in comb],
            played_on=date(2026, 2, 1),
            notes=f"{tag} Finished",
        ),
        finished=True,
        owner=user,
    )
    second, alias = (Player.objects.get(owner=user, name=f"{tag} {name}") for name in ("Second", "Alias"))
    players_merge(keep=second, merged=alias)
    edit = link_renew(game=in_progress, access="edit")
    view = link_renew(game=in_progress, access="view")
    save_value(seat=seat_of(in_progress, 1), key="farms", value=4, by=Actor(user=user))
    save_value(seat=seat_of(in_progress, 2), key="farms", value=2, by=Actor(link=edit, name=f"{tag} Holder"))
    return Holdings(tag, user, in_progress, finished, layout, [edit, view])


@dataclass
class VisitorHoldings:
    """A visitor's browser and everything it holds (as an account's ``Holdings``, without players
    across games, aliases or a login), each text carrying ``tag``."""

    tag: str
    phone: Client
    in_progress: Game
    finished: Game
    layout: CombLayout
    links: list[GameLink]

    @property
    def texts(self) -> dict[str, str]:
        tag = self.tag
        return {
            "player": f"{tag} Player",
            "second player": f"{tag} Second",
            "layout": f"{tag} Layout",
            "notes": f"{tag} Notes",
            "finished notes": f"{tag} Finished",
            "faction": f"{tag} Faction",
            "link holder": f"{tag} Holder",
        }

    @property
    def visitor(self) -> str:
        return self.in_progress.visitor

    @property
    def secrets(self) -> list[str]:
        return [self.visitor, self.in_progress.public_id, self.finished.public_id, *(link.token for link in self.links)]

    def players(self) -> list[Player]:
        return []


def visitor_holdings(tag: str) -> VisitorHoldings:
    """A browser that started a game from the start form (saving its comb), then holds one of
    everything, every text carrying ``tag``."""
    phone = Client()
    comb = ((9, 4), (6, 0))
    in_progress = started_on(
        phone,
        f"{tag} Player",
        f"{tag} Second",
        sectors=comb,
        layout_name=f"{tag} Layout",
        notes=f"{tag} Notes",
        played_on="2026-03-01",
    )
    visitor = phone.session[SESSION_VISITOR]
    finished = game_store(
        GameData(
            players=[
                PlayerData(
                    name=f"{tag} Player",
                    seat=1,
                    faction=f"{tag} Faction",
                    entries={"farm_income": 12},
                    hibernation=[1, 0],
                ),
                PlayerData(name=f"{tag} Second", seat=2, entries={"recruits": 3}, hibernation=[0, 1]),
            ],
            comb=[Sector(first, second) for first, second in comb],
            played_on=date(2026, 2, 1),
            notes=f"{tag} Finished",
        ),
        finished=True,
        visitor=visitor,
    )
    edit = link_renew(game=in_progress, access="edit")
    view = link_renew(game=in_progress, access="view")
    save_value(seat=seat_of(in_progress, 1), key="farms", value=4, by=Actor())
    save_value(seat=seat_of(in_progress, 2), key="farms", value=2, by=Actor(link=edit, name=f"{tag} Holder"))
    return VisitorHoldings(tag, phone, in_progress, finished, CombLayout.objects.get(visitor=visitor), [edit, view])


V_TAG, W_TAG = "Plumbaginous", "Sesquipedal"  # two visitors' tags, nowhere else either


@pytest.fixture
def v() -> VisitorHoldings:
    return visitor_holdings(V_TAG)


@pytest.fixture
def w() -> VisitorHoldings:
    return visitor_holdings(W_TAG)


@pytest.fixture
def a() -> Holdings:
    return holdings(A_TAG)


@pytest.fixture
def b() -> Holdings:
    return holdings(B_TAG)


@pytest.fixture
def b_phone(b) -> Client:
    phone = Client()
    phone.force_login(b.user)
    return phone


def game_url(name: str, game: Game, *args) -> str:
    return reverse(f"scoring:{name}", args=[game.public_id, *args])


def everything_b_reaches(phone: Client, b: Holdings, a: Holdings) -> Iterator[tuple[str, object]]:
    """Every answer B's phone gets, by what was asked: B's own pages, partials, downloads and
    forms, then A's addresses tried."""
    get, post = phone.get, phone.post
    yield "history", get(url("history"))
    for query in (
        "?player=" + B_TAG,
        "?player=Player",
        "?status=finished",
        "?status=in-progress",
        "?players=2",
        "?since=2026-01-01&until=2026-12-31",
        "?page=2",
    ):
        yield f"history{query}", get(url("history") + query)
    yield "players", get(url("players"))
    for player in b.players():
        yield f"player {player.name}", get(reverse("scoring:player", args=[player.pk]))
    yield "statistics", get(url("statistics"))
    yield "start", get(url("start"))
    yield "start, B's layout (htmx)", get(url("start") + f"?layout={b.layout.pk}", headers=HTMX)
    yield "start, B's layout (no JavaScript)", post(url("start"), {"layout": b.layout.pk, "use_layout": "1"})
    yield "start, refused", post(url("start"), {"player-TOTAL_FORMS": "5", "player-INITIAL_FORMS": "0"})
    for game in (b.in_progress, b.finished):
        for name in ("pad", "results", "delete", "export"):
            yield f"{name} of B's {game}", get(game_url(name, game))
        yield f"pad of B's {game} (htmx)", get(game_url("pad", game), headers=HTMX)
        yield f"pad of B's {game}, shared", get(game_url("pad", game) + "?shared=1")
        yield f"live of B's {game}", get(game_url("live", game) + "?changes=1", headers=HTMX)
    game = b.in_progress
    yield (
        "save (htmx)",
        post(
            game_url("save", game),
            {"field": "s1-recruits", "value": "5", "page": "b", "seq": "1", "changes": "1"},
            headers=HTMX,
        ),
    )
    latest = Change.objects.filter(game=game).order_by("-at", "-id").first()
    yield "undo (htmx)", post(game_url("undo", game, latest.pk), headers=HTMX)
    yield "finish, asked to confirm", post(game_url("finish", game))
    yield "Your data", get(url("data"))
    exported = get(url("export_json"))
    yield "export.json", exported
    yield "export.csv", get(url("export_csv"))
    upload = SimpleUploadedFile("b.json", exported.content, content_type="application/json")
    yield "import, uploaded", post(url("import"), {"file": upload}, follow=True)
    yield "import, cancelled", post(url("import_confirm"), {"cancel": "1"}, follow=True)
    yield "Your name", get(reverse("account_name"))
    # A's addresses, tried by B: "not found", as for no game at all, and A's words nowhere.
    for game in (a.in_progress, a.finished):
        for name in ("pad", "results", "delete", "export"):
            yield f"{name} of A's game", get(game_url(name, game))
        yield "live of A's game", get(game_url("live", game) + "?changes=1", headers=HTMX)
        yield "save on A's game", post(game_url("save", game), {"field": "s1-farms", "value": "1"}, headers=HTMX)
    for player in a.players():
        yield "A's player page", get(reverse("scoring:player", args=[player.pk]))
    if a.players() and b.players():
        yield (
            "B's player merged with A's",
            post(reverse("scoring:player_merge", args=[b.players()[0].pk]), {"same_as": a.players()[0].pk}),
        )
    yield "start, A's layout (htmx)", get(url("start") + f"?layout={a.layout.pk}", headers=HTMX)
    yield "start, A's layout (no JavaScript)", post(url("start"), {"layout": a.layout.pk, "use_layout": "1"})


def leaks(response, a: Holdings, *, allowed: tuple[str, ...] = ()) -> list[str]:
    """What of A's the answer holds, besides the address B asked for itself (which a page keeps,
    to come back to after switching languages) and what is ``allowed``."""
    text = response.content.decode("utf-8-sig")
    for shown in (response.wsgi_request.get_full_path(), *allowed):
        text = text.replace(shown, "")
    text = text.casefold()
    found = [what for what, words in a.texts.items() if words.casefold() in text]
    if a.tag.casefold() in text:
        found.append("the tag")
    return found + [secret for secret in a.secrets if secret.casefold() in text]


def test_b_sees_nothing_of_as_games_players_aliases_layouts_notes_factions_links_or_names(a, b, b_phone):
    answers = dict(everything_b_reaches(b_phone, b, a))

    assert {label: leaks(response, a) for label, response in answers.items() if leaks(response, a)} == {}
    assert {label: answer.status_code for label, answer in answers.items() if answer.status_code >= 500} == {}
    tried = [label for label in answers if "A's game" in label or label == "A's player page"]
    assert {label: answers[label].status_code for label in tried} == {
        label: 286 if label == "live of A's game" else 404 for label in tried
    }  # (the poll told to stop: htmx's 286)


def test_the_sweep_finds_bs_own_things_where_they_belong(a, b, b_phone):
    """The sweep looks at full pages: B's own texts are there (so A's would be seen if they were)."""
    answers = dict(everything_b_reaches(b_phone, b, a))
    texts = b.texts
    shown = {label: response.content.decode("utf-8-sig") for label, response in answers.items()}
    where = {
        "history": ["player", "second player", "alias"],
        f"history?player={B_TAG}": ["player"],
        "players": ["player", "second player"],
        f"player {texts['second player']}": ["alias"],
        "statistics": ["faction"],
        "start": ["layout", "player", "second player"],
        "start, B's layout (htmx)": ["layout"],
        f"pad of B's {b.in_progress}, shared": ["player", "display name", "link holder"],
        f"live of B's {b.in_progress}": ["display name", "link holder"],
        f"results of B's {b.finished}": ["faction", "alias"],
        "export.json": ["display name", "link holder", "notes", "finished notes", "faction"],
        "export.csv": ["player", "alias", "faction"],
        "import, uploaded": ["player"],
        "Your name": ["display name"],
    }
    missing = {label: [what for what in whats if texts[what] not in shown[label]] for label, whats in where.items()}
    assert {label: whats for label, whats in missing.items() if whats} == {}
    assert all(link.token in shown[f"pad of B's {b.in_progress}, shared"] for link in b.links)
    assert f"<bdi>{texts['link holder']}</bdi> (edit link)" in shown[f"pad of B's {b.in_progress}, shared"]
    # B's login nowhere: B's own menu shows B's name (issue 49), as every other page does
    assert b.user.username not in shown[f"pad of B's {b.in_progress}, shared"]


def test_a_game_b_joined_shows_b_that_game_alone_and_never_as_login(a, b, b_phone):
    """Through A's view link, B sees that game (its players, and A by the name A gave): nothing
    else of A's, and never A's login."""
    tablemates = [PlayerSetup("Tablemate One"), PlayerSetup("Tablemate Two")]
    shared = game_create(players=tablemates, sectors=[(9, 4)], owner=a.user)
    save_value(seat=seat_of(shared, 1), key="farms", value=4, by=Actor(user=a.user))
    link = link_renew(game=shared, access="view")
    assert b_phone.post(reverse("scoring:join", args=[link.token])).status_code == 302

    answers = dict(everything_b_reaches(b_phone, b, a))
    answers["pad of the joined game"] = b_phone.get(game_url("pad", shared))
    answers["export of the joined game"] = b_phone.get(game_url("export", shared))
    answers["live of the joined game"] = b_phone.get(game_url("live", shared) + "?changes=1", headers=HTMX)

    for label, response in answers.items():
        if "joined game" in label:  # A's change there carries the name A gave: that alone of A's
            assert "Tablemate One" in response.content.decode(), label
            assert leaks(response, a, allowed=(a.texts["display name"],)) == [], label
        else:
            assert leaks(response, a) == [], label
    assert "Tablemate One" in answers["history"].content.decode()
    assert a.texts["display name"] in answers["pad of the joined game"].content.decode()


# ---------------------------------------------------------------------------------------------
# Visitors: a browser's games stay that browser's


def sweep(phone: Client, b, a) -> dict:
    """What of A's every answer B's phone gets holds (only those holding some), the answers that
    failed, and the statuses of A's games' addresses tried (404, and 286 for the pad's poll: htmx's
    "stop polling"). (A's player pages ask a visitor to
    sign in first: the leaks say they show nothing.)"""
    answers = dict(everything_b_reaches(phone, b, a))
    return {
        "leaks": {label: leaks(response, a) for label, response in answers.items() if leaks(response, a)},
        "failed": {label: answer.status_code for label, answer in answers.items() if answer.status_code >= 500},
        "A's games": {answer.status_code for label, answer in answers.items() if "A's game" in label},
    }


def test_an_account_sees_nothing_of_a_visitors(v, b, b_phone):
    assert sweep(b_phone, b, v) == {"leaks": {}, "failed": {}, "A's games": {404, 286}}


def test_a_visitor_sees_nothing_of_an_accounts(a, v):
    assert sweep(v.phone, v, a) == {"leaks": {}, "failed": {}, "A's games": {404, 286}}


def test_a_visitor_sees_nothing_of_another_visitors(v, w):
    assert sweep(w.phone, w, v) == {"leaks": {}, "failed": {}, "A's games": {404, 286}}


def test_the_sweep_finds_a_visitors_own_things_where_they_belong_and_never_its_visitor_id(a, v):
    answers = dict(everything_b_reaches(v.phone, v, a))
    texts = v.texts
    shown = {label: response.content.decode("utf-8-sig") for label, response in answers.items()}
    where = {
        "history": ["player", "second player"],
        "history?status=in-progress": ["player", "second player"],
        "start": ["layout", "player", "second player"],
        "start, B's layout (htmx)": ["layout"],
        f"pad of B's {v.in_progress}, shared": ["player", "link holder"],
        f"results of B's {v.finished}": ["faction"],
        f"export of B's {v.finished}": ["finished notes", "faction"],
    }
    missing = {label: [what for what in whats if texts[what] not in shown[label]] for label, whats in where.items()}
    assert {label: whats for label, whats in missing.items() if whats} == {}
    assert all(link.token in shown[f"pad of B's {v.in_progress}, shared"] for link in v.links)
    assert [label for label, text in shown.items() if v.visitor in text] == []
