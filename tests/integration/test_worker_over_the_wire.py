"""A real worker process on loopback: exact output, typed errors for bad input, and refusal of bad shards."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys

import pytest
import torch
import zstandard
from safetensors import safe_open
from safetensors.torch import save_file
from websockets.asyncio.client import connect

from app.engine.decode.edge import LocalEdge
from app.engine.decode.session import SplitSession
from app.engine.link.export import expected_fingerprint, export_worker_shard
from app.engine.link.link_codes import WorkerError
from app.engine.link.middle import MiddleBlock
from app.engine.link.transport import RemoteMiddle
from app.engine.source.specs import resolve_model
from app.model.choices import SplitSpec
from app.model.kv_cache import CacheEdit
from app.wire.frames import decode_frame, encode_frame, tensor_to_bytes
from app.wire.shard_format import MANIFEST, WEIGHTS, Manifest, file_sha256, tensors_fingerprint
from app.wire.worker_tokens import issue_token
from tests.helpers import assert_greedy_matches, reference_greedy

SPLIT = SplitSpec(2, 2)


@pytest.fixture(scope="module")
def tiny_worker(tiny_models, workers, tmp_path_factory):
    """A worker serving layers [2, 4) of the tiny Llama; yields (source, worker, shard folder)."""
    folder, _ = tiny_models["llama"]
    source = resolve_model(str(folder))
    shard = tmp_path_factory.mktemp("shard") / "llama-2-4"
    export_worker_shard(source, SPLIT, shard)
    return source, workers(shard, max_frame=64 * 1024), shard


async def _connect(source, worker, endpoint=None, **kwargs) -> RemoteMiddle:
    options = dict(expected_fingerprint=expected_fingerprint(source, SPLIT), wire_dtype="float32")
    return await RemoteMiddle.connect(endpoint or worker.endpoint, worker.token, **{**options, **kwargs})


def test_exported_shard_holds_only_the_middle_layers(tiny_worker):
    source, _, shard = tiny_worker
    with safe_open(shard / WEIGHTS, framework="pt") as handle:
        names = list(handle.keys())
    assert names and all(n.startswith(("model.layers.2.", "model.layers.3.")) for n in names)
    assert not any(word in n for n in names for word in ("embed", "lm_head", "model.norm"))
    # .splitchat-owned: the export's record of the files it wrote (what a re-export may replace)
    assert sorted(p.name for p in shard.iterdir()) == [".splitchat-owned", "README.md", "config.json", "manifest.json",
                                                       WEIGHTS]  # fmt: skip
    config = json.loads((shard / "config.json").read_text())
    assert "vocab_size" not in config and "bos_token_id" not in config
    manifest = Manifest.read(shard)
    assert (manifest.first_layer, manifest.last_layer, manifest.num_layers) == (2, 4, 6)
    assert manifest.files[WEIGHTS] == file_sha256(shard / WEIGHTS)
    assert manifest.fingerprint == expected_fingerprint(source, SPLIT)


def test_split_over_the_wire_matches_unsplit_generate(tiny_models, tiny_worker):
    source, worker, _ = tiny_worker
    _, model = tiny_models["llama"]

    async def run(prompt):
        middle = await _connect(source, worker)
        try:
            return (await SplitSession(LocalEdge(source, SPLIT), middle).generate(prompt, 20)).tokens
        finally:
            await middle.close()

    for prompt in ([5, 6, 7], list(range(100, 160))):
        assert_greedy_matches(model, prompt, asyncio.run(run(prompt)), reference_greedy(model, prompt, 20))


def test_long_prompt_is_chunked_into_frames_under_the_cap(tiny_models, tiny_worker):
    source, worker, _ = tiny_worker
    _, model = tiny_models["llama"]
    prompt = [(i * 7) % 300 + 1 for i in range(480)]  # 480 x 64 float32 = 123 kB, over the 64 KiB cap

    async def run():
        middle = await _connect(source, worker)
        try:
            return await SplitSession(LocalEdge(source, SPLIT), middle).generate(prompt, 8)
        finally:
            await middle.close()

    generation = asyncio.run(run())
    assert generation.stats.steps[0].frames >= 2
    assert_greedy_matches(model, prompt, generation.tokens, reference_greedy(model, prompt, 8))


@pytest.mark.parametrize("wire_dtype", ["float32", "bfloat16"])
def test_compressed_frames_carry_the_same_bits_in_fewer_bytes(tiny_models, tiny_worker, wire_dtype):
    """Both directions compressed through a byte-counting link: the middle's output is bit-identical to
    the raw wire's, so are the greedy tokens (the unsplit model's, on a float32 wire), and fewer bytes
    cross each way. The session's first block crops the worker's cache back to empty."""
    from app.bench.latency_proxy import LinkProfile, ProxyThread

    source, worker, _ = tiny_worker
    _, model = tiny_models["llama"]
    prompt = [(i * 11) % 300 + 1 for i in range(300)]  # several frames under the 64 KiB cap
    torch.manual_seed(1)
    hidden = torch.randn(1, 200, 64) * 0.5
    host, port = worker.endpoint.removeprefix("ws://").rsplit(":", 1)

    async def run(proxy, compress):
        via = f"ws://127.0.0.1:{proxy.port}"
        middle = await _connect(source, worker, compress=compress, wire_dtype=wire_dtype, endpoint=via)
        middle.min_compressed_bytes = 1024  # the tiny model's frames are a few KB; the bundled one's 100s
        try:
            up, down = proxy.bytes_up, proxy.bytes_down
            reply = await middle.forward(hidden, list(range(200)))
            moved = (proxy.bytes_up - up, proxy.bytes_down - down)
            tokens = (await SplitSession(LocalEdge(source, SPLIT), middle).generate(prompt, 12)).tokens
            return middle.codec, reply, moved, tokens
        finally:
            await middle.close()

    with ProxyThread(host, int(port), LinkProfile(0.0, 0.0, 0.0)) as proxy:
        raw_codec, raw, raw_bytes, raw_tokens = asyncio.run(run(proxy, False))
        codec, packed, packed_bytes, tokens = asyncio.run(run(proxy, True))
    assert (raw_codec, codec) == (None, "zstd-planes")
    assert raw.frames == packed.frames >= 2
    assert torch.equal(packed.hidden.view(torch.int8), raw.hidden.view(torch.int8))
    assert packed_bytes[0] < raw_bytes[0] and packed_bytes[1] < raw_bytes[1]
    assert tokens == raw_tokens
    if wire_dtype == "float32":  # bfloat16 rows round what a float32 worker computed; compression adds nothing
        assert_greedy_matches(model, prompt, tokens, reference_greedy(model, prompt, 12))


def test_a_streamed_block_goes_as_whole_passes_and_a_lone_one_as_a_pipeline(tiny_worker):
    from app.model.layers import LayerStack

    source, worker, _ = tiny_worker
    torch.manual_seed(2)
    hidden = torch.randn(1, 300, 64) * 0.5

    async def one_block():
        yield MiddleBlock(hidden, list(range(300)))

    async def run(streamed):
        middle = await _connect(source, worker)
        try:
            if streamed:
                return [reply async for reply in middle.stream(one_block(), 2)][0]
            return await middle.forward(hidden, list(range(300)))
        finally:
            await middle.close()

    pipeline, whole = asyncio.run(run(False)), asyncio.run(run(True))
    assert pipeline.frames == 5  # 64-row frames (the pipeline's floor)
    assert whole.frames == 2  # as large as the 64 KiB cap allows (250 rows), under a pass (256)
    expected = LayerStack.from_source(source, 2, 4)(hidden, torch.arange(300))
    torch.testing.assert_close(pipeline.hidden, expected, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(whole.hidden, expected, atol=1e-5, rtol=1e-5)


def test_a_streamed_prefill_keeps_two_blocks_in_flight_and_carries_the_same_layers(tiny_worker):
    from app.model.layers import LayerStack

    source, worker, _ = tiny_worker
    torch.manual_seed(3)
    hidden = torch.randn(1, 400, 64) * 0.5  # the tiny model holds 512 positions
    starts = range(0, 400, 100)

    async def run():
        middle = await _connect(source, worker)
        received, pulled_after, outputs = [], [], []

        async def blocks():
            for start in starts:
                pulled_after.append(len(received))  # how many replies were back when this block was made
                rows = hidden[:, start : start + 100]
                yield MiddleBlock(rows, list(range(start, start + 100)), CacheEdit(crop=start))

        try:
            async for reply in middle.stream(blocks(), 2):
                received.append(reply)
                outputs.append(reply.hidden)
        finally:
            await middle.close()
        return pulled_after, outputs

    pulled_after, outputs = asyncio.run(run())
    # Blocks left before the reply to the one before was back (in turn, this would be [0, 1, 2, 3]);
    # none left more than one block ahead of the replies (two in flight).
    assert any(seen < index for index, seen in enumerate(pulled_after))
    assert all(seen >= index - 1 for index, seen in enumerate(pulled_after))
    expected = LayerStack.from_source(source, 2, 4)(hidden, torch.arange(400))
    torch.testing.assert_close(torch.cat(outputs, dim=1), expected, atol=1e-5, rtol=1e-5)


def test_frames_waiting_for_their_reply_never_exceed_the_window(tiny_worker, monkeypatch):
    """A client far ahead of a slow worker queued the answer to the worker's keepalive ping behind its
    unread frames, and a 16,000-token prefill lost its connection; frames in flight are now bounded."""
    from app.engine.link import transport
    from app.model.layers import LayerStack

    monkeypatch.setattr(transport, "MAX_FRAMES_IN_FLIGHT", 2)
    source, worker, _ = tiny_worker
    torch.manual_seed(5)
    hidden = torch.randn(1, 400, 64) * 0.5

    class Counting:
        """The client's WebSocket, counting the frames it sent that have no reply yet."""

        def __init__(self, ws):
            self.ws, self.waiting, self.most = ws, 0, 0

        async def send(self, frame):
            self.waiting += 1
            self.most = max(self.most, self.waiting)
            await self.ws.send(frame)

        async def recv(self):
            message = await self.ws.recv()
            self.waiting -= 1
            return message

        def __getattr__(self, name):
            return getattr(self.ws, name)

    async def blocks():
        for start in range(0, 400, 50):
            yield MiddleBlock(hidden[:, start : start + 50], list(range(start, start + 50)), CacheEdit(crop=start))

    async def run():
        middle = await _connect(source, worker)
        counting = middle._ws = Counting(middle._ws)
        try:
            piped = await middle.forward(hidden, list(range(400)), edit=CacheEdit(crop=0))
            most_piped, counting.most = counting.most, 0
            streamed = [reply.hidden async for reply in middle.stream(blocks(), 8)]
        finally:
            await middle.close()
        return piped, most_piped, torch.cat(streamed, dim=1), counting.most

    piped, most_piped, streamed, most_streamed = asyncio.run(run())
    assert piped.frames == 7 and (most_piped, most_streamed) == (2, 2)
    expected = LayerStack.from_source(source, 2, 4)(hidden, torch.arange(400))
    torch.testing.assert_close(piped.hidden, expected, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(streamed, expected, atol=1e-5, rtol=1e-5)


def test_a_refused_block_ends_a_stream_with_its_code_and_the_connection_stays_in_step(tiny_worker):
    from app.model.layers import LayerStack

    source, worker, _ = tiny_worker
    torch.manual_seed(4)
    hidden = torch.randn(1, 40, 64) * 0.5
    # The second block reaches past the context: the worker refuses it; the third went before it knew.
    positions = [list(range(0, 10)), list(range(10_000, 10_010)), list(range(20, 30)), list(range(30, 40))]

    async def blocks():
        for block_positions in positions:
            yield MiddleBlock(hidden[:, :10], block_positions)

    async def run():
        middle = await _connect(source, worker)
        yielded = []
        try:
            with pytest.raises(WorkerError) as caught:
                async for reply in middle.stream(blocks(), 2):
                    yielded.append(reply)
            # Every reply to what went was read: the next request gets its own reply.
            again = await middle.forward(hidden, list(range(40)), edit=CacheEdit(crop=0))
        finally:
            await middle.close()
        return caught.value.code, len(yielded), again

    code, yielded, again = asyncio.run(run())
    assert code == "context_too_long" and yielded == 1
    expected = LayerStack.from_source(source, 2, 4)(hidden, torch.arange(40))
    torch.testing.assert_close(again.hidden, expected, atol=1e-5, rtol=1e-5)


def test_wrong_or_missing_token_gets_401(tiny_worker):
    source, worker, _ = tiny_worker
    for token in ("not-the-token", ""):
        with pytest.raises(WorkerError) as caught:
            asyncio.run(RemoteMiddle.connect(worker.endpoint, token))
        assert caught.value.code == "unauthorized"


def test_unreachable_worker_is_a_clear_error():
    with pytest.raises(WorkerError) as caught:
        asyncio.run(RemoteMiddle.connect("ws://127.0.0.1:9", "t", open_timeout=3))
    assert caught.value.code == "unreachable"


def test_fingerprint_or_layer_mismatch_is_refused_by_the_client(tiny_worker):
    source, worker, _ = tiny_worker
    with pytest.raises(WorkerError) as caught:
        asyncio.run(_connect(source, worker, expected_fingerprint="sha256:" + "0" * 64))
    assert caught.value.code == "fingerprint_mismatch"
    with pytest.raises(WorkerError) as caught:
        asyncio.run(_connect(source, worker, expected_layers=(1, 5)))
    assert caught.value.code == "layer_mismatch"
    # Another split depth means other layers and other weights: the depth is the cause a person can fix.
    with pytest.raises(WorkerError) as caught:
        asyncio.run(_connect(source, worker, expected_fingerprint="sha256:" + "0" * 64, expected_layers=(1, 5)))
    assert caught.value.code == "layer_mismatch" and "split depth 1" in str(caught.value)


async def _raw_exchange(worker, frames: list[bytes | str], token: str | None = None) -> list[dict]:
    """Send hand-made frames on one authenticated connection; return the reply headers."""
    token = token or worker.token
    async with connect(
        worker.endpoint,
        additional_headers={"Authorization": f"Bearer {token}"},
        compression=None,
        proxy=None,
        max_size=None,
    ) as ws:
        assert decode_frame(await ws.recv()).header["type"] == "hello"
        replies = []
        for frame in frames:
            await ws.send(frame)
            replies.append(decode_frame(await ws.recv()).header)
        return replies


def _forward(session: str, shape, payload: bytes, seq: int = 1, **extra) -> bytes:
    return encode_frame(
        {"type": "forward", "seq": seq, "session": session, "shape": shape, "dtype": "float32", "pos": 0, **extra},
        payload,
    )


def test_bad_input_gets_typed_errors_and_the_worker_keeps_serving(tiny_models, tiny_worker):
    source, worker, _ = tiny_worker
    _, model = tiny_models["llama"]

    async def scenario():
        # A healthy session opened first must survive everything below.
        middle = await _connect(source, worker)
        good_session = SplitSession(LocalEdge(source, SPLIT), middle)
        before = (await good_session.generate([9, 8, 7], 5)).tokens
        other_token = issue_token(worker.token_file)  # a second client of the same worker
        opened = await _raw_exchange(worker, [encode_frame({"type": "open", "seq": 1})], other_token)
        sid = opened[0]["session"]
        row = tensor_to_bytes(torch.zeros(1, 64), "float32")
        replies = await _raw_exchange(
            worker,
            [
                b"\x00\x00\x00\x09{not json",  # malformed header
                b'\x16\x00\x00\x00{"v":99,"type":"open"}',  # wrong protocol version
                "a text frame",
                _forward(sid, [2, 64], row),  # bytes for 1 row, shape says 2
                _forward(sid, [1, 32], row[: 32 * 4]),  # wrong hidden size
                _forward("f" * 32, [1, 64], row),  # unknown session
                _forward(middle.session, [1, 64], row),  # someone else's session, even with its id
                encode_frame({"type": "dance", "seq": 9}),
                _forward(sid, [1, 64], row, pos=10_000),  # past the model's context
                _forward(sid, [1, 64], row, crop=50),  # crop beyond the cache
                _forward(sid, [1, 64], row, codec="gzip"),  # a codec the worker does not speak
                _forward(sid, [1, 64], zstandard.ZstdCompressor().compress(bytes(1 << 24)), codec="zstd-planes"),
                _forward(sid, [1, 64], row, seq=11),  # and a valid request still works on this connection
            ],
            other_token,
        )
        after = (await good_session.generate([9, 8, 7, *before, 4], 5)).tokens
        await middle.close()
        return before, replies, after

    before, replies, after = asyncio.run(scenario())
    codes = [r.get("code") for r in replies[:-1]]
    assert codes == [
        "malformed",
        "bad_version",
        "malformed",
        "shape_mismatch",
        "shape_mismatch",
        "unknown_session",
        "unknown_session",
        "bad_request",
        "context_too_long",
        "bad_request",
        "bad_request",
        "shape_mismatch",  # 16 MiB packed in a few KB, where the shape allows 256 bytes: refused unread
    ]
    assert replies[-1]["type"] == "result" and replies[-1]["seq"] == 11
    assert_greedy_matches(model, [9, 8, 7], before, reference_greedy(model, [9, 8, 7], 5))
    conversation = [9, 8, 7, *before, 4]
    assert_greedy_matches(model, conversation, after, reference_greedy(model, conversation, 5))


def test_oversized_frame_gets_a_typed_error(tiny_worker):
    _, worker, _ = tiny_worker
    big = encode_frame({"type": "open", "seq": 1}, b"\x00" * (70 * 1024))
    (reply,) = asyncio.run(_raw_exchange(worker, [big]))
    assert reply["code"] == "frame_too_large"


def _worker_exit(shard, tmp_path) -> subprocess.CompletedProcess:
    tokens = tmp_path / "tokens.txt"
    issue_token(tokens)
    return subprocess.run(
        [sys.executable, "-m", "app.remote_worker", "--shard", str(shard), "--token-file", str(tokens), "--port", "0"],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_worker_refuses_a_shard_with_an_embedding_tensor(tiny_worker, tmp_path):
    _, _, shard = tiny_worker
    bad = tmp_path / "bad"
    bad.mkdir()
    for name in ("config.json", "README.md"):
        (bad / name).write_bytes((shard / name).read_bytes())
    with safe_open(shard / WEIGHTS, framework="pt") as handle:
        tensors = {n: handle.get_tensor(n) for n in handle.keys()}
    tensors["model.embed_tokens.weight"] = torch.zeros(320, 64)
    save_file(tensors, bad / WEIGHTS)
    manifest = json.loads((shard / MANIFEST).read_text())
    manifest["files"][WEIGHTS] = file_sha256(bad / WEIGHTS)
    manifest["fingerprint"] = tensors_fingerprint(sorted(tensors.items()))  # a consistent manifest does not help
    (bad / MANIFEST).write_text(json.dumps(manifest))
    result = _worker_exit(bad, tmp_path)
    assert result.returncode == 1
    assert "model.embed_tokens.weight" in result.stderr and "outside layers" in result.stderr


def test_worker_refuses_a_shard_whose_files_do_not_match_the_manifest(tiny_worker, tmp_path):
    _, _, shard = tiny_worker
    bad = tmp_path / "tampered"
    bad.mkdir()
    for name in ("config.json", "README.md", MANIFEST, WEIGHTS):
        (bad / name).write_bytes((shard / name).read_bytes())
    weights = bytearray((bad / WEIGHTS).read_bytes())
    weights[-1] ^= 0xFF
    (bad / WEIGHTS).write_bytes(bytes(weights))
    result = _worker_exit(bad, tmp_path)
    assert result.returncode == 1 and "does not match the SHA-256" in result.stderr


def test_worker_refuses_a_folder_that_is_not_a_shard(tiny_models, tmp_path):
    folder, _ = tiny_models["llama"]  # a whole model folder
    result = _worker_exit(folder, tmp_path)
    assert result.returncode == 1 and "manifest.json" in result.stderr


@pytest.mark.parametrize("wire_dtype, tolerance", [("float16", 2e-2), ("bfloat16", 1e-1)])
def test_half_precision_wire_carries_the_middle_output(tiny_worker, wire_dtype, tolerance):
    from app.model.layers import LayerStack

    source, worker, _ = tiny_worker
    local = LayerStack.from_source(source, 2, 4)
    torch.manual_seed(0)
    hidden = torch.randn(1, 12, 64)

    async def run():
        middle = await _connect(source, worker, wire_dtype=wire_dtype)
        try:
            return await middle.forward(hidden, list(range(12)))
        finally:
            await middle.close()

    reply = asyncio.run(run())
    assert reply.hidden.dtype == getattr(torch, wire_dtype)
    expected = local(hidden, torch.arange(12))
    torch.testing.assert_close(reply.hidden.float(), expected, atol=tolerance, rtol=tolerance)


def test_embedded_worker_exits_when_its_parent_dies(tiny_worker):
    import socket
    import time

    _, _, shard = tiny_worker
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import sys, time\n"
                "from app.engine.link.local_worker import LocalWorker\n"
                f"worker = LocalWorker({str(shard)!r})\n"
                "print(worker.start()[0], flush=True)\n"
                "time.sleep(600)\n"
            ),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    endpoint = parent.stdout.readline().strip()
    host, port = endpoint.removeprefix("ws://").rsplit(":", 1)
    socket.create_connection((host, int(port)), timeout=5).close()  # it is serving
    parent.kill()  # no clean-up code runs in the parent
    parent.wait()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection((host, int(port)), timeout=1).close()
        except OSError:
            return
        time.sleep(0.2)
    pytest.fail("the worker kept listening after its parent was killed")


def test_a_handshake_with_two_tokens_is_refused_as_401_and_refusals_do_not_flood_the_log(tiny_worker):
    """Two Authorization headers once made the worker answer 500 with a traceback; each refusal logged a line."""
    import http.client
    from urllib.parse import urlsplit

    _, worker, _ = tiny_worker
    address = urlsplit(worker.endpoint)
    before = worker._log_tail().count("refused")

    def handshake(*tokens: str) -> int:
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
        connection.putrequest("GET", "/")
        for name, value in (("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13")):
            connection.putheader(name, value)
        connection.putheader("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
        for token in tokens:
            connection.putheader("Authorization", f"Bearer {token}")
        connection.endheaders()
        status = connection.getresponse().status
        connection.close()
        return status

    assert handshake(worker.token, worker.token) == 401
    assert handshake("wrong") == 401
    for _ in range(50):
        handshake("wrong")
    log_text = worker._log_tail()
    # A 500 status, not the milliseconds of a log line's timestamp ("17:02:51,500").
    assert "Traceback" not in log_text and not re.search(r"(?<![,.\d])\b500\b", log_text)
    assert log_text.count("refused") - before <= 2  # one line per interval, with a count


def test_a_refused_request_leaves_the_session_cache_as_it_was(tiny_worker):
    """The crop of a request refused as context_too_long used to be applied before the refusal."""
    _, worker, _ = tiny_worker

    async def scenario():
        token = issue_token(worker.token_file)
        sid = (await _raw_exchange(worker, [encode_frame({"type": "open", "seq": 1})], token))[0]["session"]
        rows = tensor_to_bytes(torch.zeros(4, 64), "float32")
        row = tensor_to_bytes(torch.zeros(1, 64), "float32")
        return await _raw_exchange(
            worker,
            [
                _forward(sid, [4, 64], rows, seq=2),  # four positions cached
                _forward(sid, [1, 64], row, seq=3, crop=0, pos=10_000),  # refused: past the context
                _forward(sid, [2, 64], rows[: 2 * 64 * 4], seq=4, keep={"start": 0, "indices": [0, 0]}),
                _forward(sid, [1, 64], row, seq=5, pos=4),  # the cache must still hold the four
            ],
            token,
        )

    replies = asyncio.run(scenario())
    assert [r.get("code") for r in replies[1:3]] == ["context_too_long", "malformed"]
    assert replies[3]["type"] == "result" and replies[3]["cache_len"] == 5


def test_deleting_a_token_closes_its_idle_connections_and_no_one_elses(tiny_worker):
    from app.wire.worker_tokens import token_hash

    _, worker, _ = tiny_worker
    revoked, kept = issue_token(worker.token_file), issue_token(worker.token_file)

    async def idle(token: str):
        ws = await connect(worker.endpoint, additional_headers={"Authorization": f"Bearer {token}"}, proxy=None)
        assert decode_frame(await ws.recv()).header["type"] == "hello"
        return ws

    async def scenario():
        doomed, staying = await idle(revoked), await idle(kept)
        lines = worker.token_file.read_text().splitlines()
        worker.token_file.write_text("\n".join(line for line in lines if line != token_hash(revoked)) + "\n")
        await asyncio.wait_for(doomed.wait_closed(), timeout=10)  # nothing was sent on it meanwhile
        code = doomed.close_code
        await staying.send(encode_frame({"type": "open", "seq": 1}))
        reply = decode_frame(await staying.recv()).header
        await staying.close()
        return code, reply

    code, reply = asyncio.run(scenario())
    assert code == 1008 and reply["type"] == "opened"


def test_connections_are_capped_per_token_and_in_all_and_idle_ones_are_closed(tiny_split, start_worker):
    from websockets.exceptions import InvalidStatus

    _, _, shard = tiny_split
    limits = ("--max-connections", "3", "--max-connections-per-token", "2", "--idle-timeout", "3")
    worker = start_worker(shard, extra_args=limits)
    second_token, third_token = issue_token(worker.token_file), issue_token(worker.token_file)

    async def opened(token: str):
        ws = await connect(worker.endpoint, additional_headers={"Authorization": f"Bearer {token}"}, proxy=None)
        assert decode_frame(await ws.recv()).header["type"] == "hello"
        return ws

    async def refused(token: str) -> str:
        with pytest.raises(InvalidStatus) as caught:
            await opened(token)
        return f"{caught.value.response.status_code} {caught.value.response.body.decode().strip()}"

    async def scenario():
        mine = [await opened(worker.token), await opened(worker.token)]
        over_mine = await refused(worker.token)
        theirs = await opened(second_token)
        over_all = await refused(third_token)
        await asyncio.wait_for(theirs.wait_closed(), timeout=10)  # silent for 3 s: closed by the worker
        idle_code = theirs.close_code
        for ws in mine:
            await ws.close()
        return over_mine, over_all, idle_code

    over_mine, over_all, idle_code = asyncio.run(scenario())
    assert over_mine == "503 this token's connection limit is reached"
    assert over_all == "503 the worker's connection limit is reached"
    assert idle_code == 1001


def test_a_client_that_stops_reading_is_dropped_after_the_send_timeout(tiny_split, start_worker):
    """A client that sends without reading fills both socket buffers: the worker's send stalls and, with it,
    its reading of that client. It must drop the client rather than wait on it forever."""
    from websockets.exceptions import ConnectionClosed

    _, _, shard = tiny_split
    worker = start_worker(shard, extra_args=("--send-timeout", "2"))
    rows = 480
    payload = tensor_to_bytes(torch.randn(rows, 64), "float32")

    async def scenario():
        headers = {"Authorization": f"Bearer {worker.token}"}
        ws = await connect(worker.endpoint, additional_headers=headers, proxy=None, max_queue=1, max_size=None)
        assert decode_frame(await ws.recv()).header["type"] == "hello"
        await ws.send(encode_frame({"type": "open", "seq": 0}))
        session = decode_frame(await ws.recv()).header["session"]

        async def flood():  # never reads: ~60 MB of replies, far more than loopback's buffers hold
            for seq in range(1, 500):
                await ws.send(_forward(session, [rows, 64], payload, seq, crop=0))

        started = asyncio.get_running_loop().time()
        try:
            await asyncio.wait_for(flood(), timeout=60)  # without a send timeout both sides wait forever
        except ConnectionClosed:
            return asyncio.get_running_loop().time() - started
        return None

    dropped_after = asyncio.run(scenario())
    # Dropped, not waited on: seconds on a quiet machine, 27 s seen with the CPU shared (the worker computes
    # what it already read before its send stalls), so the bound is what "not forever" needs.
    assert dropped_after is not None and dropped_after < 50
    assert worker.alive()
