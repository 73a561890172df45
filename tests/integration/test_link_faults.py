"""The link under faults: worker crashes, expired sessions, cut connections, TLS with and without a pin.

Real worker processes on loopback serve a tiny Llama; every recovered generation must equal
transformers' own greedy continuation token for token.
"""

from __future__ import annotations

import asyncio
import threading

import pytest

from app.bench.latency_proxy import LatencyProxy, LinkProfile
from app.engine.link.handshake import connect_with_retries
from app.engine.link.link_codes import WorkerError
from app.engine.link.local_worker import LocalWorker
from app.engine.link.transport import RemoteMiddle
from app.wire.tls import file_certificate_sha256
from tests.helpers import open_split_session, reference_greedy
from tests.integration.conftest import TINY_SPLIT as SPLIT

PROMPT = [5, 17, 42, 99, 3, 250, 77, 12, 8, 160]
NEW_TOKENS = 40


async def test_worker_killed_mid_generation_and_restarted_gives_identical_tokens(tiny_split, start_worker):
    source, model, shard = tiny_split
    worker = start_worker(shard)
    try:
        session, notices = await open_split_session(source, SPLIT, worker.endpoint, worker.token)

        def crash_at_token_12(token: int) -> None:
            if len(produced) == 11:
                worker.kill()  # the GPU box dies mid-answer…
                threading.Timer(1.0, worker.start).start()  # …and its service manager restarts it
            produced.append(token)

        produced: list[int] = []
        readings: list[tuple[int, int]] = []
        generation = await session.generate(
            PROMPT,
            NEW_TOKENS,
            on_token=crash_at_token_12,
            on_reading=lambda done, total: readings.append((done, total)),
        )
        assert generation.tokens == reference_greedy(model, PROMPT, NEW_TOKENS)
        assert any(n.startswith("Worker unreachable; reconnecting") for n in notices)
        assert notices[-1].startswith("Reconnected")
        # Reading the conversation again on the new session shows its progress, as a first read does.
        assert readings and readings[-1][0] == readings[-1][1] >= len(PROMPT) + 11
        await session.close()
    finally:
        worker.stop()


async def test_session_expired_between_turns_re_prefills_transparently(tiny_split, start_worker):
    source, model, shard = tiny_split
    worker = start_worker(shard, session_ttl_s=1.0)
    try:
        session, notices = await open_split_session(source, SPLIT, worker.endpoint, worker.token)
        first = await session.generate(PROMPT, 16)
        await asyncio.sleep(2.5)  # idle past the TTL: the worker's sweeper forgets the session
        turn_two = PROMPT + first.tokens + [31, 64, 128]
        second = await session.generate(turn_two, 16)
        assert second.tokens == reference_greedy(model, turn_two, 16)
        assert any("unknown_session" in n for n in notices)
        await session.close()
    finally:
        worker.stop()


async def test_connection_cut_mid_frame_resumes_with_identical_tokens(tiny_split, start_worker):
    source, model, shard = tiny_split
    worker = start_worker(shard)
    host, port = worker.endpoint.removeprefix("ws://").rsplit(":", 1)
    proxy = LatencyProxy(host, int(port), LinkProfile(rtt_ms=2))
    await proxy.start()
    try:
        session, notices = await open_split_session(source, SPLIT, f"ws://127.0.0.1:{proxy.port}", worker.token)

        def cut_at_token_9(token: int) -> None:
            if len(produced) == 8:
                proxy.cut_after(100)  # the next request frame gets 100 bytes through, then the link dies
            produced.append(token)

        produced: list[int] = []
        generation = await session.generate(PROMPT, NEW_TOKENS, on_token=cut_at_token_9)
        assert generation.tokens == reference_greedy(model, PROMPT, NEW_TOKENS)
        assert any("connection_lost" in n for n in notices)
        assert worker.alive()  # a half frame costs the worker nothing
        await session.close()
    finally:
        await proxy.close()
        worker.stop()


async def test_refusals_are_final_not_retried(tiny_split, start_worker):
    source, _, shard = tiny_split
    worker = start_worker(shard)
    try:
        with pytest.raises(WorkerError) as refused:
            await open_split_session(source, SPLIT, worker.endpoint, "not-a-token")
        assert refused.value.code == "unauthorized"

        def connect():
            return RemoteMiddle.connect(worker.endpoint, "still-not-a-token")

        started = asyncio.get_running_loop().time()
        with pytest.raises(WorkerError) as again:
            await connect_with_retries(connect, 30.0)
        assert again.value.code == "unauthorized" and asyncio.get_running_loop().time() - started < 5
    finally:
        worker.stop()


@pytest.fixture(scope="module")
def tls_worker(tiny_split, certificate):
    cert_file, key_file = certificate
    worker = LocalWorker(tiny_split[2], extra_args=("--tls-cert", str(cert_file), "--tls-key", str(key_file)))
    worker.start()
    yield worker
    worker.stop()


async def test_tls_worker_with_a_pinned_certificate_answers_exactly(tiny_split, certificate, tls_worker):
    source, model, _ = tiny_split
    assert tls_worker.endpoint.startswith("wss://127.0.0.1:")
    pin = file_certificate_sha256(certificate[0])
    colons = ":".join(pin[i : i + 2] for i in range(0, 64, 2)).upper()  # as `openssl x509 -fingerprint` prints
    session, _ = await open_split_session(source, SPLIT, tls_worker.endpoint, tls_worker.token, cert_sha256=colons)
    generation = await session.generate(PROMPT, 12)
    assert generation.tokens == reference_greedy(model, PROMPT, 12)
    await session.close()


async def test_tls_refuses_a_wrong_pin_an_unknown_issuer_and_a_pin_without_tls(tiny_split, tls_worker):
    source = tiny_split[0]
    with pytest.raises(WorkerError) as wrong:
        await open_split_session(source, SPLIT, tls_worker.endpoint, tls_worker.token, cert_sha256="ab" * 32)
    assert wrong.value.code == "pin_mismatch" and "Nothing was sent" in str(wrong.value)
    with pytest.raises(WorkerError) as unknown:
        await open_split_session(source, SPLIT, tls_worker.endpoint, tls_worker.token)
    assert unknown.value.code == "tls_unverified" and "pin" in str(unknown.value)
    plain = tls_worker.endpoint.replace("wss://", "ws://")
    with pytest.raises(WorkerError) as needs_tls:
        await open_split_session(source, SPLIT, plain, tls_worker.token, cert_sha256="ab" * 32)
    assert needs_tls.value.code == "tls_required"


async def test_tls_verifies_normally_against_the_trust_store(tiny_split, certificate, tls_worker, monkeypatch):
    # The system trust store, here holding the worker's own certificate (as a company CA would).
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate[0]))
    source, model, _ = tiny_split
    session, _ = await open_split_session(source, SPLIT, tls_worker.endpoint, tls_worker.token)
    assert (await session.generate(PROMPT, 6)).tokens == reference_greedy(model, PROMPT, 6)
    await session.close()


async def test_a_revoked_token_is_refused_at_once_even_on_an_open_connection(tiny_split, start_worker):
    from app.wire.worker_tokens import issue_token, token_hash

    source, _, shard = tiny_split
    worker = start_worker(shard)
    guest = issue_token(worker.token_file)
    session, _ = await open_split_session(source, SPLIT, worker.endpoint, guest)
    session.recovery.reconnect = None  # see the refusal itself
    await session.generate(PROMPT, 3)
    lines = worker.token_file.read_text().splitlines()
    worker.token_file.write_text("\n".join(line for line in lines if line != token_hash(guest)) + "\n")
    with pytest.raises(WorkerError) as dropped:
        await session.generate(PROMPT + [1, 2], 3)
    assert dropped.value.code == "connection_lost"
    with pytest.raises(WorkerError) as refused:
        await open_split_session(source, SPLIT, worker.endpoint, guest)
    assert refused.value.code == "unauthorized"
    owner, _ = await open_split_session(source, SPLIT, worker.endpoint, worker.token)  # others unaffected
    assert len((await owner.generate(PROMPT, 3)).tokens) == 3
