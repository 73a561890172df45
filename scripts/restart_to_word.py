"""How long a user waits after the worker comes back: a real worker serving the bundled model is killed
mid-answer and started again; the workstation reconnects, reads the conversation again on the new
session and goes on. Reports, for conversations of several lengths, the time from the restarted worker
listening to the next new word, the part of it spent re-reading, and whether the answer is the one an
uninterrupted run gives (docs/BENCH.md, "After a worker restart").

    .venv/bin/python scripts/restart_to_word.py [--lengths 250,1000,2000] [--split 2]

With TRACE=1 in the environment the timeline (kill, reconnect, each block re-read) goes to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.decode.edge import LocalEdge  # noqa: E402
from app.engine.decode.session import SplitSession  # noqa: E402
from app.engine.link.export import embedded_shard  # noqa: E402
from app.engine.link.handshake import connect_with_retries  # noqa: E402
from app.engine.link.local_worker import LocalWorker  # noqa: E402
from app.engine.link.worker_link import WorkerLink  # noqa: E402
from app.engine.source.specs import resolve_model  # noqa: E402
from app.engine.speculation.modes import Speculation  # noqa: E402
from app.model.choices import SplitSpec  # noqa: E402

_T0 = time.perf_counter()


def _trace(line: str) -> None:
    if os.environ.get("TRACE"):
        print(f"{time.perf_counter() - _T0:8.2f} {line}", file=sys.stderr, flush=True)


CLAUSE = "Clause {n}: the Tenant shall keep the Premises in good repair and pay the rent on the first day. "
KILL_AT = 8  # tokens into the answer
NEW_TOKENS = 24


async def _session(source, split: SplitSpec, worker: LocalWorker, notices: list[str]) -> SplitSession:
    link = WorkerLink.remote(source, split, worker.endpoint, worker.token, "float32")
    session = SplitSession(LocalEdge(source, split), await link.connect(), speculation=Speculation(mode="auto"))
    session.recovery.notice = lambda line: (notices.append(line), _trace(line))
    session.recovery.reconnect = lambda: connect_with_retries(link.connect, 60.0, notices.append)
    return session


async def _measure(source, split: SplitSpec, worker: LocalWorker, prompt: list[int]) -> dict:
    notices: list[str] = []
    clean = await _session(source, split, worker, notices)
    expected = (await clean.generate(prompt, NEW_TOKENS)).tokens
    await clean.close()

    session = await _session(source, split, worker, notices)
    produced: list[int] = []
    marks: dict[str, float] = {}

    def restart() -> None:
        worker.start()  # blocks until the new process listens
        marks["listening"] = time.perf_counter()
        _trace("listening")

    def on_token(token: int) -> None:
        if len(produced) == KILL_AT:
            worker.kill()
            marks["killed"] = time.perf_counter()
            _trace("killed")
            threading.Timer(1.0, restart).start()
        if "listening" in marks and "first_word" not in marks:
            marks["first_word"] = time.perf_counter()
        produced.append(token)

    def on_reading(done: int, total: int) -> None:
        _trace(f"reading {done}/{total}")
        if "killed" in marks and done == total:
            marks.setdefault("reread_done", time.perf_counter())

    generation = await session.generate(prompt, NEW_TOKENS, on_token=on_token, on_reading=on_reading)
    await session.close()
    listening = marks.get("listening", float("nan"))
    return {
        "conversation_tokens": len(prompt),
        "restart_to_listening_s": round(listening - marks.get("killed", listening), 2),
        "listening_to_first_word_s": round(marks.get("first_word", float("nan")) - listening, 2),
        "of_which_rereading_s": round(marks.get("reread_done", float("nan")) - listening, 2),
        "identical_to_uninterrupted": generation.tokens == expected,
    }


async def main_async(args: argparse.Namespace) -> None:
    source = resolve_model()
    split = SplitSpec(args.split, args.split)
    tokenizer = source.tokenizer()
    worker = LocalWorker(embedded_shard(source, split))
    worker.start()
    try:
        for length in (int(n) for n in args.lengths.split(",")):
            text, n = "", 0
            while len(tokenizer(text)["input_ids"]) < length:
                text += CLAUSE.format(n=n)
                n += 1
            prompt = tokenizer(text)["input_ids"][:length]
            row = await _measure(source, split, worker, prompt)
            row["load_average"] = round(os.getloadavg()[0], 1)
            print(json.dumps(row), flush=True)
    finally:
        worker.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", default="250,1000,2000", help="conversation lengths in tokens")
    parser.add_argument("--split", type=int, default=2, help="layers on each side")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
