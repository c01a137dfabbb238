# Every player gets a random public id (BG Stats' sourcePlayerId, scoring/presenters/bgstats.py) in place of
# the row's number. In two steps, as a unique field with a random default must be added to a table
# that has rows: here the column, empty, and a random id for every player stored so far; then, in
# 0018 (its own transaction, as PostgreSQL wants after updating rows), the column made unique and
# required.

import secrets

from django.db import migrations, models


def fill_public_ids(apps, schema_editor):
    Player = apps.get_model("scoring", "Player")
    players = list(Player.objects.filter(public_id__isnull=True).only("pk"))
    for player in players:
        player.public_id = secrets.token_urlsafe(12)  # (models.new_player_public_id, as it is today)
    Player.objects.bulk_update(players, ["public_id"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0016_game_during_mode_and_vp_track"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="public_id",
            field=models.CharField(editable=False, max_length=16, null=True),
        ),
        migrations.RunPython(fill_public_ids, migrations.RunPython.noop, elidable=True),
    ]
