"""Entry point of the frozen app: the same `splitchat` command (no arguments opens the window)."""

import multiprocessing

from app.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    raise SystemExit(main())
