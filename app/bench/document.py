"""``splitchat bench --document-tokens``: how long a user waits for the first word after pasting a long
document, over an emulated WAN, and where that time goes.

Each run opens a fresh worker session through the latency proxy (delay and a bandwidth cap each way),
sends a chat whose user message is a document of N tokens plus a short question, and stops at the first
answer token. The prefill step's timing splits the wait into this computer's compute, the worker's, the
(de)serialisation and the network; the proxy counts the bytes each way, and the link's share of the
network time is those bytes over the bandwidth. With ``ahead`` the document was sent while the user was
still typing (``SplitSession.prefill_ahead``) and Send runs only the question.

Projections for larger models scale the measured bytes per row with the hidden size; they are labelled
as such, because the worker compute they would add is not measured here.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from app.bench.core_affinity import core_halves, pin_this_process
from app.bench.latency_proxy import LinkProfile, ProxyThread
from app.engine.chat import UNSETTLED_TOKENS, stop_token_ids
from app.engine.decode.edge import LocalEdge
from app.engine.decode.session import AHEAD_CHUNK_ROWS, SplitSession
from app.engine.link.worker_link import WorkerLink
from app.engine.source.specs import resolve_model
from app.engine.speculation.modes import Speculation
from app.jobs import Progress
from app.model.choices import Mode, SplitSpec
from app.model.devices import resolve_device, resolve_dtype, wire_dtype_for
from app.resources import IDENTIFIER_SET
from app.wire.frames import WIRE_DTYPES

QUESTION = "Summarise the obligations of each party in three bullet points, with the clause numbers."
# Published shapes the wait is projected to: (label, hidden size).
SHAPES = (("1B (Llama 3.2 1B)", 2048), ("8B (Llama 3.1 8B)", 4096), ("12B (Mistral Nemo)", 5120), ("70B", 8192))
# The scenarios: the document was pasted this long before Send, and long enough for it to be all sent.
# (The bench starts sending at the paste; the app waits 0.7 s after the last keystroke.)
LEADS_S = (15.0, 120.0)


@dataclass(frozen=True)
class DocumentRun:
    document_tokens: int
    prompt_tokens: int
    rtt_ms: float
    bandwidth_mbps: float  # 0 = unlimited
    ahead: bool  # the document went to the worker while the user typed; Send ran the rest
    lead_s: float  # how long before Send it was pasted (0 without prefill while typing)
    ttft_s: float  # Send to the first answer token, wall clock
    # A long prefill streams (SplitSession._stream), so these parts overlap rather than add up:
    local_s: float  # this computer's compute not hidden under the wire (before the first block left, after the last)
    worker_s: float  # the worker's compute for it, every pass added up
    serialization_s: float  # packing and unpacking on both ends, added up
    network_s: float  # the rest of the step: the link (transmission each way and the round trip)
    upload_bytes: int  # counted by the proxy, client to worker, during the step
    download_bytes: int
    upload_s: float  # upload_bytes over the bandwidth (0 when unlimited)
    download_s: float
    ahead_s: float  # how long the prefill while typing took (the lead time if it was still running at Send)
    ahead_finished: bool  # it was all sent before Send
    first_token: int
    compressed: bool = False  # large frames went compressed both ways (wire/codecs.py)
    cores_apart: bool = False  # the worker and this computer each on half of the cores (core_affinity.py)


@dataclass(frozen=True)
class Projection:
    """The link's part of the wait for a published shape, from the measured bytes per row (a projection)."""

    shape: str
    hidden_size: int
    document_tokens: int
    bandwidth_mbps: float
    rtt_ms: float
    upload_s: float
    download_s: float
    serial_link_s: float  # upload + download + a round trip: the link's part when nothing overlaps
    overlapped_link_s: float  # the slower direction + a round trip: both directions at once (full duplex)


def document_text(tokens: int, tokenizer) -> str:
    """About ``tokens`` tokens of legal and clinical prose, from the shipped identifier evaluation set."""
    documents = json.loads((IDENTIFIER_SET / "evaluation.json").read_text(encoding="utf-8"))["documents"]
    parts, count = [], 0
    while count < tokens:
        for document in documents:
            parts.append(document["text"].strip())
            count += len(tokenizer(document["text"], add_special_tokens=False)["input_ids"]) + 2
            if count >= tokens:
                break
    ids = tokenizer("\n\n".join(parts), add_special_tokens=False)["input_ids"][:tokens]
    return tokenizer.decode(ids)


def run_document_bench(
    spec: str,
    split: SplitSpec,
    document_tokens: list[int],
    rtt_ms: float,
    bandwidths_mbps: list[float],
    ahead: bool = True,
    log: Callable[[str], None] = print,
    device: str = "auto",
    dtype: str = "auto",
    wire_dtype: str | None = None,
    compression: tuple[bool, ...] = (True,),
    cores_apart: bool = False,
    progress: Progress | None = None,
) -> list[DocumentRun]:
    """Every (document size, bandwidth, compression), cold (prefill at Send) and, with ``ahead``, prefilled
    while typing. With ``cores_apart`` the worker and this process each get half of the cores, as two
    machines would (``core_affinity``). ``progress`` hears of the model's conversion (first use only),
    then of each run as it starts (a 16,000-token run takes minutes on a CPU)."""
    halves = core_halves() if cores_apart else None
    source = resolve_model(spec, progress)
    limit = source.config.max_position_embeddings - 64
    too_long = [n for n in document_tokens if n > limit]
    if too_long:
        log(f"skipped {too_long}: longer than this model's context ({source.config.max_position_embeddings})")
    sizes = [n for n in document_tokens if n <= limit]
    torch_device = resolve_device(device)
    torch_dtype = resolve_dtype(dtype, torch_device)
    wire = wire_dtype or wire_dtype_for(torch_dtype)
    edge = LocalEdge(source, split, torch_device, torch_dtype)
    tokenizer = source.tokenizer()
    stops = stop_token_ids(source, tokenizer)
    if halves:
        pin_this_process(halves.worker)  # the worker starts with these cores, and one thread each
    link = WorkerLink.embedded(source, split, wire, device=device, dtype=dtype)
    if halves:
        pin_this_process(halves.app)
    runs: list[DocumentRun] = []
    leads = (0.0, *LEADS_S) if ahead else (0.0,)
    total = len(bandwidths_mbps) * len(sizes) * len(compression) * len(leads)
    try:
        link.wait_ready()
        host, port = link.endpoint.removeprefix("ws://").rsplit(":", 1)
        for mbps in bandwidths_mbps:
            with ProxyThread(host, int(port), LinkProfile(rtt_ms, 0.0, mbps)) as proxy:
                for tokens in sizes:
                    text = document_text(tokens, tokenizer)
                    messages = [{"role": "user", "content": f"{text}\n\n{QUESTION}"}]
                    prompt = list(
                        tokenizer.apply_chat_template(
                            messages, add_generation_prompt=True, tokenize=True, return_dict=False
                        )
                    )
                    pasted = [{"role": "user", "content": text}]
                    typed = tokenizer.apply_chat_template(pasted, tokenize=False, add_generation_prompt=False)
                    document_end = len(tokenizer(typed, add_special_tokens=False)["input_ids"]) - UNSETTLED_TOKENS
                    for compress in compression:
                        for lead in leads:
                            if progress:
                                when = f"pasted {lead:g} s before Send" if lead else "cold"
                                what = f"{tokens} tokens at {mbps:g} Mbit/s, {when}"
                                progress(f"document run {len(runs) + 1}/{total}: {what}", len(runs) / total)
                            early = document_end if lead else 0
                            run = asyncio.run(
                                _one_run(edge, link, proxy, stops, prompt, early, tokens, rtt_ms, mbps, lead, compress)
                            )
                            runs.append(replace(run, cores_apart=cores_apart))
                            log(describe(run))
    finally:
        link.close()
    if progress and total:
        progress(f"document run {total}/{total} done", 1.0)
    return runs


async def _one_run(
    edge: LocalEdge,
    link: WorkerLink,
    proxy: ProxyThread,
    stops: list[int],
    prompt: list[int],
    ahead_tokens: int,
    document_tokens: int,
    rtt_ms: float,
    mbps: float,
    lead_s: float = 0.0,
    compress: bool = True,
    chunk_rows: int = AHEAD_CHUNK_ROWS,
) -> DocumentRun:
    edge.crop(0)
    middle = await link.connect(via=f"ws://127.0.0.1:{proxy.port}", compress=compress)
    session = SplitSession(edge, middle, stops, Speculation(mode=Mode.SEQUENTIAL))
    try:
        ahead_s = 0.0
        sent = finished = False
        if ahead_tokens:  # pasted ``lead_s`` before Send; Send stops the prefill after its chunk, as a reply does
            started = time.perf_counter()
            typing = asyncio.ensure_future(
                session.prefill_ahead(prompt[:ahead_tokens], chunk_rows, should_stop=lambda: sent)
            )
            await asyncio.wait([typing], timeout=lead_s)
            finished = typing.done()
            ahead_s = time.perf_counter() - started if finished else lead_s
        up, down = proxy.bytes_up, proxy.bytes_down
        started = time.perf_counter()
        if ahead_tokens:
            sent = True
            await typing
        generation = await session.generate(prompt, 1)
        ttft = time.perf_counter() - started
        up, down = proxy.bytes_up - up, proxy.bytes_down - down
    finally:
        await middle.close()
    step = generation.stats.steps[0]
    rate = mbps * 125_000
    return DocumentRun(
        document_tokens=document_tokens,
        prompt_tokens=len(prompt),
        rtt_ms=rtt_ms,
        bandwidth_mbps=mbps,
        ahead=bool(ahead_tokens),
        lead_s=lead_s if ahead_tokens else 0.0,
        ttft_s=round(ttft, 3),
        local_s=round(step.local_compute_ms / 1000, 3),
        worker_s=round(step.remote_compute_ms / 1000, 3),
        serialization_s=round(step.serialization_ms / 1000, 3),
        network_s=round(step.network_ms / 1000, 3),
        upload_bytes=up,
        download_bytes=down,
        upload_s=round(up / rate, 3) if rate else 0.0,
        download_s=round(down / rate, 3) if rate else 0.0,
        ahead_s=round(ahead_s, 2),
        ahead_finished=bool(ahead_tokens) and finished,
        first_token=generation.tokens[0],
        compressed=middle.codec is not None,
    )


def project(
    runs: list[DocumentRun], hidden_size: int, wire_dtype: str, sizes: list[int], bandwidths: list[float]
) -> list[Projection]:
    """The link's part of a cold start for published shapes, with half-precision rows on the wire (what a
    GPU worker computing in bf16 sends): the framing measured here per row, plus each shape's row."""
    import torch

    # Raw rows: what compression gains depends on the model's values, measured here only for this one.
    cold = [
        r for r in runs if not (r.ahead or r.compressed) and r.upload_bytes and r.rtt_ms == max(x.rtt_ms for x in runs)
    ]
    if not cold:
        return []
    measured = max(cold, key=lambda r: r.prompt_tokens)
    element = torch.finfo(WIRE_DTYPES[wire_dtype]).bits // 8
    framing_up = measured.upload_bytes / measured.prompt_tokens - hidden_size * element
    framing_down = measured.download_bytes / measured.prompt_tokens - hidden_size * element
    out = []
    for shape, size in SHAPES:
        for tokens in sizes:
            for mbps in (b for b in bandwidths if b):
                rate = mbps * 125_000
                up = (2 * size + max(0.0, framing_up)) * tokens / rate
                down = (2 * size + max(0.0, framing_down)) * tokens / rate
                rtt = measured.rtt_ms / 1000
                out.append(
                    Projection(
                        shape,
                        size,
                        tokens,
                        mbps,
                        measured.rtt_ms,
                        round(up, 2),
                        round(down, 2),
                        round(up + down + rtt, 2),
                        round(max(up, down) + rtt, 2),
                    )
                )
    return out


def describe(run: DocumentRun) -> str:
    mbps = f"{run.bandwidth_mbps:g} Mbit/s" if run.bandwidth_mbps else "unlimited"
    mbps += ", compressed" if run.compressed else ", raw"
    mbps += ", cores apart" if run.cores_apart else ""
    lead = ""
    if run.ahead:
        how = f"all sent in {run.ahead_s:.1f} s" if run.ahead_finished else "still sending at Send"
        lead = f" (pasted {run.lead_s:g} s before Send, {how})"
    return (
        f"{run.document_tokens:>6} tokens, rtt {run.rtt_ms:g} ms, {mbps}{lead}: first token after "
        f"{run.ttft_s:.2f} s — local {run.local_s:.2f}, worker {run.worker_s:.2f}, network {run.network_s:.2f} "
        f"(upload {run.upload_bytes / 1e6:.1f} MB ≈ {run.upload_s:.2f} s, download {run.download_bytes / 1e6:.1f} MB "
        f"≈ {run.download_s:.2f} s), serialization {run.serialization_s:.2f}"
    )
