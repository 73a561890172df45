"""Progress callbacks (``app.jobs.Progress``) shown on a terminal, for the command line.

On a terminal each job is one tqdm bar, a single line redrawn in place. Anywhere else (a pipe, a log
file, CI) the same calls become plain lines ``[ 42%] message``, with no carriage return and no escape
code, and only some of them: a job's first call, a new phase (the message's words before its first
number changed: "converting tensor 57/272 ..." is one phase however many tensors it names), every
``step`` of progress (10 points), a heartbeat after ``heartbeat_s`` without a line, and its end.
A conversion of hundreds of tensors so writes about a dozen lines, not hundreds.

A job starts with the first call after the previous one ended, or when the fraction goes back (the
next stage of a command reports its own 0..1); it ends at 1.0 or at ``close()``.
tqdm itself is imported only when a bar is drawn, so ``splitchat --help`` does not pay for it.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

_FIRST_NUMBER = re.compile(r"\d")


def phase_of(message: str) -> str:
    """The message's words before its first number: what stays the same while a loop counts."""
    match = _FIRST_NUMBER.search(message)
    return (message[: match.start()] if match else message).strip()


def plain_line(message: str, fraction: float) -> str:
    return f"[{min(max(fraction, 0.0), 1.0):4.0%}] {message}"


class TerminalProgress:
    """A ``Progress`` callback writing to ``stream`` (stderr when None, looked up at each call)."""

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        tty: bool | None = None,
        step: float = 0.10,
        heartbeat_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ):
        self._stream = stream
        self._tty = tty
        self.step = step
        self.heartbeat_s = heartbeat_s
        self.clock = clock
        self._lock = threading.Lock()
        self._open = False  # a job is under way
        self._fraction = 0.0  # its last fraction
        self._bar = None  # its tqdm bar, on a terminal
        self._printed: tuple[str, float, float] | None = None  # phase, fraction, time of the last plain line

    @property
    def stream(self) -> TextIO:
        return self._stream if self._stream is not None else sys.stderr

    def is_tty(self) -> bool:
        if self._tty is not None:
            return self._tty
        try:
            return bool(self.stream.isatty())
        except (AttributeError, ValueError):  # no isatty, or a closed stream
            return False

    def __call__(self, message: str, fraction: float) -> None:
        fraction = min(max(float(fraction), 0.0), 1.0)
        with self._lock:
            if self._open and fraction < self._fraction:
                self._end()
            first = not self._open
            self._open, self._fraction = True, fraction
            if self.is_tty():
                self._draw(message, fraction)
            else:
                self._print(message, fraction, first)
            if fraction >= 1.0:
                self._end()

    def write(self, line: str, stream: TextIO | None = None) -> None:
        """A line of its own (a log line, a result) that leaves any bar whole below it; on ``stream``
        (stdout for a command's results) or this display's own."""
        target = stream if stream is not None else self.stream
        with self._lock:
            if self._bar is not None:
                self._bar.write(line, file=target)
            else:
                print(line, file=target, flush=True)

    def close(self) -> None:
        """End the job under way, if any: its bar keeps its last state on a line of its own."""
        with self._lock:
            self._end()

    def __enter__(self) -> TerminalProgress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _end(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        self._open, self._fraction, self._printed = False, 0.0, None

    def _draw(self, message: str, fraction: float) -> None:
        columns, rows = self._size()
        width = columns - 45  # what the percentage, bar and times leave
        if len(message) > width > 10:
            message = message[: width - 1] + "…"
        if self._bar is None:
            from tqdm import tqdm

            self._bar = tqdm(
                total=1.0,
                initial=fraction,
                desc=message,
                file=self.stream,
                bar_format="{percentage:3.0f}%|{bar:24}| {desc} [{elapsed}<{remaining}]",
                ncols=columns,
                nrows=rows,
                leave=True,
            )
            return
        self._bar.set_description_str(message, refresh=False)
        self._bar.update(fraction - self._bar.n)

    def _size(self) -> tuple[int, int]:
        """The terminal's columns and rows; 80 by 24 where it says 0 (a new pseudo-terminal, on which
        tqdm would draw nothing) or cannot say."""
        try:
            size = os.get_terminal_size(self.stream.fileno())
        except (AttributeError, OSError, ValueError):
            size = os.terminal_size((0, 0))
        return size.columns or 80, size.lines or 24

    def _print(self, message: str, fraction: float, first: bool) -> None:
        now, phase = self.clock(), phase_of(message)
        last = self._printed
        due = (
            first
            or last is None
            or phase != last[0]
            or fraction >= 1.0
            or fraction - last[1] >= self.step - 1e-9
            or now - last[2] >= self.heartbeat_s
        )
        if due:
            print(plain_line(message, fraction), file=self.stream, flush=True)
            self._printed = (phase, fraction, now)


# The command line's one display on stderr: every subcommand reports through it.
stderr_progress = TerminalProgress()
