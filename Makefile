# The two commands of the README. Each installs what it needs by itself.
.PHONY: run test bench

run:  ## Run the app on http://127.0.0.1:$${PORT:-8000} (SQLite)
	@scripts/run.sh

test:  ## Run the whole test suite, browser journeys included
	@scripts/test.sh

bench:  ## Measure the save path against a baseline and print the figures
	@scripts/bench.sh
