"""``python -m app.remote_worker`` — the same as ``splitchat worker``."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import threading
from pathlib import Path

from app.model.choices import DEVICE_CHOICES, DTYPE_CHOICES
from app.remote_worker.pass_policy import DEFAULT_MAX_GATHER_MS, DEFAULT_MAX_PASS_ROWS
from app.wire.limits import DEFAULT_MAX_FRAME
from app.wire.worker_tokens import READY_PREFIX


def add_worker_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--shard", required=True, type=Path, help="folder written by `splitchat export-worker`")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: every interface)")
    parser.add_argument("--port", type=int, default=8765, help="0 picks a free port")
    parser.add_argument("--token-file", required=True, type=Path, help="one 'sha256:<hex>' line per accepted token")
    parser.add_argument(
        "--device", default="auto", choices=DEVICE_CHOICES, help="where the layers run (auto: CUDA if any)"
    )
    parser.add_argument(
        "--dtype",
        default="auto",
        choices=DTYPE_CHOICES,
        help="compute dtype (auto: float32 on CPU, bfloat16 on CUDA)",
    )
    parser.add_argument("--max-frame", type=int, default=DEFAULT_MAX_FRAME, help="largest message in bytes")
    parser.add_argument("--session-ttl", type=float, default=300.0, help="idle seconds before a session expires")
    parser.add_argument("--max-sessions", type=int, default=64, help="sessions held at once, all tokens together")
    parser.add_argument("--max-sessions-per-token", type=int, default=16, help="sessions held at once for one token")
    parser.add_argument("--max-block", type=int, default=2048, help="most tokens in one forward request")
    parser.add_argument(
        "--max-pass-rows",
        type=int,
        default=DEFAULT_MAX_PASS_ROWS,
        help="most rows of all sessions computed in one batched pass; a longer prefill is cut into chunks so "
        "no session waits behind it for more than one pass (raise it on a GPU)",
    )
    parser.add_argument(
        "--max-gather-ms",
        type=float,
        default=DEFAULT_MAX_GATHER_MS,
        help="longest wait before a pass for sessions that usually return within it (0: never wait)",
    )
    parser.add_argument(
        "--max-kv-mb",
        type=float,
        default=8192,
        help="KV cache budget of all sessions together (MiB); the least recently used are evicted first",
    )
    parser.add_argument(
        "--max-kv-mb-per-token",
        type=float,
        help="KV cache budget of one token's sessions (MiB; default: a quarter of --max-kv-mb, so one client "
        "cannot hold the whole worker)",
    )
    parser.add_argument("--max-connections", type=int, default=256, help="open connections in all")
    parser.add_argument(
        "--max-connections-per-token", type=int, default=32, help="open connections presenting one token"
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=900.0,
        help="seconds without a message before closing (code 1001); pings do not count",
    )
    parser.add_argument(
        "--send-timeout",
        type=float,
        default=30.0,
        help="seconds a client may leave what the worker sends unread (a reply, a pong) before it is cut",
    )
    parser.add_argument(
        "--close-timeout",
        type=float,
        default=5.0,
        help="seconds a client may take to finish a closing handshake before it is cut",
    )
    parser.add_argument("--tls-cert", type=Path, help="PEM certificate: serve wss:// (docs/DEPLOY.md)")
    parser.add_argument("--tls-key", type=Path, help="PEM private key of --tls-cert")
    parser.add_argument(
        "--exit-with-parent",
        action="store_true",
        help="exit when standard input closes (an embedded worker dies with the app that started it)",
    )


def run_worker(args: argparse.Namespace) -> int:
    """Load the shard, listen, and serve until interrupted."""
    from app.model.devices import resolve_device, resolve_dtype
    from app.remote_worker.server import ConnectionLimits, WorkerServer, compute_thread
    from app.remote_worker.shard import ShardError, load_shard
    from app.remote_worker.tokens import TokenFile
    from app.wire.tls import server_context

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    compute = compute_thread()  # torch runs on this thread only, loading included (see compute_thread)
    try:
        device = resolve_device(args.device)
        dtype = resolve_dtype(args.dtype, device)
        shard = compute.submit(load_shard, args.shard, device=str(device), dtype=dtype).result()
        tokens = TokenFile(args.token_file)
        if bool(args.tls_cert) != bool(args.tls_key):
            raise ValueError("--tls-cert and --tls-key go together")
        tls = server_context(args.tls_cert, args.tls_key) if args.tls_cert else None
    except ValueError as exc:  # options that do not fit together: a usage error, as the CLI counts them
        print(f"splitchat worker: {exc}", file=sys.stderr)
        return 2
    except (ShardError, OSError) as exc:  # found while starting: a runtime failure
        print(f"splitchat worker: {exc}", file=sys.stderr)
        return 1
    server = WorkerServer(
        shard,
        tokens,
        args.max_frame,
        args.session_ttl,
        args.max_sessions,
        max_sessions_per_token=args.max_sessions_per_token,
        max_block=args.max_block,
        kv_budget_mb=args.max_kv_mb,
        kv_budget_per_token_mb=args.max_kv_mb_per_token or args.max_kv_mb / 4,
        limits=ConnectionLimits(
            total=args.max_connections,
            per_token=args.max_connections_per_token,
            idle_s=args.idle_timeout,
            send_s=args.send_timeout,
            close_s=args.close_timeout,
        ),
        compute=compute,
        max_pass_rows=args.max_pass_rows,
        max_gather_ms=args.max_gather_ms,
    )
    if args.max_pass_rows < 1:
        print("splitchat worker: --max-pass-rows must be at least 1", file=sys.stderr)
        return 2
    if args.exit_with_parent:
        threading.Thread(target=_exit_when_stdin_closes, daemon=True).start()

    async def main() -> None:
        listener = await server.start(args.host, args.port, tls)
        port = listener.sockets[0].getsockname()[1]
        scheme = "wss" if tls else "ws"
        # The parent of an embedded worker reads this line to learn the port.
        print(f"{READY_PREFIX}{scheme}://{args.host}:{port} fingerprint={server.hello.fingerprint}", flush=True)
        sweeper = asyncio.create_task(server.sweep_sessions(max(1.0, min(30.0, args.session_ttl / 4))))
        try:
            await listener.serve_forever()
        finally:
            sweeper.cancel()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0


def _exit_when_stdin_closes() -> None:
    # The parent holds the other end of our stdin; EOF means it is gone, however it died.
    sys.stdin.buffer.read()
    os._exit(0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="splitchat worker", description="Serve a splitchat shard's middle layers.")
    add_worker_arguments(parser)
    return run_worker(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
