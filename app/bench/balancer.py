"""HAProxy in front of local worker replicas, run with the shipped configuration (packaging/worker/haproxy.cfg).

Only what differs on one machine is changed: the address it listens on and the server lines. The
balancing, health checks, timeouts and TLS passthrough are the ones an admin deploys.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

from app.resources import CODE_ROOT

SHIPPED_CONFIG = CODE_ROOT / "packaging" / "worker" / "haproxy.cfg"


class BalancerError(RuntimeError):
    """HAProxy is missing or did not start; the message says which."""


def haproxy_binary() -> str | None:
    """The haproxy executable on PATH (or in /usr/sbin), or None."""
    return shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/usr/local/sbin")


def local_config(endpoints: list[str], port: int, shipped: Path = SHIPPED_CONFIG) -> str:
    """The shipped configuration listening on 127.0.0.1:``port`` in front of ``endpoints`` (ws:// or wss://)."""
    if not shipped.is_file():
        raise BalancerError(f"{shipped} is missing: replicas need a splitchat checkout")
    schemes = {urlsplit(endpoint).scheme for endpoint in endpoints}
    if len(schemes) != 1:
        raise BalancerError("replicas must all serve wss:// or all ws://")
    secure = schemes == {"wss"}
    lines = []
    for line in shipped.read_text().splitlines():
        stripped = line.strip()
        if stripped.startswith("server "):
            continue
        if stripped.startswith("bind "):
            line = f"    bind 127.0.0.1:{port}"
        if stripped.startswith("default-server") and not secure:
            line = line.replace(" check-ssl verify none", "")  # health checks speak what the workers speak
        lines.append(line)
    for number, endpoint in enumerate(endpoints, 1):
        address = urlsplit(endpoint).netloc
        lines.append(f"    server worker{number} {address}")
    return "\n".join(lines) + "\n"


class Balancer:
    """A foreground HAProxy process in front of ``endpoints``; ``endpoint`` is where clients connect."""

    def __init__(self, endpoints: list[str]):
        binary = haproxy_binary()
        if binary is None:
            raise BalancerError("HAProxy is not installed (Debian: apt-get install haproxy)")
        self._folder = tempfile.TemporaryDirectory(prefix="splitchat-haproxy-")
        self.port = _free_port()
        config = Path(self._folder.name) / "haproxy.cfg"
        config.write_text(local_config(endpoints, self.port))
        scheme = urlsplit(endpoints[0]).scheme
        self.endpoint = f"{scheme}://127.0.0.1:{self.port}"
        self._log = (Path(self._folder.name) / "haproxy.log").open("w+")
        check = subprocess.run([binary, "-c", "-q", "-f", str(config)], capture_output=True, text=True)
        if check.returncode != 0:
            raise BalancerError(f"HAProxy refused the configuration: {check.stderr.strip() or check.stdout.strip()}")
        self._process = subprocess.Popen([binary, "-db", "-f", str(config)], stdout=self._log, stderr=self._log)
        self._wait_listening()

    def _wait_listening(self, timeout_s: float = 15.0) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise BalancerError(f"HAProxy exited: {self.log_tail()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise BalancerError("HAProxy did not start listening")

    def log_tail(self) -> str:
        self._log.flush()
        self._log.seek(0)
        return self._log.read()[-2000:].strip()

    def stop(self) -> None:
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._log.close()
        self._folder.cleanup()

    def __enter__(self) -> Balancer:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
