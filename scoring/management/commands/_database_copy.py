"""What ``backup`` and ``restore`` share: a copy of the whole database, made and put back by the
database's own tools, so that it holds every row of every table as it was.

- SQLite: the online backup API (Python's ``sqlite3.Connection.backup``), a consistent copy
  while the site runs; the copy is itself an SQLite database, of one file.
- PostgreSQL: ``pg_dump --format=custom`` and ``pg_restore``, the newest found in
  ``/usr/lib/postgresql/*/bin`` (Debian's, as ``scripts/with-postgres.sh`` finds them), else on
  the PATH; they connect as the site does (``DATABASES``), the password through the environment
  (``PGPASSWORD``), never on the command line.

A file is told by its first bytes, so that a copy of one database is never handed to the other's
tools. Errors are ``CommandError``, in the shell's language (``_shell_language``).
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from contextlib import closing
from glob import glob
from pathlib import Path

from django.core.management.base import CommandError
from django.db import connection
from django.db.backends.postgresql.client import DatabaseClient as PostgresClient
from django.utils.translation import gettext as _

SQLITE, POSTGRESQL = "sqlite", "postgresql"
SUFFIX = {SQLITE: ".sqlite3", POSTGRESQL: ".dump"}
KIND_NAMES = {SQLITE: "SQLite", POSTGRESQL: "PostgreSQL"}
_MAGIC = {SQLITE: b"SQLite format 3\x00", POSTGRESQL: b"PGDMP"}  # how each kind of file begins


def database_kind() -> str:
    """The site's database: ``sqlite`` or ``postgresql`` (the only two it runs on)."""
    if connection.vendor not in SUFFIX:
        raise CommandError(
            _("backup and restore know only SQLite and PostgreSQL, and this database is %(vendor)s")
            % {"vendor": connection.vendor}
        )
    return connection.vendor


def backup_write(path: Path) -> None:
    """Copy the database into ``path``, a new file readable by its owner only. The copy is made
    beside it under another name and takes that name once whole: a failed backup leaves no file."""
    kind = database_kind()
    handle, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    os.close(handle)
    try:
        if kind == SQLITE:
            connection.ensure_connection()
            with closing(sqlite3.connect(partial)) as copy:
                connection.connection.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")  # one file, without WAL's two beside it
        else:
            postgres_run("pg_dump", "--format=custom", f"--file={partial}")
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise


def backup_tables(path: Path) -> set[str]:
    """The tables a backup file holds, after checking that it is a backup of this kind of
    database (``cannot read …``, ``… is not a backup …``, ``… is a backup of a SQLite database …``)."""
    kind = database_kind()
    try:
        with path.open("rb") as handle:
            start = handle.read(16)
    except OSError as error:
        raise CommandError(_("cannot read %(path)s: %(reason)s") % {"path": path, "reason": error.strerror}) from None
    made_by = next((other for other, magic in _MAGIC.items() if start.startswith(magic)), None)
    if made_by is None:
        raise CommandError(_("%(path)s is not a backup (manage.py backup makes one)") % {"path": path})
    if made_by != kind:
        raise CommandError(
            _(
                "%(path)s is a backup of a %(made_by)s database, and this site’s database is %(kind)s: "
                "move the data from one to the other with manage.py dumpdata and loaddata (docs/operations.md)"
            )
            % {"path": path, "made_by": KIND_NAMES[made_by], "kind": KIND_NAMES[kind]}
        )
    if kind == SQLITE:
        try:
            with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as copy:
                return {name for (name,) in copy.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.Error as error:
            raise CommandError(_("cannot read %(path)s: %(reason)s") % {"path": path, "reason": error}) from None
    listing = postgres_run("pg_restore", "--list", str(path), connect=False)
    return set(re.findall(r"^\d+; \d+ \d+ TABLE \S+ (\S+) ", listing, flags=re.MULTILINE))


def backup_restore(path: Path) -> None:
    """Replace everything the database holds with the backup at ``path``, all or nothing."""
    if database_kind() == SQLITE:
        connection.ensure_connection()
        try:
            with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as copy:
                copy.backup(connection.connection)
        except sqlite3.Error as error:
            raise CommandError(_("cannot restore %(path)s: %(reason)s") % {"path": path, "reason": error}) from None
    else:
        # --clean --if-exists: each table of the backup replaces the one of that name, if any
        # (a migrated database's); one transaction: an error leaves the database as it was.
        postgres_run(
            "pg_restore", "--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction", str(path)
        )


def _postgres_tool(name: str) -> str:
    """Debian's newest ``pg_dump`` (or ``pg_restore``), else the one on the PATH."""
    found = sorted(
        glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda tool: [int(number) for number in re.findall(r"\d+", Path(tool).parent.parent.name)],
    )
    tool = found[-1] if found else shutil.which(name)
    if tool is None:
        raise CommandError(
            _("%(tool)s is not installed: it comes with PostgreSQL’s client tools (Debian’s postgresql-client)")
            % {"tool": name}
        )
    return tool


def postgres_connection(database: dict) -> tuple[list[str], dict[str, str]]:
    """The options that connect a PostgreSQL tool to ``database`` (a ``DATABASES`` entry) as the
    site connects, and the environment variables it also needs: the password (``PGPASSWORD``),
    TLS and the service file, as Django reads them for ``psql`` (``dbshell``). Never the password
    on the command line, where every user of the machine could read it (``ps``)."""
    given = database.get("OPTIONS", {})  # (a socket's folder may come as ?host= in DATABASE_URL)
    options = [
        f"{option}={value}"
        for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER"))
        if (value := database.get(key) or given.get(key.lower()))
    ]
    options += [f"--dbname={database['NAME']}", "--no-password"]  # never wait for a password typed
    _psql, environment = PostgresClient.settings_to_cmd_args_env(database, [])
    return options, environment or {}


def postgres_run(name: str, *arguments: str, connect: bool = True) -> str:
    """Run a PostgreSQL tool, connected to the site's database unless ``connect`` is false; its
    output, or a ``CommandError`` with what it said."""
    options, environment = postgres_connection(connection.settings_dict) if connect else ([], {})
    done = subprocess.run(
        [_postgres_tool(name), *options, *arguments],
        env={**os.environ, **environment},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise CommandError(_("%(tool)s failed: %(reason)s") % {"tool": name, "reason": done.stderr.strip()})
    return done.stdout
