"""Settings for the Apiary Scorepad.

Everything that differs between a laptop and a deployment comes from the environment:
DEBUG, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL. Production is the default: development mode
(DEBUG on, the development key, localhost allowed) only when DEBUG=true asks for it (make dev,
make test), so that no command or server ever runs on the development key by accident (a
crontab line with only DATABASE_URL set is refused, not run on another key than the site's).
The database is a SQLite file in the project folder unless DATABASE_URL names another.
"""

import os
import tempfile
from pathlib import Path
from typing import Literal

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from apiary_site.environment import env_bool, env_list
from apiary_site.logs import FILTERS
from apiary_site.rate_limits import rate_limits

BASE_DIR = Path(__file__).resolve().parent.parent


DEBUG = env_bool("DEBUG", False)

_DEV_SECRET_KEY = "django-insecure-development-only-apiary-scorepad"
# The key, from SECRET_KEY, or else from the file SECRET_KEY_FILE names (`make run` makes one and
# keeps it, apiary_site/table.py: a command run beside it names the same file, docs/operations.md);
# the development key only in development mode.
_SECRET_KEY_FILE = os.environ.get("SECRET_KEY_FILE", "").strip()
if _SECRET_KEY_FILE and not Path(_SECRET_KEY_FILE).is_file():
    raise ImproperlyConfigured(f"SECRET_KEY_FILE names {_SECRET_KEY_FILE}, which is no file.")
SECRET_KEY = (
    os.environ.get("SECRET_KEY") or (Path(_SECRET_KEY_FILE).read_text().strip() if _SECRET_KEY_FILE else "")
) or _DEV_SECRET_KEY
if not DEBUG and SECRET_KEY == _DEV_SECRET_KEY:
    raise ImproperlyConfigured(
        "Set SECRET_KEY (or SECRET_KEY_FILE) in the environment: the site's own key, as the server"
        " has it (make run keeps its key in .secret-key: SECRET_KEY_FILE=.secret-key). DEBUG=true"
        " asks for development mode and its development key."
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# The address a share link and its QR code carry (scoring/web/addresses.py): SITE_URL whenever it
# is set (a deployment behind a proxy, https://scores.example.org); otherwise the address the page
# was asked at, unless only this machine reaches it (127.0.0.1, localhost): then TABLE_URL, this
# machine's address on the local network, which `make run` finds (apiary_site/table.py).
SITE_URL = os.environ.get("SITE_URL", "").strip().rstrip("/")
TABLE_URL = os.environ.get("TABLE_URL", "").strip().rstrip("/")

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "django_minify_html",
    "scoring",
]

MIDDLEWARE = [
    "apiary_site.head.head_without_body",  # HEAD answered as GET, without the body, whatever the server
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files: compressed ahead, served before the rest
    # Pages and htmx answers compressed (Brotli, or gzip), but never a page that shows a secret (BREACH).
    "apiary_site.compression.CompressionMiddleware",
    # Pages and htmx answers minified (django-minify-html) before they are compressed: the
    # templates are laid out for people, and the phones receive the bytes without the layout.
    "apiary_site.compression.MinifyHtmlMiddleware",
    # Outside the sessions, so that an answer made as the session is saved carries them too (below).
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # Django's sessions; a session the database refuses to save answered as any refused write (apiary_site/faults.py).
    "apiary_site.faults.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Times in the phone's own zone (the head script's cookie), else the site's (scoring/web/time_zones.py).
    "scoring.web.time_zones.phone_time_zone",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A database that refuses a write answers 503 in words (apiary_site/faults.py), not a bare 500.
    "apiary_site.faults.DatabaseFaultMiddleware",
    # Every page says its session's tag: the service worker forgets other sessions' copies (scoring/views/offline.py).
    "scoring.views.offline.session_tag_header",
]

ROOT_URLCONF = "apiary_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "scoring.web.context_processors.phone",
            ],
        },
    },
]

WSGI_APPLICATION = "apiary_site.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Django's own SQLite backend, tuned through its OPTIONS. Several phones save at once: a writer
    # waits for the write lock (timeout) instead of failing at once, and takes it at the start of
    # each transaction (BEGIN IMMEDIATE) so that no read is upgraded mid-way. A writer still
    # waiting after the timeout gets SQLite's "database is locked", answered as a 503
    # (apiary_site/faults.py). The wait is shorter than the pad's own time-out for a save (15 s,
    # static/scoring/pad.js), so the server never works on a save that the phone has given up on.
    # WAL lets readers go on while one writer writes; under WAL, synchronous=NORMAL syncs at
    # checkpoints instead of at every commit: a commit can only be lost with the machine's power,
    # never corrupt the database, and a save costs no fsync.
    # A worker keeps its connection (CONN_MAX_AGE, as on PostgreSQL): no open and pragmas per request.
    # SQLite has one writer at a time for the whole database, on one machine: when one server's
    # saves queue on that lock, or a second server is needed, the answer is PostgreSQL
    # (DATABASE_URL), not more machinery here.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 5,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # Tests use a file too (not SQLite's shared in-memory database, which answers "table is
    # locked" at once to concurrent requests instead of waiting): the browser journeys and the
    # concurrency tests save from several threads at once, as phones do. Django deletes it after
    # the run; tests/conftest.py deletes the two files WAL keeps beside it.
    DATABASES["default"]["TEST"] = {"NAME": str(Path(tempfile.gettempdir()) / f"apiary-test-{os.getpid()}.sqlite3")}

elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # As on SQLite: a save waits at most 5 s for a lock and runs at most 10 s, less than the
    # pad's own 15 s time-out, so the server never commits a save that the phone gave up on.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "options", "-c lock_timeout=5000 -c statement_timeout=10000"
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The default cache, whatever Django or a later feature keeps in it, is shared by every worker and
# server: a table of the database (migration 0005 makes it). The game files waiting to be imported
# (scoring.models.WaitingFile) and the abuse limits' counts (scoring.models.RateCounter, one
# statement a count) have tables of their own.
#
# "pad" keeps the answers of the pad's poll (scoring/views/pad.py, pad_live), made once for each
# game's revision and kept for the table's other phones. Each worker keeps its own, in its memory:
# an answer is a pure function of what it is kept under (the game, its revision, the language, the
# view), so any worker can make it and one worker's is as good as another's. Shared, it would cost
# a statement to read, and on SQLite a write under the saves' one write lock to keep (the database
# cache), or a server of its own (memcached, Redis) for at most one answer more per worker and
# revision. An answer is about 25 KB and useful for seconds (the next save moves the revision on):
# 500 of them, for a minute at most, bound a worker's memory to about 12 MB.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "apiary_cache",
        # Past MAX_ENTRIES the cache culls entries, live counters included: allow plenty.
        "OPTIONS": {"MAX_ENTRIES": 20_000},
    },
    "pad": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "pad-answers",
        "TIMEOUT": 60,
        "OPTIONS": {"MAX_ENTRIES": 500},
    },
}

# The abuse limits (scoring/web/limits.py): per rule, at most N requests per S seconds, as (N, S),
# counted per "session" (one phone: its browser's own session, signed in or not), per "user" (a
# signed-in account: every phone it is signed in on, together), per client "address" (every phone
# behind it together), per "account" name typed, and per "visitor" (an address's requests without
# an account only). A rule or kind left out is not limited.
# Each one is set from the environment, as RATE_LIMIT_<RULE>_<KIND>=N/S or =off, e.g.
# RATE_LIMIT_SAVE_ADDRESS=20000/60 (apiary_site/rate_limits.py reads them, and stops the site at
# start-up on one it cannot read). docs/operations.md says why each is what it is.
#
# Saving, opening share links and starting games are what a club does from behind one address (a
# club's router): so they are limited per phone, and per address only by a ceiling that a club
# never meets, against a flood.
_RATE_LIMITS = {
    # Signing in is counted per account name typed from each address (a stranger's guesses never
    # lock its owner out), and per address high enough for a club signing in behind one router.
    "login": {"address": (100, 900), "account": (10, 900)},
    "signup": {"address": (60, 3600)},
    "password_reset": {"address": (10, 3600), "account": (3, 3600)},
    # A phone opens a table's link once or twice a game; a script guessing links, thousands.
    "join": {"session": (30, 600), "address": (600, 600)},
    # Saving. One phone typing as fast as one can (a value every 0.5 s is 120 a minute; a stepper's
    # taps are sent one at a time) stays under 300 a minute; a script sends thousands. An
    # account's phones together (its owner signed in on each phone of the table): 1,500, a
    # five-player table's phones each at its own limit, or two such tables typing their final
    # scoring as fast as they can (2 × 5 × 120 = 1,200).
    # Per address, what a club behind one router must never meet: at the benchmark's pace
    # (docs/performance.md) 24 tables of 4 phones, a value every 2 s each, send 2,880 a minute.
    # At a game's end every player types the final scoring at once, as fast as one can (120 a
    # minute): with every table ending in the same minute (a round called at once), 24 tables of
    # 5 players send 24 × 5 × 120 = 14,400 a minute. Hence 15,000. That is more than one server
    # saves at all (a hundred or two a second, docs/performance.md): it no longer guards the
    # server's time against one address's flood of sessions (the reverse proxy's limits are for
    # that); it bounds what one address writes, and each phone and account are still limited.
    "save": {"session": (300, 60), "user": (1500, 60), "address": (15000, 60)},
    # Starting a game needs no account: a table starts one every half hour or so, a script
    # thousands (each a stored game). Per address, a club's phones starting at once. A visitor's
    # games (no account) are kept by its session for a year and deleted only once nobody can
    # reach them (clear_abandoned_games): a script discarding its cookies stored about 280 MB a
    # day under the address's ceiling. So the starts without an account are counted per address
    # too, lower: 100 an hour is 24 tables of visitors behind one router each starting two
    # games in that hour, with room; an account's games are not counted there.
    "start": {"session": (30, 600), "address": (300, 600), "visitor": (100, 3600)},
    # An account's game files: checked (each read whole) and imports started (each then goes on in
    # steps, not counted), per account (its browsers together); per address a ceiling for a
    # club's accounts together.
    "upload": {"user": (30, 600), "address": (300, 600)},
    "import": {"user": (10, 600), "address": (100, 600)},
}
RATE_LIMITS = rate_limits(_RATE_LIMITS, os.environ)
# Behind reverse proxies that append the client's address to X-Forwarded-For, how many there are
# (0: the client's address is REMOTE_ADDR). A request without an address (a server on a unix
# socket gives an empty REMOTE_ADDR) is counted per session instead, never not at all.
RATE_LIMIT_PROXIES = int(os.environ.get("RATE_LIMIT_PROXIES") or "0")

# Game files waiting to be added (scoring/services/uploads.py): a checked upload waits in the
# database (scoring.models.WaitingFile) until it is added or cancelled, or its session signs out,
# an hour at most from the upload that took its place: sending another file replaces it in that
# place, never for longer. One waits per session, and the waiting room is bounded per account
# (its other browsers and devices), per client address (as the rate limits count it: one person
# signing in to many accounts, or a club's phones behind one router) and on the whole site, in
# files and in megabytes (a file is at most 2 MB), so that no one address can take every place.
# Accounts made fewer than IMPORT_NEW_ACCOUNT_DAYS ago are bounded tighter: one file each, and
# a share of the room for all of them together, so that accounts made for the purpose, from as
# many networks as one likes, never take the places of the site's members.
# An upload past a bound is refused in words, with what to do and until when; what waits stays.
IMPORT_WAITING_PER_ACCOUNT = int(os.environ.get("IMPORT_WAITING_PER_ACCOUNT") or 2)
IMPORT_WAITING_PER_ADDRESS = int(os.environ.get("IMPORT_WAITING_PER_ADDRESS") or 5)
IMPORT_WAITING_PER_ADDRESS_MB = int(os.environ.get("IMPORT_WAITING_PER_ADDRESS_MB") or 10)
IMPORT_WAITING_TOTAL = int(os.environ.get("IMPORT_WAITING_TOTAL") or 50)
IMPORT_WAITING_TOTAL_MB = int(os.environ.get("IMPORT_WAITING_TOTAL_MB") or 50)
IMPORT_NEW_ACCOUNT_DAYS = int(os.environ.get("IMPORT_NEW_ACCOUNT_DAYS") or 7)
IMPORT_WAITING_PER_NEW_ACCOUNT = int(os.environ.get("IMPORT_WAITING_PER_NEW_ACCOUNT") or 1)
IMPORT_WAITING_NEW_ACCOUNTS = int(os.environ.get("IMPORT_WAITING_NEW_ACCOUNTS") or 10)
IMPORT_WAITING_NEW_ACCOUNTS_MB = int(os.environ.get("IMPORT_WAITING_NEW_ACCOUNTS_MB") or 10)

# Accounts: Django's own (its default ModelBackend), signed in by a session cookie. Sessions are
# Django's database sessions: a table every worker and every server shares, and a session flushed
# (signing out) loses its row, so it ends at once, everywhere (a changed password ends the
# account's other sessions too: Django checks each session's password hash). Not signed cookies:
# a copy of the cookie would stay valid until it expires, whatever the server does. Not cached_db:
# the cache is a table of the same database (CACHES below), so reading it costs a statement as
# reading the session table does, and every change of a session would cost two.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
# A visitor (scoring without an account) owns its games through its session alone (scoring/access.py):
# its session lasts this long from the latest game it started (an account's, Django's two weeks
# from its latest change), so a table that plays every few months finds its games again.
VISITOR_SESSION_AGE = 60 * 60 * 24 * 365
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "scoring:history"
LOGOUT_REDIRECT_URL = "scoring:history"
# Django's validators, each saying its refusal in the app's words (scoring/forms/passwords.py).
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "scoring.forms.passwords.UserAttributeSimilarityValidator"},
    {"NAME": "scoring.forms.passwords.MinimumLengthValidator"},
    {"NAME": "scoring.forms.passwords.CommonPasswordValidator"},
    {"NAME": "scoring.forms.passwords.NumericPasswordValidator"},
]
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # a reset link works for a day

# Mail (password reset links), through Django's MAILERS: SMTP from the environment (EMAIL_HOST,
# EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS or EMAIL_USE_SSL); in development
# without EMAIL_HOST the mails are printed on the console. Without DEBUG and EMAIL_HOST, the SMTP
# server on localhost (port 25) is used.
_EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
_EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
_EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
if _EMAIL_USE_TLS and _EMAIL_USE_SSL:
    raise ImproperlyConfigured("Set EMAIL_USE_TLS or EMAIL_USE_SSL, not both.")
MAILERS: dict[str, dict[str, object]]
if DEBUG and not _EMAIL_HOST:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
else:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": _EMAIL_HOST or "localhost",
                "port": int(os.environ.get("EMAIL_PORT") or (587 if _EMAIL_USE_TLS else 465 if _EMAIL_USE_SSL else 25)),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": _EMAIL_USE_TLS,
                "use_ssl": _EMAIL_USE_SSL,
                "timeout": 10,  # seconds: a mail server that does not answer never holds a worker for long
            },
        }
    }
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL") or "Apiary Scorepad <webmaster@localhost>"

LANGUAGE_CODE = "en"
LANGUAGE_COOKIE_SAMESITE: Literal["Lax"] = "Lax"  # (Django sets none by default; the session's and CSRF's are Lax)
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["apiary_site.formats"]  # (French thousands: a narrow no-break space, « 1 500 »)
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")  # where collectstatic puts them
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "apiary_site.storage.StaticFilesStorage"  # (WhiteNoise's, the modules' imports hashed too)
        )
    },
}

# In development WhiteNoise serves straight from the apps' static folders (no collectstatic).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# Everything the pages load comes from our own origin: no CDN, no inline script.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "manifest-src": [CSP.SELF],  # the web app manifest (scoring/views/install.py); default-src says so too
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# HTTPS, on by default in production (DEBUG off); HTTPS=false for a plain-HTTP pad on a LAN.
HTTPS = env_bool("HTTPS", not DEBUG)
if HTTPS:
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # a load balancer's health check may come over HTTP
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS") or 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", True)
    # Preloading asks browsers' makers to list the domain for good: the site's owner's decision.
    SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", False)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True  # the language switch's cookie too, as every cookie of the site
else:
    # Over plain HTTP (a table's laptop on a home network, apiary_site/table.py) a browser ignores
    # Cross-Origin-Opener-Policy from any address but its own machine's, and says so in the console
    # of every page: not sent where it cannot work.
    SECURE_CROSS_ORIGIN_OPENER_POLICY = None
if not env_bool("HSTS_PRELOAD", False):
    SILENCED_SYSTEM_CHECKS = ["security.W021"]  # not preloading is a choice (above), not an oversight
# Only behind a reverse proxy that sets it (and strips it from what clients send) may a header say
# the request came over HTTPS: PROXY_SSL_HEADER=X-Forwarded-Proto.
_PROXY_SSL_HEADER = os.environ.get("PROXY_SSL_HEADER", "").strip()
if _PROXY_SSL_HEADER:
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + _PROXY_SSL_HEADER.upper().replace("-", "_"), "https")

# The phone side's timing (the pages read it: tests shorten it). A pad asks for the other phones'
# saves every PAD_POLL_MS while it is shown; a value is saved when the player presses Next, leaves
# the field, or stops typing for PAD_SAVE_PAUSE_MS (long enough to look at the board between the
# numbers of a sum; a sum that cannot be complete yet, "7+", is never saved); the service worker
# shows a page's copy when the network gives no answer within PAD_NETWORK_WAIT_MS.
PAD_POLL_MS = int(os.environ.get("PAD_POLL_MS") or 2000)
PAD_SAVE_PAUSE_MS = int(os.environ.get("PAD_SAVE_PAUSE_MS") or 2000)
PAD_NETWORK_WAIT_MS = int(os.environ.get("PAD_NETWORK_WAIT_MS") or 10000)
# A page's copy on the phone opens offline for as long as its session lasts, and at most this long
# after it was kept (a game night and the morning after): a session ended on another device (a
# password changed there) goes unheard of while the phone is offline (scoring/views/offline.py).
OFFLINE_COPY_SECONDS = int(os.environ.get("OFFLINE_COPY_SECONDS") or 12 * 60 * 60)

# Request limits (apiary_site/bodies.py): a save posts a few hundred bytes and the pad without
# JavaScript some kilobytes; a body over 256 KB is refused (413 in words) before it is read, file
# parts too (the first upload handler), except on the import: a game file of 2 MB
# (scoring.forms.MAX_UPLOAD_BYTES) and its form. Under either limit a file part stays in memory
# (FILE_UPLOAD_MAX_MEMORY_SIZE, 2.5 MB): nothing is written to the temporary folder.
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 2000
FILE_UPLOAD_HANDLERS = [
    "apiary_site.bodies.BodyLimitUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Every line goes through the one filter (apiary_site/logs.py), on the handlers, whoever logs
    # it: a share link's token is never written, and a refusal (4xx, django.security.*) is one line.
    "filters": FILTERS,
    "formatters": {
        # (runserver's request log, as Django writes it)
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["request_log"]},
        "django.server": {"class": "logging.StreamHandler", "formatter": "django.server", "filters": ["request_log"]},
    },
    "loggers": {
        # Django's own loggers write to the handler above only (not to Django's default handlers
        # too: its console in development, its mail to ADMINS, none of them through the filter).
        "django": {"level": "INFO"},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
