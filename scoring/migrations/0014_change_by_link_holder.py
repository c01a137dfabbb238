from django.db import migrations, models


def mark_link_holders_changes(apps, schema_editor):
    """Every change made through a share link so far is a link holder's."""
    Change = apps.get_model("scoring", "Change")
    Change.objects.filter(by_link__isnull=False).update(by_link_holder=True)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0013_game_fingerprint"),
    ]

    operations = [
        migrations.AddField(
            model_name="change",
            name="by_link_holder",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_link_holders_changes, migrations.RunPython.noop),
    ]
