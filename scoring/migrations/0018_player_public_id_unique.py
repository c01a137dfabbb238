# The players' public ids (0017), unique and required from now on.

from django.db import migrations, models

import scoring.models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0017_player_public_id"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="public_id",
            field=models.CharField(
                default=scoring.models.new_player_public_id, editable=False, max_length=16, unique=True
            ),
        ),
    ]
