# The two commands of the README. Each installs what it needs by itself.
.PHONY: run dev test check bench screenshots

run:  ## Serve the table: the app for the phones on this network, on port $${PORT:-8000} (SQLite)
	@scripts/run.sh

dev:  ## Development mode: runserver on 127.0.0.1, DEBUG on, reloading on every change
	@scripts/dev.sh

test:  ## Run the whole test suite, browser journeys included
	@scripts/test.sh

check:  ## The fast checks, in seconds: style, migrations, Django's checks, the phone side's unit tests
	@scripts/check.sh

bench:  ## Every figure of docs/performance.md against its baseline and budget (ARGS="--help" lists the options)
	@scripts/bench.sh $(ARGS)

screenshots:  ## Take the README's pictures again (docs/images/), with the browser tests' Chromium
	@DOCS_IMAGES=1 scripts/test.sh tests/browser/test_screenshots.py -q
