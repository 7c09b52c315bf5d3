# Two entry points, each works on a fresh machine with only Python 3.11 and make:
#   make run   — set up the virtualenv and run the bot
#   make test  — set up the virtualenv and run every test (ruff and mypy included)
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

CHROMIUM := /usr/bin/chromium
# pytest-xdist workers: most of a test's time is spent waiting (the loopback Discord, the
# PostgreSQL server, the bot's own timers), so more workers than cores keep both cores busy.
TEST_WORKERS ?= 6

.PHONY: run test lint bench sync clean chromium postgres screenshots

$(STAMP): pyproject.toml constraints.txt
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is needed ($(PYTHON) not found)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip==26.3
	$(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[test,bench]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) bot.py

test: $(STAMP) chromium postgres
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup

# Debian's chromium, for the web pages' browser tests (Playwright drives it; it cannot download
# a browser of its own here). CI runs as root on Debian; elsewhere say once what is missing.
chromium:
	@[ -x $(CHROMIUM) ] || { echo "Installing Debian's chromium for the browser tests..."; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) \
	    >/dev/null 2>&1 || true; }
	@[ -x $(CHROMIUM) ] || echo "chromium could not be installed (run 'apt-get install chromium' as root); the browser tests will be skipped"

# PostgreSQL's server binaries: every store test also runs against a real PostgreSQL cluster
# that the tests start in a temporary folder (loopback/postgres_cluster.py) and stop. Debian's
# package where they are missing; without them `make test` stops here with one clear line.
PG_FOUND = { [ -x "$$(pg_config --bindir 2>/dev/null)/initdb" ] || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; }
postgres:
	@$(PG_FOUND) || { echo "Installing Debian's postgresql for the store tests..."; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) \
	    >/dev/null 2>&1 || true; }
	@$(PG_FOUND) || { echo "PostgreSQL's server (initdb, pg_ctl) is missing and could not be installed: run 'apt-get install postgresql' as root"; exit 1; }

# Refresh the web pages' pictures in docs/images from the browser tests.
screenshots: $(STAMP) chromium
	LAMABOT_SCREENSHOTS=1 $(PY) -m pytest tests/web/test_browser.py -k "screenshots or phone"

lint: $(STAMP)
	$(PY) -m ruff check .

bench: $(STAMP) postgres
	$(PY) -m benchmarks

sync: $(STAMP)
	$(PY) bot.py --sync

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
