"""Django's SQLite backend, with the write transactions of every process queued in a file lock.

Every transaction of the app begins with SQLite's write lock (``BEGIN IMMEDIATE``, in the
settings). A writer that finds it taken waits in SQLite's busy handler, which sleeps in growing
steps (1, 2, 5, 10, 15, 20, 25 … up to 100 ms) instead of being woken when the lock is free: under
a club night's saves, two gunicorn workers spent nearly half their time asleep while the lock was
already free (docs/performance.md). Here a transaction first takes an exclusive ``flock`` on a
file beside the database (``<database>.writers``), polled every quarter of a millisecond, so the
next writer starts as soon as the last one ends; then SQLite's lock is free and ``BEGIN
IMMEDIATE`` never waits. The wait is bounded by the same ``timeout`` option as SQLite's (then the
same "database is locked" error, which the app answers as a 503). Statements outside a
transaction (autocommit) do not take the file lock: they still wait in SQLite's own handler.
An in-memory database has no file, and no file lock.
"""

from __future__ import annotations

import fcntl
import os
import time

from django.db.backends.sqlite3 import base, creation

POLL_SECONDS = 0.00025


def writers_path(database: str) -> str:
    """The file lock of a database file's writers."""
    return f"{database}.writers"


class DatabaseCreation(creation.DatabaseCreation):
    def _destroy_test_db(self, test_database_name, verbosity):
        """The test database's file, and the files beside it: the lock and WAL's two."""
        super()._destroy_test_db(test_database_name, verbosity)
        if test_database_name and not self.is_in_memory_db(test_database_name):
            for path in (writers_path(test_database_name), f"{test_database_name}-wal", f"{test_database_name}-shm"):
                try:
                    os.remove(path)
                except FileNotFoundError:
                    pass


class DatabaseWrapper(base.DatabaseWrapper):
    creation_class = DatabaseCreation
    _writers_fd: int | None = None
    _writers_held = False

    def get_new_connection(self, conn_params):
        connection = super().get_new_connection(conn_params)
        if not self.is_in_memory_db():
            self._writers_fd = os.open(writers_path(self.settings_dict["NAME"]), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        return connection

    def _start_transaction_under_autocommit(self):
        self._writers_take()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._writers_release()
            raise

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._writers_release()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._writers_release()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._writers_release()
            if self._writers_fd is not None:
                os.close(self._writers_fd)
                self._writers_fd = None

    def _writers_take(self) -> None:
        if self._writers_fd is None or self._writers_held:
            return
        deadline = time.monotonic() + float(self.settings_dict["OPTIONS"].get("timeout", 5))
        while True:
            try:
                fcntl.flock(self._writers_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    with self.wrap_database_errors:  # (as Django raises SQLite's own: django.db.OperationalError)
                        raise self.Database.OperationalError("database is locked") from None
                time.sleep(POLL_SECONDS)
            else:
                self._writers_held = True
                return

    def _writers_release(self) -> None:
        if self._writers_held:
            self._writers_held = False
            fcntl.flock(self._writers_fd, fcntl.LOCK_UN)
