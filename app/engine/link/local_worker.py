"""The embedded default: a worker process on loopback that this process starts, watches and stops."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from app.resources import CODE_ROOT
from app.thread_policy import worker_environment
from app.wire.limits import DEFAULT_MAX_FRAME
from app.wire.worker_tokens import issue_token, ready_endpoint

CLI_EXECUTABLE = "splitchat-cli"


def frozen_command() -> list[str]:
    """How a frozen app (the installers' bundle, which has no ``-m``) runs one of its own commands.

    The bundle's console executable, ``splitchat-cli``, beside the windowed one: its standard streams are
    the pipes it is given, where a windowed Windows program may have none. An older bundle with a single
    executable runs the commands itself.
    """
    executable = Path(sys.executable)
    cli = executable.with_name(CLI_EXECUTABLE + executable.suffix)
    return [str(cli)] if cli.is_file() else [str(executable)]


class LocalWorkerError(RuntimeError):
    """The local worker process did not start; the message carries its last output."""


class LocalWorker:
    """``python -m app.remote_worker`` on 127.0.0.1 with a fresh token known only to this process."""

    def __init__(
        self,
        shard: Path,
        device: str = "cpu",
        dtype: str = "auto",
        max_frame: int = DEFAULT_MAX_FRAME,
        session_ttl_s: float = 3600.0,
        port: int = 0,
        extra_args: tuple[str, ...] = (),
        shared_token: tuple[Path, str] | None = None,
    ):
        """``shared_token`` (token file, token) makes this worker admit another one's clients: replicas."""
        self.shard = Path(shard)
        self._shared_token = shared_token
        self.device, self.dtype, self.max_frame, self.session_ttl_s = device, dtype, max_frame, session_ttl_s
        self.port = port  # 0 picks a free port; a restart reuses the first one
        self.extra_args = tuple(extra_args)  # e.g. --tls-cert/--tls-key, limits
        self.endpoint: str | None = None
        self.token: str | None = None
        self._process: subprocess.Popen | None = None
        self._dir: tempfile.TemporaryDirectory | None = None

    def start(self, timeout_s: float = 120.0) -> tuple[str, str]:
        """Start the worker and wait until it listens; return (endpoint, token)."""
        self.launch()
        return self.wait_ready(timeout_s)

    def launch(self) -> None:
        """Start the process without waiting, so the caller can load its own half meanwhile."""
        if self._dir is None:  # a restart keeps the token (and so the clients) it had
            self._dir = tempfile.TemporaryDirectory(prefix="splitchat-worker-")
            if self._shared_token is not None:
                self.token = self._shared_token[1]
            else:
                self.token = issue_token(Path(self._dir.name) / "tokens.txt")
        folder = Path(self._dir.name)
        self._log = (folder / "worker.log").open("w+")
        frozen = getattr(sys, "frozen", False)
        entry = [*frozen_command(), "worker"] if frozen else [sys.executable, "-m", "app.remote_worker"]
        command = [
            *entry,
            "--shard",
            str(self.shard),
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--token-file",
            str(self.token_file),
            "--device",
            self.device,
            "--dtype",
            self.dtype,
            "--exit-with-parent",
            "--max-frame",
            str(self.max_frame),
            "--session-ttl",
            str(self.session_ttl_s),
            *self.extra_args,
        ]
        self._process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=self._log,
            stdin=subprocess.PIPE,
            text=True,
            env=worker_environment(os.environ),  # computes while this process waits: its own thread policy
            cwd=None if frozen else str(CODE_ROOT),
            # A console program started from the windowed app would open a console window of its own.
            creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0),
        )
        self._lines: queue.Queue[str | None] = queue.Queue()

        def read_stdout(stdout, lines) -> None:
            for line in stdout:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=read_stdout, args=(self._process.stdout, self._lines), daemon=True).start()

    def wait_ready(self, timeout_s: float = 120.0) -> tuple[str, str]:
        """Wait for the launched worker's "listening" line; return (endpoint, token)."""
        lines = self._lines
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=0.2)
            except queue.Empty:
                continue
            if line is None:
                break
            if (endpoint := ready_endpoint(line)) is not None:
                self.endpoint = endpoint
                self.port = int(self.endpoint.rsplit(":", 1)[1])
                return self.endpoint, self.token
        detail = self._log_tail()
        self.stop()
        raise LocalWorkerError(f"the local worker did not start: {detail or 'no output'}")

    @property
    def token_file(self) -> Path:
        """The worker's token file; appending a hash (issue_token) admits another client at once."""
        if self._shared_token is not None:
            return Path(self._shared_token[0])
        if self._dir is None:
            raise LocalWorkerError("the local worker is not running")
        return Path(self._dir.name) / "tokens.txt"

    def kill(self) -> None:
        """End the process abruptly (a crash, for tests); ``start`` brings it back on the same port and token."""
        if self._process is not None:
            self._process.kill()
        self._release()

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def stop(self) -> None:
        """Stop the process (terminate, then kill) and remove its token file."""
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
        self._release()
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None

    def _release(self) -> None:
        """Reap the ended process and close its pipes and log (the token folder stays)."""
        if self._process is not None:
            self._process.wait()
            for pipe in (self._process.stdin, self._process.stdout):
                if pipe:
                    pipe.close()
            self._process = None
        if getattr(self, "_log", None):
            self._log.close()
            self._log = None

    def _log_tail(self) -> str:
        try:
            self._log.flush()
            self._log.seek(0)
            return self._log.read()[-2000:].strip()
        except (OSError, ValueError, AttributeError):
            return ""

    def __enter__(self) -> LocalWorker:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
