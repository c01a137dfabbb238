# BG Stats knows a player by a digest of their name (scoring.presenters.bgstats.player_id): the same
# before and after an account claims a visitor's games and after an import, which a record's random
# public id was not (issue 49). Nothing else read it. Taken back (migrating to an earlier state), the
# column comes back without its uniqueness, each player is given a random id of its own, then it is
# unique again, as 0017 and 0018 made it.

from django.db import migrations, models

import scoring.models


def give_each_player_its_own_id(apps, schema_editor):
    Player = apps.get_model("scoring", "Player")
    players = list(Player.objects.only("pk"))
    for player in players:
        player.public_id = scoring.models.new_player_public_id()
    Player.objects.bulk_update(players, ["public_id"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0026_link_carried_from_and_holders"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="public_id",
            field=models.CharField(default=scoring.models.new_player_public_id, editable=False, max_length=16),
        ),
        migrations.RunPython(migrations.RunPython.noop, give_each_player_its_own_id),
        migrations.RemoveField(model_name="player", name="public_id"),
    ]
