"""``manage.py backup`` then ``manage.py restore`` into an empty database give back every account
and an identical export of every account's games."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from scoring.access import Actor
from scoring.gamefile import dump_document, to_json
from scoring.models import Game, Player
from scoring.selectors import games_for_export
from tests.factories import game_scored, player, save_value, seat_of

pytestmark = pytest.mark.django_db


def exports() -> dict[str, str]:
    return {user.username: to_json(dump_document(games_for_export(owner=user))) for user in User.objects.all()}


def test_a_backup_restores_into_an_empty_database_exactly(tmp_path):
    ann = User.objects.create_user("ann", email="ann@example.org", password="a-long-pass-phrase-1", first_name="Ann")
    ben = User.objects.create_user("ben", password="a-long-pass-phrase-2")
    game = game_scored(player("Ann", farm_income=12, faction="Ria"), player("Bob", recruits=3), owner=ann,
                       finished=True)
    save_value(seat=seat_of(game, 2), key="recruits", value=5, by=Actor(user=ann))
    game_scored(player("Ben", farm_income=2), player("Automa", automa=True), owner=ben)
    before = exports()

    call_command("backup", str(tmp_path))
    folder = next(tmp_path.iterdir())
    assert folder.name.startswith("apiary-") and (folder / "accounts.json").exists()
    assert "a-long-pass-phrase" not in (folder / "accounts.json").read_text()  # hashes only

    Game.objects.all().delete()
    Player.objects.all().delete()
    User.objects.all().delete()
    call_command("restore", str(folder))

    assert exports() == before
    assert User.objects.get(username="ann").check_password("a-long-pass-phrase-1")
    assert User.objects.get(username="ann").email == "ann@example.org"
    assert User.objects.get(username="ann").get_full_name() == "Ann"  # the name others see her by


def test_restore_refuses_a_database_that_is_not_empty(tmp_path):
    User.objects.create_user("ann", password="a-long-pass-phrase-1")
    call_command("backup", str(tmp_path))
    with pytest.raises(CommandError, match="not empty"):
        call_command("restore", str(next(tmp_path.iterdir())))


def test_restore_says_what_is_wrong_with_a_folder_that_is_not_a_backup(tmp_path):
    with pytest.raises(CommandError, match="cannot read"):
        call_command("restore", str(tmp_path))
    (tmp_path / "accounts.json").write_text("[{", encoding="utf-8")
    with pytest.raises(CommandError, match="not a backup"):
        call_command("restore", str(tmp_path))
