# Two commands on a fresh machine: `make run` and `make test`.
# Each creates .venv and installs what it needs the first time.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint serve screenshots bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/creditscope

serve: $(STAMP)
	$(BIN)/creditscope serve

test: $(STAMP)
	$(BIN)/ruff check src tests tools benchmarks
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check src tests tools benchmarks

screenshots: $(STAMP)
	$(BIN)/python tools/make_screenshots.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .ruff_cache
