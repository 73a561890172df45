"""Recovery from a lost worker session, in process: a middle that loses its session mid-answer, or mid-way
through a long prefill, is replaced, the conversation read again, and the answer is the uninterrupted one.
(tests/integration/test_link_faults.py does the same with real worker processes and a cut link.)"""

from __future__ import annotations

import asyncio

import pytest

from app.engine.decode.edge import LocalEdge
from app.engine.decode.session import SplitSession
from app.engine.link.link_codes import LinkErrorCode, WorkerError
from app.engine.link.middle import LocalMiddle
from app.engine.source.specs import resolve_model
from app.engine.speculation.modes import Speculation
from app.model.choices import SplitSpec
from tests.helpers import reference_greedy

SPLIT = SplitSpec(2, 2)
PROMPT = [7, 8, 9, 10, 11, 7, 8, 9, 10, 11, 7, 8]
LONG_PROMPT = [(7 * i) % 300 + 3 for i in range(160)]  # long enough to go as a stream


class _LosesItsSession(LocalMiddle):
    """A worker session that is lost (the link cut) on its ``lose_at``-th request: nothing of it survives."""

    def __init__(self, stack, lose_at: int, code: str = LinkErrorCode.CONNECTION_LOST):
        super().__init__(stack)
        self.requests, self.lose_at, self.code = 0, lose_at, code

    def _count(self) -> None:
        self.requests += 1
        if self.requests == self.lose_at:
            self.stack.reset()
            raise WorkerError(self.code, "the connection closed during a request")

    async def forward(self, hidden, positions, ancestry=None, edit=None, long_rope=False):
        self._count()
        return await super().forward(hidden, positions, ancestry, edit, long_rope)

    async def stream(self, blocks, depth=1):
        async for block in blocks:
            self._count()
            yield await super().forward(block.hidden, block.positions, None, block.edit, block.long_rope)


def _recovering_session(folder, mode: str, lose_at: int, code: str = LinkErrorCode.CONNECTION_LOST):
    """A session whose first middle loses its session at request ``lose_at`` (0: never); the fresh ones the
    recovery reconnects to do not. Returns (session, notices heard, every middle it was given)."""
    source = resolve_model(str(folder))
    fresh: list[LocalMiddle] = [_LosesItsSession(LocalMiddle.of(source, SPLIT).stack, lose_at, code)]
    session = SplitSession(LocalEdge(source, SPLIT), fresh[0], speculation=Speculation(mode=mode))
    notices: list[str] = []

    async def reconnect():
        fresh.append(LocalMiddle.of(source, SPLIT))
        return fresh[-1]

    session.recovery.notice = notices.append
    session.recovery.reconnect = reconnect
    return session, notices, fresh


@pytest.mark.parametrize("mode", ["sequential", "lookahead"])
def test_a_session_lost_mid_answer_is_replaced_and_the_answer_is_the_uninterrupted_one(tiny_models, mode):
    folder, model = tiny_models["llama"]
    session, notices, fresh = _recovering_session(folder, mode, lose_at=6)
    readings: list[tuple[int, int]] = []
    generation = asyncio.run(
        session.generate(PROMPT, 24, on_reading=lambda done, total: readings.append((done, total)))
    )
    assert generation.tokens == reference_greedy(model, PROMPT, 24)
    assert len(fresh) == 2 and session.middle is fresh[1]
    assert notices[0].startswith("Worker session lost (connection_lost)") and notices[-1].startswith("Reconnected")
    # The re-read of the conversation reports as a first read does: all of what was committed.
    assert readings and readings[-1][0] == readings[-1][1] > len(PROMPT)


def test_a_long_prefill_lost_part_way_starts_over_on_the_fresh_session(tiny_models):
    folder, model = tiny_models["llama"]
    session, notices, fresh = _recovering_session(folder, "sequential", lose_at=2, code="unknown_session")
    assert asyncio.run(session.generate(LONG_PROMPT, 6)).tokens == reference_greedy(model, LONG_PROMPT, 6)
    assert len(fresh) == 2 and any("unknown_session" in n for n in notices)


def test_a_lost_session_without_a_way_to_reconnect_is_an_error(tiny_models):
    folder, _ = tiny_models["llama"]
    session, notices, _ = _recovering_session(folder, "sequential", lose_at=3)
    session.recovery.reconnect = None
    with pytest.raises(WorkerError) as lost:
        asyncio.run(session.generate(PROMPT, 8))
    assert lost.value.code == "connection_lost" and notices == []


def test_reset_worker_leaves_the_worker_nothing_and_the_next_answer_reads_everything_again(tiny_models):
    folder, model = tiny_models["llama"]
    session, _, fresh = _recovering_session(folder, "sequential", lose_at=0)
    first = asyncio.run(session.generate(PROMPT, 4)).tokens
    asyncio.run(session.recovery.reset_worker())
    assert session.processed == [] and session.pending_keep is None and session.middle is fresh[1]
    turn_two = PROMPT + first + [31, 64]
    assert asyncio.run(session.generate(turn_two, 6)).tokens == reference_greedy(model, turn_two, 6)
