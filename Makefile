# Two entry points, each works on a fresh machine with only Python 3.11 and make:
#   make run   — set up the virtualenv, build the Activity and run the bot
#   make test  — set up the virtualenv, build the Activity and run every test (ruff and mypy included)
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

CHROMIUM := /usr/bin/chromium
# pytest-xdist workers: most of a test's time is spent waiting (the loopback Discord, the
# PostgreSQL server, the bot's own timers), so more workers than cores keep both cores busy.
TEST_WORKERS ?= 6

.PHONY: run test lint bench sync clean chromium postgres screenshots activity node

# The Discord Activity (activity/): TypeScript bundled by esbuild into web/static/activity/, which
# the bot serves under /activity/. Built here, from the lockfile, whenever a source changed;
# never committed, and nothing is downloaded when the bot runs.
NODE ?= node
NPM ?= npm
ACTIVITY_OUT := web/static/activity
ACTIVITY_SOURCES := $(wildcard activity/src/*) activity/build.mjs activity/tsconfig.json activity/package.json
ACTIVITY_MODULES := activity/node_modules/.package-lock.json

$(STAMP): pyproject.toml constraints.txt
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is needed ($(PYTHON) not found)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip==26.3
	$(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[test,bench]'
	touch $(STAMP)

run: $(STAMP) activity
	$(PY) bot.py

test: $(STAMP) chromium postgres activity
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

# Node and npm from Debian where they are missing (CI runs as root on Debian).
node:
	@command -v $(NPM) >/dev/null 2>&1 || { echo "Installing Debian's nodejs and npm for the Activity..."; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm) \
	    >/dev/null 2>&1 || true; }
	@command -v $(NPM) >/dev/null 2>&1 || { echo "npm is missing and could not be installed: run 'apt-get install nodejs npm' as root"; exit 1; }

$(ACTIVITY_MODULES): activity/package-lock.json
	@$(MAKE) --no-print-directory node
	cd activity && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $@

# Type-checked first (tsc --noEmit), then bundled; the folder is swapped in whole.
$(ACTIVITY_OUT)/index.html: $(ACTIVITY_MODULES) $(ACTIVITY_SOURCES)
	cd activity && $(NPM) run --silent check && $(NODE) build.mjs ../$(ACTIVITY_OUT)

activity: $(ACTIVITY_OUT)/index.html

# PostgreSQL's server binaries: every store test also runs against a real PostgreSQL cluster
# that the tests start in a temporary folder (loopback/postgres_cluster.py) and stop. Debian's
# package where they are missing; without them `make test` stops here with one clear line.
PG_FOUND = { [ -x "$$(pg_config --bindir 2>/dev/null)/initdb" ] || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; }
postgres:
	@$(PG_FOUND) || { echo "Installing Debian's postgresql for the store tests..."; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) \
	    >/dev/null 2>&1 || true; }
	@$(PG_FOUND) || { echo "PostgreSQL's server (initdb, pg_ctl) is missing and could not be installed: run 'apt-get install postgresql' as root"; exit 1; }

# Refresh the web pages' and the Activity's pictures in docs/images from the browser tests
# (with Debian's colour emoji font, so that names like an AI's show as Discord shows them).
EMOJI_FONT := /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf
screenshots: $(STAMP) chromium activity
	@[ -f $(EMOJI_FONT) ] || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y -qq fonts-noto-color-emoji) >/dev/null 2>&1 || true
	LAMABOT_SCREENSHOTS=1 $(PY) -m pytest tests/web/test_browser.py -k "screenshots or phone"
	LAMABOT_SCREENSHOTS=1 $(PY) -m pytest tests/activity/test_games.py

lint: $(STAMP)
	$(PY) -m ruff check .

bench: $(STAMP) postgres
	$(PY) -m benchmarks

sync: $(STAMP)
	$(PY) bot.py --sync

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis activity/node_modules $(ACTIVITY_OUT)
