"""The table of the database cache (settings.CACHES), made by every migrate: the rate limits
count there, shared by every server process, on SQLite and PostgreSQL alike."""

from django.core.management import call_command
from django.db import migrations


def make_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0004_layouts_per_owner")]

    operations = [migrations.RunPython(make_cache_table, migrations.RunPython.noop)]
