# Kung Fu Arena: `make run` starts everything, `make test` runs the suite.
# Both create the virtual environment and install what they need first.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: run test install lint format bench clean

# setup.py builds the optional C kernels gameplay/rules/*/_fastplay.c (each
# skipped without a compiler); a change to one reinstalls, which recompiles them.
$(STAMP): pyproject.toml setup.py gameplay/rules/splitmix.h $(wildcard gameplay/rules/*/_fastplay.c)
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(PY) -m config.run

# pytest exits 5 when it collected nothing: that is a failure here, not a pass.
test: $(STAMP)
	@$(PY) -m pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: no tests were collected" >&2; exit 1; fi; \
	exit $$rc

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(STAMP)
	@for b in bench/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .ruff_cache .hypothesis
	find gameplay -name '*.so' -delete
