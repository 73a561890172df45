"""The files shipped beside the code — prompt sets, the bundled model's draft head and privacy report,
the identifier evaluation set — kept as package data in this package, and found through
``importlib.resources`` so they are where the package is: a checkout, an installed wheel or a frozen bundle."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import app


def _package_folder() -> Path:
    # Every way this package is installed (a checkout, a wheel, an editable install, PyInstaller's
    # one-folder bundle) puts it on disk as plain files, so the folder is a real path that glob() and
    # the safetensors loader can open. A zipped install would need importlib.resources.as_file().
    folder = Path(str(files(__name__)))
    if not folder.is_dir():
        raise RuntimeError(f"splitchat's resource folder {folder} is not a folder on disk")
    return folder


RESOURCES = _package_folder()
BENCH_PROMPTS = RESOURCES / "bench_prompts.json"
# Written apart from the bench's prompts and the draft head's training prompts, and never trained on.
HELD_OUT_BENCH_PROMPTS = RESOURCES / "bench_prompts_heldout.json"
DRAFT_PROMPTS = RESOURCES / "draft_prompts.json"
SHIPPED_DRAFT_HEADS = RESOURCES / "drafts"
SHIPPED_PRIVACY_REPORTS = RESOURCES / "privacy"  # the bundled model's measured privacy report
IDENTIFIER_SET = RESOURCES / "identifiers"
WINDOW_ICON = RESOURCES / "splitchat.png"  # a copy of packaging/assets/splitchat.png, for the window

# The folder holding ``app/`` (a checkout, or a frozen bundle's root): ``python -m app…`` subprocesses
# run from here, and the bench finds the checkout's packaging/ files beside it. Not for the data files.
CODE_ROOT = Path(app.__file__).resolve().parent.parent
