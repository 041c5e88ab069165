# Two commands on a fresh machine: `make run` and `make test`.
# Each creates .venv and installs exactly what uv.lock pins the first time
# (and again whenever pyproject.toml or uv.lock changes).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
UV := $(BIN)/uv
# uv is bootstrapped with pip at the exact version the lock pins for it (pyproject's dev group).
UV_PIN := $(shell grep -o '"uv==[^"]*"' pyproject.toml | tr -d '"')
# The venv uses the python3 that made it; uv never downloads an interpreter here.
export UV_PROJECT_ENVIRONMENT := $(VENV)
export UV_PYTHON_DOWNLOADS := never

.PHONY: run test lint lock serve screenshots bench clean chaos mutate

# Only when there is no uv yet: afterwards uv.lock pins uv like everything else.
$(UV):
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet '$(UV_PIN)'

# --locked: install uv.lock exactly, and fail if pyproject.toml changed without `make lock`.
$(STAMP): pyproject.toml uv.lock | $(UV)
	$(UV) sync --quiet --locked --group dev || { echo "make: if uv.lock is out of date" \
	    "with pyproject.toml, run '$(UV) lock' (or 'make lock') and commit uv.lock" >&2; exit 1; }
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/creditscope

serve: $(STAMP)
	$(BIN)/creditscope serve

# pytest-xdist: one worker per core and one more, since many tests wait (a Pilot pause, a
# served process, a slow client's timeout): on this 2-core machine 3 workers ran the suite
# in 5:15 where 2 took 6:28. Tests that share a server, a build or a file carry an
# xdist_group marker, and loadgroup keeps each group on one worker.
# `make test PYTEST_WORKERS=0` runs in one process; PYTEST_ARGS adds options (--durations=30).
PYTEST_WORKERS ?= $(shell echo $$(( $$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1) + 1 )))
PYTEST_ARGS ?=

# mypy reads its settings from pyproject.toml: strict below the explorer, checked everywhere.
# deptry: every package src/ imports is declared, and every declared one is used.
test: $(STAMP)
	$(BIN)/ruff check src tests tools benchmarks
	$(BIN)/mypy
	$(BIN)/deptry src
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

# Many random examples of the explorer chaos test (make test runs a few fixed ones).
CHAOS_EXAMPLES ?= 60
chaos: $(STAMP)
	CREDITSCOPE_CHAOS_RANDOM=1 CREDITSCOPE_CHAOS_EXAMPLES=$(CHAOS_EXAMPLES) CREDITSCOPE_CHAOS_STEPS=30 \
	    $(BIN)/python -m pytest -q tests/tui/test_chaos.py

lint: $(STAMP)
	$(BIN)/ruff check src tests tools benchmarks
	$(BIN)/mypy
	$(BIN)/deptry src

# On purpose only: move every pin in uv.lock to the newest release pyproject.toml allows.
lock: | $(UV)
	$(UV) lock --upgrade
	$(UV) sync --quiet --locked --group dev
	touch $(STAMP)

screenshots: $(STAMP)
	$(BIN)/python tools/make_screenshots.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .ruff_cache .mypy_cache mutants

# Mutation testing of the money, identity and export core (not part of `make test`):
# a score per module and every surviving mutant (tools/mutate.py; time in the README).
mutate: $(STAMP)
	$(BIN)/python tools/mutate.py
