"""How splitchat's processes let OpenMP's idle threads wait, chosen before torch loads (no torch here).

The workstation mostly waits on the worker and the worker computes while it waits; on a machine that
runs both (the embedded default) each one's idle threads must not take the cores the other is using,
and the one computing must keep its own threads awake between its matrix products.
"""

from __future__ import annotations

# Commands whose process spends most of each decode step waiting for the worker's answer.
WAITING_COMMANDS = (None, "ask")  # None: no subcommand, the desktop app

# Set beside OMP_WAIT_POLICY when splitchat chose the policy itself, not the user.
POLICY_MARK = "SPLITCHAT_OMP_WAIT_POLICY_SET"


def thread_wait_policy(argv: list[str], environ) -> str | None:
    """The OpenMP wait policy to set for a command line, or None to leave the library default.

    Every decode step waits a round trip on the worker, and OpenMP's default keeps a process's idle
    threads spinning after each parallel region (briefly with GNU OpenMP, 200 ms with Intel's, which
    torch uses on Windows). Spinning burns the cores an embedded worker on the same machine needs, so
    the commands that wait sleep instead (the worker keeps the default, ``worker_environment``).
    Compute-only commands (bench, privacy, train-draft) keep the default: sleeping threads wait to be
    woken for every matrix product. A policy the user set wins. docs/BENCH.md has the figures.
    """
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    if command not in WAITING_COMMANDS or "OMP_WAIT_POLICY" in environ:
        return None
    return "PASSIVE"


def apply_thread_wait_policy(argv: list[str], environ) -> None:
    """Set the policy for this command line in ``environ`` (before torch loads: OpenMP reads it once)."""
    policy = thread_wait_policy(argv, environ)
    if policy:
        environ["OMP_WAIT_POLICY"] = policy
        environ[POLICY_MARK] = "1"


def worker_environment(environ) -> dict[str, str]:
    """A worker process's environment: this one's, less a sleeping-threads policy splitchat set for itself.

    The worker computes while the app waits; with PASSIVE inherited its threads would sleep between every
    parallel region of every step. A policy the user set is passed on unchanged.
    """
    env = dict(environ)
    if env.pop(POLICY_MARK, None) is not None:
        env.pop("OMP_WAIT_POLICY", None)
    return env
