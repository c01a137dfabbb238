"""Fixtures shared by the whole suite.

``owner`` is the account that owns the games of ``tests/support/factories.py``; ``owner_client`` is a
test client signed in as that account (the phone of the game’s owner). Modules about the pad
itself make their ``client`` that phone (see ``tests/views/conftest.py``); pytest-django's own
``client`` stays an anonymous visitor everywhere else.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import Client

from scoring.web import limits
from tests.support import factories


@pytest.fixture
def owner(db):
    """The account that owns the games the factories create."""
    return factories.owner()


@pytest.fixture
def owner_client(owner) -> Client:
    """A phone signed in as the owner of the games."""
    client = Client()
    client.force_login(owner)
    return client


@pytest.fixture
def other_user(db):
    """A signed-in account that neither owns the games nor holds any of their links."""
    return factories.user("stranger")


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Accounts are made by the hundred here: hash their passwords cheaply (tests only)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_poll_answers_kept():
    """Each test starts with no poll answer kept (settings.CACHES["pad"], each process's memory):
    one test's games, rolled back, never answer another's."""
    caches["pad"].clear()


@pytest.fixture(autouse=True)
def _no_counter_sweep_by_chance(monkeypatch):
    """The rate limit sweeps its expired counters in one count out of ``SWEEP_EVERY``, by chance:
    never here, so that a test sees the same statements on every run (a sweep made the password
    reset's two answers differ by one statement on CI). ``tests/web/test_limits.py`` asks for one."""
    monkeypatch.setattr(limits, "SWEEP_EVERY", 10**12)


@pytest.fixture(scope="session", autouse=True)
def _sqlite_test_database_files():
    """Django deletes the SQLite test database's file when the run ends (after this fixture's
    start: it ends after), but not the two files WAL keeps beside it while a connection is open
    (a thread's, a live server's): they go too, so no run leaves files behind in the temporary
    folder."""
    yield
    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3" and database.get("TEST", {}).get("NAME"):
        for suffix in ("-wal", "-shm"):
            Path(database["TEST"]["NAME"] + suffix).unlink(missing_ok=True)


# ---------------------------------------------------------------------------------------------
# The second database's run: only the tests that face the database.

DATABASE_FACING_ONLY = "TEST_DATABASE_FACING_ONLY"  # set to 1 by scripts/test.sh for its PostgreSQL run
SECOND_DATABASE = os.environ.get(DATABASE_FACING_ONLY) == "1"  # (this run is that one)
# pytest-django's fixtures that give a test the suite's database (``live_server`` asks for
# ``transactional_db`` while the test runs, so it is named here; a request of the test client
# reaches the sessions, the rate limits and the cache, all tables of the database).
DATABASE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "live_server",
        "client",
        "async_client",
        "admin_client",
        "admin_user",
    }
)
SELECTION = pytest.StashKey[str]()
# The pages' tests (tests/views/) reach the database only through the services and selectors, whose
# own tests run on both databases; they run on the first. These pages' tests run on both, for what
# they prove of the database itself: who may see what, one account beside another (the privacy
# sweep), a visitor's games claimed while the same browser starts one (the session row locked),
# a game file imported in steps beside the account's own games (Your data), the history's
# filters (a name found whatever its case, on either database) and the statements each request
# costs (the same on both).
# The permission matrix (tests/test_permissions.py) is a pages' test too: access.py's rule through
# every view; the database's part in it (who owns a game, which links are live) is the services'
# and selectors' tests', and who may see what is the privacy sweep's, on both databases.
TESTS = Path(__file__).resolve().parent
PAGES = TESTS / "views"
PAGES_ON_EVERY_DATABASE = frozenset(
    {"test_privacy.py", "test_visitors.py", "test_transfer.py", "test_history_page.py", "test_query_counts.py"}
)
PAGES_ELSEWHERE = frozenset({TESTS / "test_permissions.py"})


def database_facing(item: pytest.Item) -> bool:
    """Whether a test uses the suite's database, as pytest-django decides which tests get it: a
    ``django_db`` marker (on the test, its class or its module), one of ``DATABASE_FIXTURES``
    among every fixture it uses directly or through others (``owner`` uses ``db``), or a Django
    ``TransactionTestCase`` (``TestCase`` included)."""
    from django.test import TransactionTestCase

    cls = getattr(item, "cls", None)
    if cls is not None and issubclass(cls, TransactionTestCase):
        return True
    return item.get_closest_marker("django_db") is not None or not DATABASE_FIXTURES.isdisjoint(
        getattr(item, "fixturenames", ())
    )


@pytest.hookimpl(trylast=True)  # after -k and -m: it counts the tests they chose
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With ``TEST_DATABASE_FACING_ONLY=1`` (scripts/test.sh sets it for the run on PostgreSQL,
    the second database; the first run, on SQLite, has already run every test), keep only the
    tests that face the suite's database (``database_facing``) and deselect the others, saying
    how many and why:

    - the browser journeys (marker ``browser``): they run once, on SQLite; the one that needs
      PostgreSQL (``tests/browser/test_two_servers.py``) starts its own cluster there;
    - the pages' tests (tests/views/, but ``PAGES_ON_EVERY_DATABASE``, and ``PAGES_ELSEWHERE``):
      they reach the database through the services and selectors, whose own tests are kept;
    - the tests that use no database (the engine, the hypothesis properties, sums, the game
      file's reader, the settings, ...): the database makes no difference to them. Among them are
      the tests that start a database of their own in a child process or a file of their own
      (``tests/support/postgres.py``'s private cluster for ``tests/test_concurrency.py``, the SQLite
      files of ``tests/site/test_sqlite_writers.py``): they already ran, exactly once.

    Without the variable nothing is deselected."""
    if not SECOND_DATABASE:
        return
    kept, browser, pages, no_database = [], [], [], []
    for item in items:
        path = Path(item.path)
        if item.get_closest_marker("browser") is not None:
            browser.append(item)
        elif not database_facing(item):
            no_database.append(item)
        elif (path.parent == PAGES and path.name not in PAGES_ON_EVERY_DATABASE) or path in PAGES_ELSEWHERE:
            pages.append(item)
        else:
            kept.append(item)
    if browser or pages or no_database:
        config.hook.pytest_deselected(items=browser + pages + no_database)
        items[:] = kept
    message = (
        f"{DATABASE_FACING_ONLY}=1: {len(kept)} database-facing tests run; deselected "
        f"{len(browser)} browser journeys, {len(pages)} tests of pages that reach the database through "
        f"the services and selectors, and {len(no_database)} tests that use no database "
        "(scripts/test.sh's run on SQLite ran them; see tests/conftest.py)"
    )
    config.stash[SELECTION] = message
    workeroutput = getattr(config, "workeroutput", None)  # a pytest-xdist worker: its controller prints it
    if workeroutput is not None:
        workeroutput["database_facing_selection"] = message


def pytest_report_collectionfinish(config: pytest.Config) -> str | None:
    return config.stash.get(SELECTION, None)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """pytest-xdist's controller collects nothing itself: it prints what a worker chose."""
    message = getattr(node, "workeroutput", {}).get("database_facing_selection")
    if message:
        node.config.stash[SELECTION] = message


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    message = config.stash.get(SELECTION, None)
    if message:
        terminalreporter.write_line(message)
