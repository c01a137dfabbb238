"""Names are compared without their default-ignorable characters now (``rules.names.name_key``):
the keys of the names stored with one are computed again. A player whose new key is already
another player's of the same owner keeps the key it had (two records that an owner may merge on
the player's page), never a clash."""

from django.db import IntegrityError, migrations, transaction

from scoring.rules.names import DEFAULT_IGNORABLE, name_key

IGNORABLE = "[" + "".join(f"{chr(low)}-{chr(high)}" for low, high in DEFAULT_IGNORABLE) + "]"


def keys_again(apps, schema_editor):
    for model in ("Seat", "Player", "PlayerAlias"):
        rows = apps.get_model("scoring", model).objects.filter(name__regex=IGNORABLE)
        for row in rows.iterator():
            key = name_key(row.name)
            if key == row.name_key:
                continue
            try:
                with transaction.atomic():
                    type(row).objects.filter(pk=row.pk).update(name_key=key)
            except IntegrityError:
                continue


class Migration(migrations.Migration):
    dependencies = [("scoring", "0021_game_played_after")]

    operations = [migrations.RunPython(keys_again, migrations.RunPython.noop)]
