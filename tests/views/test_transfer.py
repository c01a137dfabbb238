"""Specification of "Your data" (``scoring/views/transfer.py``, ``/data/``): export and import in the app.

A signed-in player downloads the games they own, as the game file (``docs/game-file.md``, with
each game’s change history) or as a spreadsheet (CSV, one row per player per game). They upload
a game file: the pad checks it and shows what it will add, what it skips because they already
have it, or every problem by its path, before anything is stored; "Add these N games" stores
them as their games, a few hundred a request with its progress shown (a big file never holds a
worker, nor the database, for long; an interrupted import keeps what it added). Importing the
same file twice adds nothing the second time. Nobody else's games ever show, and a visitor who
is not signed in is sent to sign in.
"""

from __future__ import annotations

import codecs
import json
from datetime import date, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.actors import Actor
from scoring.gamefile import dump_document, parse_document, to_json
from scoring.gamefile.spreadsheet import CSV_COLUMNS
from scoring.models import Change, Game, WaitingFile
from scoring.selectors import imports
from scoring.selectors.games import games_for_export
from scoring.services import uploads
from scoring.services.finishing import game_finish
from scoring.services.imports import games_import
from scoring.services.sharing import link_renew
from scoring.services.uploads import SESSION_UPLOAD, WAITING_SECONDS
from tests.gamefile.documents import THREE_ERROR_PATHS, THREE_ERRORS, example_document, without_times
from tests.support.factories import game_scored, game_started, player, seat_of, user, value_corrected
from tests.support.pages import page
from tests.views.transfer_cases import (
    EMPTY,
    MULTI,
    confirm,
    csv_table,
    export_csv,
    export_json,
    import_file,
    listed,
    minutes_pass,
    owned_games,
    preview,
    problems,
    today,
    upload,
    waiting_file,
)

pytestmark = pytest.mark.django_db

# ---------------------------------------------------------------------------------------------
# The page


def test_the_history_links_to_your_data(owner_client):
    history = page(owner_client.get(reverse("scoring:history")))
    link = history.one("a", href=reverse("scoring:data"))
    assert link.text == "Your data: export and import"


def test_the_data_page_offers_both_downloads_and_an_upload_form(owner_client, owner):
    game_scored(player("Alice"), finished=True)

    shown = page(owner_client.get(reverse("scoring:data")))

    assert shown.one("a", href=reverse("scoring:export_json")).text == "Game file (JSON)"
    assert shown.one("a", href=reverse("scoring:export_csv")).text == "Spreadsheet (CSV)"
    assert "The game you started or imported." in shown.text
    form = shown.one("form", action=reverse("scoring:import"))
    assert (form["method"], form["enctype"]) == ("post", "multipart/form-data")
    assert form.one("input", type="file", name="file").get("accept") == ".json,application/json"
    assert form.one("button", type="submit").text == "Check the file"


@pytest.mark.parametrize(
    "method, name",
    [
        ("get", "data"),
        ("get", "import"),
        ("post", "import"),
        ("post", "import_confirm"),
    ],
)
def test_a_visitor_who_is_not_signed_in_is_sent_to_sign_in(method, name):
    game_scored(player("Alice"), finished=True)
    address = reverse(f"scoring:{name}")
    data = {"file": SimpleUploadedFile("backup.json", MULTI.read_bytes())} if method == "post" else {}

    response = getattr(Client(), method)(address, data)

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={address}"
    assert Game.objects.count() == 1


@pytest.mark.parametrize("name", ["data", "export_json", "export_csv"])
def test_reading_pages_refuse_a_post(owner_client, name):
    assert owner_client.post(reverse(f"scoring:{name}")).status_code == 405


def test_adding_takes_a_post(owner_client):
    assert owner_client.get(reverse("scoring:import_confirm")).status_code == 405


# ---------------------------------------------------------------------------------------------
# The game file


def test_the_json_export_is_every_game_the_user_owns_with_its_history(owner_client, owner):
    owner.first_name = "Oscar"  # the name others see: the export's author, never the login
    owner.save()
    alice = game_scored(player("Alice", farm_income=3), played_on=date(2026, 11, 29), finished=True)
    value_corrected(seat=seat_of(alice, 1), key="farms", value=4, by=Actor(user=owner))
    game_started("Bruno", "Carla", played_on=date(2026, 12, 5))  # in progress: exported too

    response = export_json(owner_client)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="apiary-games-{today()}.json"'
    assert response.content.decode() == to_json(dump_document(games_for_export(owner=owner)))
    document = json.loads(response.content)
    assert [[p["name"] for p in game["players"]] for game in document["games"]] == [["Alice"], ["Bruno", "Carla"]]
    assert document["games"][0]["changes"][0] | {"at": None} == {
        "player": 1,
        "entry": "farms",
        "old": None,
        "new": 4,
        "at": None,
        "by": "Oscar",
    }


def test_another_users_games_never_appear_in_an_export(owner_client, owner):
    game_scored(player("Alice"), finished=True)
    stranger = user("stranger")
    theirs = game_scored(player("Zed"), player("Yann"), owner=stranger, finished=True)
    game_scored(player("Nobody's"), owner=None, finished=True)  # a game from before accounts
    # A game the owner joined through its edit link is in their history, but it is the stranger's.
    link = link_renew(game=theirs, access="edit")
    owner_client.post(reverse("scoring:join", args=[link.token]))
    assert "Zed" in page(owner_client.get(reverse("scoring:history"))).text

    exported = json.loads(export_json(owner_client).content)
    rows = csv_table(export_csv(owner_client))

    assert [p["name"] for game in exported["games"] for p in game["players"]] == ["Alice"]
    assert [row["player"] for row in rows] == ["Alice"]
    assert {row["game_id"] for row in rows} == set(Game.objects.filter(owner=owner).values_list("public_id", flat=True))


def test_an_account_without_games_exports_a_valid_empty_backup(owner_client):
    assert json.loads(export_json(owner_client).content) == EMPTY
    assert csv_table(export_csv(owner_client)) == []
    (header,) = export_csv(owner_client).content.decode("utf-8-sig").splitlines()
    assert len(header.split(",")) == len(CSV_COLUMNS)


# ---------------------------------------------------------------------------------------------
# Import: upload, check, add


def test_a_good_file_is_shown_before_anything_is_stored(owner_client, owner):
    response = upload(owner_client, MULTI.read_bytes(), name="friday.json")

    assert response.status_code == 302 and response["Location"] == reverse("scoring:import")
    assert Game.objects.count() == 0
    shown = preview(owner_client)
    assert shown.status_code == 200
    assert "friday.json is a valid game file." in page(shown).text
    assert page(shown).one("h2", id="to-add").text == "To add: 3 games"
    assert listed(shown, "to-add") == [
        "Sun 29 Nov 2026 Bob (winner) 51 Automa 25 Zoé 46",
        "Sat 5 Dec 2026 Ann (winner) 50 Ben (winner) 50 Cid 40 Dee 40 Eve 10",  # a shared victory
        "Sat 5 Dec 2026 Automa 30 Claire (winner) 30",  # a tie broken by active workers
    ]
    assert listed(shown, "skipped") == []
    assert page(shown).one("button", class_="primary").text == "Add these 3 games"
    assert Game.objects.count() == 0


def test_adding_stores_every_game_of_the_file_as_the_users_finished_games(owner_client, owner):
    upload(owner_client, MULTI.read_bytes())

    response = confirm(owner_client)

    assert response.status_code == 302 and response["Location"] == reverse("scoring:data")
    assert owned_games(owner) == Game.objects.count() == 3
    assert all(game.is_finished for game in Game.objects.all())
    exported = json.loads(export_json(owner_client).content)
    # (the file says no times: each game was finished at the import, and started then at the latest)
    assert without_times(exported) == dump_document(parse_document(MULTI.read_bytes()))
    assert all(game["started_at"] <= game["finished_at"] for game in exported["games"])
    said = page(owner_client.get(reverse("scoring:data"))).one(role="status").text
    assert said.startswith("Added 3 games to your history.")
    # Said once; and the file no longer waits.
    assert page(owner_client.get(reverse("scoring:data"))).find(role="status") is None
    assert preview(owner_client)["Location"] == reverse("scoring:data")


def test_export_delete_upload_add_export_gives_the_same_document(owner_client, owner):
    """The game file is a backup: what it restores exports exactly as before, history included."""
    game = game_scored(
        player("Alice", farm_income=3, workers=1, tokens=(2, 0, 1)),
        player("Bruno", farms=2),
        played_on=date(2026, 11, 29),
        finished=True,
    )
    value_corrected(seat=seat_of(game, 1), key="farm_income", value=9, sum_text="3+6", by=Actor(user=owner))
    value_corrected(seat=seat_of(game, 2), key="recruits", value=4, by=Actor(name="Bruno"))
    game_finish(game=game_started("Carla", played_on=date(2026, 12, 1)))  # (a backup's games are finished)
    first = export_json(owner_client).content

    Game.objects.filter(owner=owner).delete()
    assert Change.objects.count() == 0
    upload(owner_client, first)
    assert listed(preview(owner_client), "to-add") == [
        "Sun 29 Nov 2026 Alice (winner) 24 Bruno 6 With its history of 2 changes.",
        "Tue 1 Dec 2026 Carla (winner) 1",
    ]
    confirm(owner_client)

    assert export_json(owner_client).content == first
    assert seat_of(Game.objects.get(played_on=date(2026, 11, 29)), 1).sums == {"farm_income": "3+6"}


def test_uploading_the_same_file_twice_adds_nothing_the_second_time(owner_client, owner):
    import_file(owner_client, MULTI.read_bytes())

    upload(owner_client, MULTI.read_bytes())
    shown = preview(owner_client)

    assert page(shown).one("h2", id="to-add").text == "To add: 0 games"
    assert "Every game of this file is already stored: there is nothing to add." in page(shown).text
    assert page(shown).one("h2", id="skipped").text == "Skipped, already stored: 3 games"
    assert len(listed(shown, "skipped")) == 3
    assert page(shown).find("button", class_="primary") is None  # nothing to add: only "Back"
    assert confirm(owner_client).status_code == 302  # even a "Back" sent as "Add" adds nothing
    assert owned_games(owner) == 3


def test_a_file_with_some_games_already_stored_adds_only_the_others(owner_client, owner):
    import_file(owner_client, json.dumps(example_document()))
    both = json.loads(MULTI.read_text(encoding="utf-8"))
    both["games"].append(example_document()["games"][0])

    upload(owner_client, json.dumps(both))
    shown = preview(owner_client)
    assert (len(listed(shown, "to-add")), listed(shown, "skipped")) == (3, ["Sun 29 Nov 2026 Alice (winner) 111"])
    confirm(owner_client)

    assert owned_games(owner) == 4
    said = page(owner_client.get(reverse("scoring:data"))).one(role="status").text
    assert "Added 3 games to your history. 1 game was already stored and was skipped." in said


def test_another_users_games_are_not_what_makes_a_game_already_stored(owner_client, owner):
    stranger = user("stranger")
    games_import(parse_document(MULTI.read_bytes()), owner=stranger)

    upload(owner_client, MULTI.read_bytes())
    assert len(listed(preview(owner_client), "to-add")) == 3
    confirm(owner_client)

    assert owned_games(owner) == owned_games(stranger) == 3


def test_a_file_with_problems_names_each_by_its_path_and_stores_nothing(owner_client, owner):
    game_scored(player("Alice"), finished=True)

    response = upload(owner_client, THREE_ERRORS(), name="broken.json")

    assert response.status_code == 422
    assert sorted(problems(response)) == sorted(THREE_ERROR_PATHS)
    shown = page(response).by_id("problems")
    assert shown["role"] == "alert"
    assert "broken.json cannot be imported (3 problems): nothing was added." in shown.text
    assert "games[0].players[1].end.farms: must be a whole number from 0 to 99 (not 100)" in shown.text
    assert owned_games(owner) == 1
    assert preview(owner_client)["Location"] == reverse("scoring:data")  # nothing waits to be added


@pytest.mark.parametrize(
    "content, path",
    [
        pytest.param(b"{not json", "(document)", id="not-json"),
        pytest.param("{}".encode("utf-16"), "(document)", id="not-utf-8"),
        pytest.param(json.dumps({**EMPTY, "version": 2}).encode(), "version", id="another-version"),
    ],
)
def test_a_file_that_is_no_game_file_is_refused_by_path(owner_client, content, path):
    response = upload(owner_client, content)

    assert response.status_code == 422
    assert problems(response) == [path]
    assert Game.objects.count() == 0


def test_a_file_saved_with_a_byte_order_mark_is_read(owner_client, owner):
    import_file(owner_client, codecs.BOM_UTF8 + MULTI.read_bytes())
    assert owned_games(owner) == 3


def test_no_file_or_a_file_over_2_mb_is_refused(owner_client):
    missing = owner_client.post(reverse("scoring:import"), {})
    assert missing.status_code == 422
    assert "Choose a game file to upload." in page(missing).text

    big = json.dumps({**example_document(), "padding": " " * (2 * 1024 * 1024)})
    too_big = upload(owner_client, big)
    assert too_big.status_code == 422
    assert "a game file can be at most 2 MB." in page(too_big).text
    assert SESSION_UPLOAD not in owner_client.session


def test_an_empty_backup_imports_as_nothing(owner_client, owner):
    response = upload(owner_client, json.dumps(EMPTY))
    assert response.status_code == 302

    shown = preview(owner_client)
    assert "This file holds no games: there is nothing to add." in page(shown).text
    assert page(shown).find("button", class_="primary") is None
    confirm(owner_client)

    assert Game.objects.count() == 0
    said = page(owner_client.get(reverse("scoring:data"))).one(role="status").text
    assert said.startswith("The file held no games: nothing was added.")


def test_cancel_forgets_the_file(owner_client):
    upload(owner_client, MULTI.read_bytes())

    assert confirm(owner_client, button="cancel")["Location"] == reverse("scoring:data")

    assert SESSION_UPLOAD not in owner_client.session
    assert Game.objects.count() == 0


def test_pressing_add_twice_adds_the_games_once(owner_client, owner):
    """The second press (a double tap, or Back and again) names a file that no longer waits."""
    upload(owner_client, MULTI.read_bytes())
    token = page(preview(owner_client)).one("input", name="token")["value"]
    address = reverse("scoring:import_confirm")

    assert owner_client.post(address, {"token": token}).status_code == 302
    again = owner_client.post(address, {"token": token})

    assert again.status_code == 409
    assert "This file is no longer waiting to be added" in page(again).one(role="alert").text
    assert owned_games(owner) == 3


def test_a_token_that_is_not_the_waiting_files_adds_nothing(owner_client):
    upload(owner_client, MULTI.read_bytes())

    response = owner_client.post(reverse("scoring:import_confirm"), {"token": "made-up"})

    assert response.status_code == 409
    assert Game.objects.count() == 0


def test_a_later_upload_replaces_the_waiting_file(owner_client, owner):
    upload(owner_client, MULTI.read_bytes())
    first_token = page(preview(owner_client)).one("input", name="token")["value"]
    upload(owner_client, json.dumps(example_document()))

    assert owner_client.post(reverse("scoring:import_confirm"), {"token": first_token}).status_code == 409
    confirm(owner_client)

    assert [seat.name for game in Game.objects.all() for seat in game.seats.all()] == ["Alice"]


def test_the_waiting_file_is_checked_again_when_it_is_added(owner_client, owner):
    """What waits in the session is read again, never trusted: a file that no longer reads adds nothing."""
    upload(owner_client, MULTI.read_bytes())
    token = page(preview(owner_client)).one("input", name="token")["value"]
    WaitingFile.objects.filter(token=token).update(text=THREE_ERRORS())

    response = owner_client.post(reverse("scoring:import_confirm"), {"token": token})

    assert response.status_code == 422
    assert sorted(problems(response)) == sorted(THREE_ERROR_PATHS)
    assert Game.objects.count() == 0


def test_a_file_waits_an_hour_at_most(owner_client, owner):
    upload(owner_client, MULTI.read_bytes())
    token = page(preview(owner_client)).one("input", name="token")["value"]
    assert WAITING_SECONDS == 3600

    minutes_pass(60)

    assert preview(owner_client)["Location"] == reverse("scoring:data")
    assert owner_client.post(reverse("scoring:import_confirm"), {"token": token}).status_code == 409
    assert Game.objects.count() == 0


def test_the_file_itself_does_not_wait_in_the_session(owner_client, owner):
    """Every request of the account reads its session (the pad's live view, every few seconds):
    only the token, the file's name and when it was sent are there; the text is in the waiting
    room (below), under the token."""
    upload(owner_client, MULTI.read_bytes(), name="friday.json")
    waiting = owner_client.session[SESSION_UPLOAD]

    assert set(waiting) == {"token", "name", "since"} and waiting["name"] == "friday.json"
    assert waiting_file(waiting["token"]).text == MULTI.read_text(encoding="utf-8")


def test_another_users_waiting_file_is_theirs_alone(owner_client, owner):
    upload(owner_client, MULTI.read_bytes())
    token = page(preview(owner_client)).one("input", name="token")["value"]
    stranger = Client()
    stranger.force_login(user("stranger"))

    assert stranger.get(reverse("scoring:import"))["Location"] == reverse("scoring:data")
    assert stranger.post(reverse("scoring:import_confirm"), {"token": token}).status_code == 409
    assert Game.objects.count() == 0


# ---------------------------------------------------------------------------------------------
# The waiting room (services/uploads.py): how many files wait and for how long. At most
# IMPORT_WAITING_PER_ACCOUNT files of an account, IMPORT_WAITING_PER_ADDRESS files (and _MB) sent
# from one client address, IMPORT_WAITING_TOTAL files (and _MB) on the site; a place is held an
# hour from the upload that took it, and freed sooner by adding, cancelling or signing out.

HOME, AWAY = "192.0.2.1", "198.51.100.7"  # two client addresses


def signed_in(account, address: str = HOME) -> Client:
    """Another browser (or device) signed in to the account, from ``address``: a session of its own."""
    browser = Client(REMOTE_ADDR=address)
    browser.force_login(account)
    return browser


def refusal_by_the_file_field(response) -> str:
    """The words of a refused upload, shown next to the file field of the upload form."""
    field = page(response).one("form", action=reverse("scoring:import")).one("input", type="file", name="file")
    return page(response).by_id(f"{field['id']}_error").text


def place_over_in(browser: Client, minutes: int) -> str:
    """The place of the browser's waiting file made to be over ``minutes`` from now, on the
    minute: the time of day the pages say for it ("14:35", the tests' zone being UTC)."""
    at = (timezone.now() + timedelta(minutes=minutes)).replace(second=0, microsecond=0)
    WaitingFile.objects.filter(token=browser.session[SESSION_UPLOAD]["token"]).update(expires=at)
    return f"{timezone.localtime(at):%H:%M}"


def test_the_preview_says_until_when_the_file_waits(owner_client):
    upload(owner_client, MULTI.read_bytes())
    time = place_over_in(owner_client, 45)

    assert (
        f"The file is kept until {time}: add its games or cancel before then. Sending another file replaces it; "
        "the time stays the same."
    ) in page(preview(owner_client)).text


def test_sending_another_file_replaces_the_waiting_one_but_never_for_longer(owner):
    """The place is the first upload's: its hour is not renewed by sending a file again, so
    nobody keeps a place by sending a file every few minutes."""
    phone, tablet = signed_in(owner), signed_in(owner)
    upload(phone, MULTI.read_bytes())
    upload(signed_in(owner), MULTI.read_bytes())  # (the account's places: both taken)
    minutes_pass(40)

    assert upload(phone, json.dumps(example_document())).status_code == 302

    replaced = waiting_file(phone.session[SESSION_UPLOAD]["token"])
    assert timedelta(minutes=19) < replaced.expires - timezone.now() <= timedelta(minutes=20)
    assert "Alice" in page(preview(phone)).text
    minutes_pass(20)  # the first upload's hour is over
    assert preview(phone)["Location"] == reverse("scoring:data")
    assert upload(tablet, MULTI.read_bytes()).status_code == 302  # its place was freed


def test_an_account_has_two_files_waiting_at_most_and_a_third_is_refused_by_its_field(owner, settings):
    assert settings.IMPORT_WAITING_PER_ACCOUNT == 2
    phone, laptop, tablet = signed_in(owner), signed_in(owner), signed_in(owner)
    assert upload(phone, MULTI.read_bytes()).status_code == 302
    assert upload(laptop, json.dumps(example_document())).status_code == 302
    place_over_in(phone, 40)
    first_over = place_over_in(laptop, 25)

    third = upload(tablet, MULTI.read_bytes())

    assert third.status_code == 409
    assert refusal_by_the_file_field(third) == (
        "2 game files of your account are already waiting to be added, sent from other browsers or devices: "
        f"add or cancel one of them there, or wait until {first_over}, when the first of them stops waiting, "
        "then send this file again."
    )
    assert SESSION_UPLOAD not in tablet.session
    # What already waits is untouched: both are added as shown.
    assert confirm(phone).status_code == 302 and confirm(laptop).status_code == 302
    assert owned_games(owner) == 4


def test_a_session_sending_another_file_takes_no_more_places(owner):
    """A later upload replaces the session's own waiting file (one waits per session): it is never
    refused for the places the account's files hold, and it frees none."""
    phone, laptop, tablet = signed_in(owner), signed_in(owner), signed_in(owner)
    upload(phone, MULTI.read_bytes())
    upload(laptop, MULTI.read_bytes())

    assert upload(phone, json.dumps(example_document())).status_code == 302

    assert upload(tablet, MULTI.read_bytes()).status_code == 409
    assert "Alice" in page(preview(phone)).text


@pytest.mark.parametrize("freed_by", ["adding", "cancelling", "its hour over", "signing out"])
def test_a_file_added_cancelled_over_or_signed_out_frees_its_place(owner, freed_by):
    phone, laptop, tablet = signed_in(owner), signed_in(owner), signed_in(owner)
    upload(phone, MULTI.read_bytes())
    upload(laptop, json.dumps(example_document()))
    assert upload(tablet, MULTI.read_bytes()).status_code == 409

    if freed_by == "adding":
        confirm(phone)
    elif freed_by == "cancelling":
        confirm(phone, button="cancel")
    elif freed_by == "its hour over":
        minutes_pass(60)
    else:
        phone.post(reverse("logout"))  # Django's sign-out (user_logged_out), before its session is flushed

    assert upload(tablet, MULTI.read_bytes()).status_code == 302
    assert "To add:" in page(preview(tablet)).text


def test_one_address_signed_in_to_many_accounts_holds_its_own_places_only(settings):
    """The review's script: 25 accounts each signed in twice, from one address, send empty game
    files. Only IMPORT_WAITING_PER_ADDRESS of them wait; each other is refused in words, saying
    until when; and a player elsewhere still sends theirs."""
    assert settings.IMPORT_WAITING_PER_ADDRESS == 5
    browsers = [signed_in(user(f"sock{n}")) for n in range(25) for _session in range(2)]

    answers = [upload(browser, json.dumps(EMPTY)) for browser in browsers]

    assert [answer.status_code for answer in answers] == [302] * 5 + [429] * 45
    assert WaitingFile.objects.count() == 5
    first_over = place_over_in(browsers[0], 60)
    refused = upload(browsers[-1], json.dumps(EMPTY))
    assert refusal_by_the_file_field(refused) == (
        "As many game files as may wait from one network are already waiting to be added, sent from yours "
        f"(every phone and computer on it together): wait until {first_over}, when enough of them have stopped "
        "waiting, then send this file again. Whoever sent them can make room sooner by adding or cancelling theirs."
    )
    assert 0 < int(refused["Retry-After"]) <= 60 * 60
    elsewhere = signed_in(user("ann"), address=AWAY)
    assert upload(elsewhere, MULTI.read_bytes()).status_code == 302
    assert "To add: 3 games" in page(preview(elsewhere)).text


def behind_the_proxy(account, address: str) -> Client:
    """A browser signed in to the account, reaching the site through its one reverse proxy from
    ``address`` (the proxy appends it to X-Forwarded-For)."""
    browser = Client(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=address)
    browser.force_login(account)
    return browser


def test_one_homes_ipv6_block_holds_its_own_places_only(settings):
    """The fourth review's script (issue 47): behind a proxy, 11 /64s of one /56 and 29 accounts
    each signed in twice send game files. The home counts as one client: 5 files wait, the
    site's 45 other places stay free, and another member's upload waits."""
    settings.RATE_LIMIT_PROXIES = 1
    homes = [f"2001:db8:4:{net:x}::{host:x}" for net in range(0xA0, 0xA0 + 11) for host in (1, 2)]
    browsers = [
        behind_the_proxy(user(f"sock{n}"), homes[(2 * n + session) % len(homes)])
        for n in range(29)
        for session in range(2)
    ]

    answers = [upload(browser, json.dumps(EMPTY)) for browser in browsers]

    assert [answer.status_code for answer in answers] == [302] * 5 + [429] * 53
    assert WaitingFile.objects.count() == 5 < settings.IMPORT_WAITING_TOTAL
    member = behind_the_proxy(user("ann"), "2001:db8:5::7")
    answer = upload(member, MULTI.read_bytes())
    assert answer.status_code == 302 and "To add: 3 games" in page(preview(member)).text


def test_one_homes_ipv6_block_holds_so_many_megabytes(settings):
    """With files of 2 MB, 5 of the home's /64s used to fill the site's 50 MB."""
    settings.RATE_LIMIT_PROXIES = 1
    big = json.dumps(EMPTY) + " " * (2 * uploads.MB - 100)  # (blanks: a valid file of 2 MB)
    browsers = [behind_the_proxy(user(f"sock{n}"), f"2001:db8:4:{n:x}::1") for n in range(8)]

    assert [upload(browser, big).status_code for browser in browsers] == [302] * 5 + [429] * 3
    assert (
        sum(WaitingFile.objects.values_list("size", flat=True)) <= settings.IMPORT_WAITING_PER_ADDRESS_MB * uploads.MB
    )


def test_new_accounts_from_many_networks_hold_their_share_and_never_the_members_places(settings):
    """Accounts made for the purpose, each from a network of its own: one file each, 10 for all
    of them; the 11th is refused in words (503, until when), and a member still sends theirs."""
    assert (settings.IMPORT_WAITING_PER_NEW_ACCOUNT, settings.IMPORT_WAITING_NEW_ACCOUNTS) == (1, 10)
    fresh = [user(f"fresh{n}", new=True) for n in range(12)]
    browsers = [signed_in(account, address=f"203.0.113.{n}") for n, account in enumerate(fresh)]

    answers = [upload(browser, json.dumps(EMPTY)) for browser in browsers]

    assert [answer.status_code for answer in answers] == [302] * 10 + [503] * 2
    first_over = place_over_in(browsers[0], 15)
    refused = upload(browsers[-1], json.dumps(EMPTY))
    assert refusal_by_the_file_field(refused) == (
        "Accounts made in the last 7 days already have as many game files waiting to be added as they may: "
        f"wait until {first_over}, when enough of them have stopped waiting, then send this file again."
    )
    assert upload(signed_in(fresh[0], address="203.0.113.0"), json.dumps(EMPTY)).status_code == 409  # one each
    member = signed_in(user("ann"), address=AWAY)
    assert upload(member, MULTI.read_bytes()).status_code == 302


def test_the_site_holds_so_many_waiting_files_at_most(owner, settings):
    settings.IMPORT_WAITING_TOTAL = 2
    others = [signed_in(user(name), address) for name, address in (("ann", HOME), ("ben", AWAY))]
    for browser in others:
        assert upload(browser, MULTI.read_bytes()).status_code == 302
    first_over = place_over_in(others[1], 10)
    place_over_in(others[0], 30)
    phone = signed_in(owner, address="203.0.113.5")

    refused = upload(phone, MULTI.read_bytes())

    assert refused.status_code == 503 and 9 * 60 < int(refused["Retry-After"]) <= 10 * 60
    assert refusal_by_the_file_field(refused) == (
        f"Too many game files are waiting to be added on this site right now: wait until {first_over}, when "
        "enough of them have stopped waiting, then send this file again."
    )
    # Nobody's waiting file was lost to it, and one added frees its place.
    assert all("To add: 3 games" in page(preview(browser)).text for browser in others)
    confirm(others[0])
    assert upload(phone, MULTI.read_bytes()).status_code == 302


def test_a_session_whose_file_waits_replaces_it_even_when_the_site_is_full(owner, settings):
    settings.IMPORT_WAITING_TOTAL = 1
    phone = signed_in(owner)
    upload(phone, MULTI.read_bytes())
    assert upload(signed_in(user("ann")), MULTI.read_bytes()).status_code == 503

    assert upload(phone, json.dumps(example_document())).status_code == 302
    assert "Alice" in page(preview(phone)).text


# ---------------------------------------------------------------------------------------------
# Adding a big file: in steps, with its progress


@pytest.fixture
def two_a_step(monkeypatch):
    """Steps of two games, so the three games of MULTI take two."""
    monkeypatch.setattr(uploads, "IMPORT_STEP", 2)


def progress_of(response) -> tuple[str, str, str]:
    """What the progress page shows: its bar (value, max) and its label."""
    shown = page(response)
    bar = shown.one("progress")
    label = shown.one("label")
    assert label["for"] == bar["id"]
    return bar["value"], bar["max"], label.text


def continue_(client: Client, **headers):
    """Press Continue on the progress page, as it is shown (htmx presses it by itself)."""
    form = page(client.get(reverse("scoring:import"))).one("form", action=reverse("scoring:import_continue"))
    return client.post(
        reverse("scoring:import_continue"), {"token": form.one("input", name="token")["value"]}, **headers
    )


def test_a_file_bigger_than_a_step_is_added_step_by_step_with_its_progress(owner_client, owner, two_a_step):
    upload(owner_client, MULTI.read_bytes())

    first = confirm(owner_client)

    assert first["Location"] == reverse("scoring:import")  # a page a reload shows again, adding nothing
    shown = owner_client.get(first["Location"])
    assert progress_of(shown) == ("2", "3", "2 of 3 games done")
    assert owned_games(owner) == 2  # stored: they stay, whatever happens next
    form = page(shown).one("form", action=reverse("scoring:import_continue"))
    assert form["hx-post"] == reverse("scoring:import_continue") and form["hx-trigger"] == "load"
    assert form.one("button", type="submit").text == "Continue"  # what a phone without JavaScript presses

    last = continue_(owner_client)

    assert last["Location"] == reverse("scoring:data")
    assert owned_games(owner) == 3
    said = page(owner_client.get(reverse("scoring:data"))).one(role="status").text
    assert said.startswith("Added 3 games to your history.")


def test_htmx_asks_for_each_step_and_is_sent_to_the_data_page_after_the_last(owner_client, owner, monkeypatch):
    monkeypatch.setattr(uploads, "IMPORT_STEP", 1)
    upload(owner_client, MULTI.read_bytes())
    confirm(owner_client)

    middle = continue_(owner_client, headers={"HX-Request": "true"})
    last = continue_(owner_client, headers={"HX-Request": "true"})

    assert b"<html" not in middle.content  # the progress alone, swapped into the page
    assert progress_of(middle) == ("2", "3", "2 of 3 games done")
    assert last.status_code == 200 and last["HX-Redirect"] == reverse("scoring:data")
    assert owned_games(owner) == 3


def test_coming_back_to_an_import_under_way_shows_its_progress(owner_client, owner, two_a_step):
    upload(owner_client, MULTI.read_bytes())
    confirm(owner_client)

    again = owner_client.get(reverse("scoring:import"))  # a reload, or Back to it

    assert progress_of(again) == ("2", "3", "2 of 3 games done")
    assert "Added so far: 2; skipped as already stored: 0." in page(again).one(role="status").text


def test_an_import_left_half_way_adds_the_rest_when_the_file_is_added_again(owner_client, owner, two_a_step):
    upload(owner_client, MULTI.read_bytes())
    confirm(owner_client)  # 2 of 3 stored, then the page was closed

    upload(owner_client, MULTI.read_bytes())
    assert "To add: 1 game" in page(preview(owner_client)).text
    confirm(owner_client)
    continue_(owner_client)

    assert owned_games(owner) == 3
    said = page(owner_client.get(reverse("scoring:data"))).one(role="status").text
    assert "Added 1 game to your history." in said and "2 games were already stored and were skipped." in said


def test_a_second_add_of_an_import_under_way_goes_on_from_where_it_stands(owner_client, owner, two_a_step):
    """Two tabs showed the preview, and both pressed Add: the second goes on with the same import."""
    upload(owner_client, MULTI.read_bytes())
    token = page(preview(owner_client)).one("input", name="token")["value"]
    address = reverse("scoring:import_confirm")
    owner_client.post(address, {"token": token})  # the first tab: 2 of 3 games done

    second = owner_client.post(address, {"token": token})

    assert second["Location"] == reverse("scoring:data")  # the last game added: done
    said = page(owner_client.get(reverse("scoring:data"))).one(role="status").text
    assert said.startswith("Added 3 games to your history.") and "skipped" not in said


def test_two_tabs_adding_one_file_at_once_say_what_the_whole_import_added(owner_client, owner, two_a_step):
    """Two requests of one session at once: the second tab's Add read the session before the first
    tab's answer stored its progress, so it starts the import again and finds the first tab's games
    stored. The tab that finishes says what the import as a whole added, not its own share."""
    upload(owner_client, MULTI.read_bytes())
    token = page(preview(owner_client)).one("input", name="token")["value"]
    as_read = owner_client.session[SESSION_UPLOAD]  # what both tabs' Add read
    address = reverse("scoring:import_confirm")
    owner_client.post(address, {"token": token})  # the first tab: 2 of 3 games added
    session = owner_client.session
    session[SESSION_UPLOAD] = as_read  # the second tab's answer, stored last, wrote what it read
    session.save()

    assert owner_client.post(address, {"token": token})["Location"] == reverse("scoring:import")  # 2 of 3, skipped
    continue_(owner_client)  # the third game

    assert owned_games(owner) == 3
    said = page(owner_client.get(reverse("scoring:data"))).one(role="status").text
    assert said.startswith("Added 3 games to your history.") and "skipped" not in said


def test_an_import_says_what_it_skipped_as_already_stored_before_it(owner_client, owner, two_a_step):
    import_file(owner_client, json.dumps(example_document()))
    both = json.loads(MULTI.read_text(encoding="utf-8"))
    both["games"][1:1] = [example_document()["games"][0]] * 2  # stored already, and twice in the file

    upload(owner_client, json.dumps(both))
    confirm(owner_client)
    continue_(owner_client)
    continue_(owner_client)

    said = page(owner_client.get(reverse("scoring:data"))).one(role="status").text
    assert "Added 3 games to your history. 2 games were already stored and were skipped." in said


def test_continuing_an_import_not_under_way_adds_nothing(owner_client, owner):
    upload(owner_client, MULTI.read_bytes())
    token = page(preview(owner_client)).one("input", name="token")["value"]

    not_started = owner_client.post(reverse("scoring:import_continue"), {"token": token})
    made_up = owner_client.post(reverse("scoring:import_continue"), {"token": "made-up"})

    assert not_started.status_code == made_up.status_code == 409
    assert owned_games(owner) == 0


def test_starting_imports_is_rate_limited(owner_client, owner, settings):
    settings.RATE_LIMITS = {"import": {"address": (2, 600)}}
    upload(owner_client, json.dumps(EMPTY))
    token = page(preview(owner_client)).one("input", name="token")["value"]
    address = reverse("scoring:import_confirm")

    answers = [owner_client.post(address, {"token": token}).status_code for _ in range(3)]

    assert answers == [302, 409, 429]
    assert "Too many imports started" in page(owner_client.post(address, {"token": token})).text


def test_the_preview_of_a_big_file_lists_its_first_games_and_counts_the_others(owner_client, monkeypatch):
    monkeypatch.setattr(imports, "PREVIEW_SHOWN", 1)
    upload(owner_client, MULTI.read_bytes())

    shown = page(preview(owner_client))

    assert len(shown.find_all("li", class_="transfer-game")) == 1
    assert "To add: 3 games" in shown.text and "And 2 more games." in shown.text
    assert shown.one("button", type="submit", class_="primary").text == "Add these 3 games"


def test_the_forms_carry_the_csrf_token(owner):
    """A browser's posts are checked for CSRF: the upload and the add forms carry the token."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(owner)
    data_page = page(browser.get(reverse("scoring:data")))
    csrf = data_page.one("form", action=reverse("scoring:import")).one("input", name="csrfmiddlewaretoken")["value"]
    uploaded = browser.post(
        reverse("scoring:import"),
        {
            "csrfmiddlewaretoken": csrf,
            "file": SimpleUploadedFile("backup.json", MULTI.read_bytes()),
        },
    )
    assert uploaded.status_code == 302
    form = page(browser.get(reverse("scoring:import"))).one("form", action=reverse("scoring:import_confirm"))
    fields = {element["name"]: element.get("value", "") for element in form.find_all("input")}
    assert browser.post(reverse("scoring:import_confirm"), fields).status_code == 302
    assert owned_games(owner) == 3
