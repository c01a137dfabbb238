"""The VP track: a game scores its during-the-game points on the track (one number per player)
or as the breakdown. Every game stored before keeps the breakdown it was scored with; a new game
counts the track. The tallies gain the track's measure, and every seat's ``tallied`` is brought
up to date with it (``tallies_rebuild``, on the models as they are here)."""

import django.core.validators
from django.db import migrations, models


def tallies_refresh(apps, schema_editor):
    """Every tally row and seat's ``tallied`` with the new measure (0 for every game stored so far)."""
    from scoring.services.tallies import tallies_rebuild

    tallies_rebuild(apps=apps)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0015_games_of_visitors"),
    ]

    operations = [
        # The games already stored keep the breakdown they were scored with...
        migrations.AddField(
            model_name="game",
            name="during_mode",
            field=models.CharField(
                choices=[("track", "VP track"), ("breakdown", "breakdown")],
                default="breakdown",
                max_length=9,
                verbose_name="points during the game",
            ),
        ),
        # ...and a new game counts the VP track.
        migrations.AlterField(
            model_name="game",
            name="during_mode",
            field=models.CharField(
                choices=[("track", "VP track"), ("breakdown", "breakdown")],
                default="track",
                max_length=9,
                verbose_name="points during the game",
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(during_mode__in=["track", "breakdown"]), name="game_during_mode_track_or_breakdown"
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="vp_track",
            field=models.SmallIntegerField(
                blank=True,
                default=None,
                null=True,
                validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(999)],
                verbose_name="VP on the track at the end",
            ),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.CheckConstraint(
                condition=models.Q(vp_track__gte=0, vp_track__lte=999), name="seat_vp_track_range"
            ),
        ),
        migrations.AddField(
            model_name="ownertally",
            name="vp_vp_track",
            field=models.BigIntegerField(default=0, help_text="Sum of the VP of vp_track"),
        ),
        migrations.AddField(
            model_name="playertally",
            name="vp_vp_track",
            field=models.BigIntegerField(default=0, help_text="Sum of the VP of vp_track"),
        ),
        migrations.RunPython(tallies_refresh, migrations.RunPython.noop),
    ]
