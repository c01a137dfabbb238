"""gunicorn's configuration for the site: `gunicorn apiary_site.wsgi -c gunicorn.conf.py`.

Threaded workers that a slow client cannot hold (apiary_site/serving.py), and gunicorn's logs
through the filter that keeps share links' and password-reset links' tokens out of Django's.
The reverse proxy in front still reads each request whole and times slow clients out
(docs/operations.md): this is the backstop when it does not.
"""

import os

# Threads, not a process a request: a client slow to send its request holds one thread of its
# worker, and only until its waiting allowance (GUNICORN_REQUEST_WAIT, 5 s in all) runs out,
# while the other threads go on answering.
worker_class = "apiary_site.serving.ThreadWorker"
workers = int(os.environ.get("GUNICORN_WORKERS") or 3)
threads = int(os.environ.get("GUNICORN_THREADS") or 4)

# A worker whose main loop is silent this long is replaced. With threads it is the worker's
# heartbeat, not a request's limit: a request is bounded by its client's allowance and by the
# database's own limits (a lock waited for 5 s at most: settings.DATABASES).
timeout = 30
# On a restart, the time left to the requests being answered.
graceful_timeout = 10
# An idle kept-alive connection is closed after this long. It holds no thread while it waits,
# and a phone polling every 2 s (PAD_POLL_MS) goes on using its connection.
keepalive = 5

# The error log and the access log (--access-logfile) through the site's one filter.
logger_class = "apiary_site.serving.Logger"
