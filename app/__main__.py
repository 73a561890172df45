"""`python -m app` is the `splitchat` command."""

from app.cli import main

raise SystemExit(main())
