"""Pseudonymisation with the whole detector: the held-out documents, the command line, and what a real
worker receives — inverted by the public-weights attacker, with pseudonymisation off and on."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import torch

from app.engine.link.export import embedded_shard
from app.engine.source.specs import resolve_model
from app.identifiers.detect import IdentifierDetector, default_detector
from app.identifiers.pseudonyms import Pseudonymiser, Pseudonyms
from app.model.choices import SplitSpec
from app.privacy.activations import WholeModel
from app.privacy.attacks import codebook, head_search, nearest_rows
from app.privacy.detection_scores import score
from app.privacy.identifier_corpus import load_corpus
from app.remote_worker.server import WorkerServer, compute_thread
from app.remote_worker.shard import load_shard
from app.remote_worker.tokens import TokenFile
from app.wire.frames import DEFAULT_MAX_FRAME
from app.wire.worker_tokens import issue_token

pytestmark = pytest.mark.bundled

NOTE = (
    "Discharge summary for Mrs Henrietta Okonkwo-Baptiste, MRN 84729163, NHS number 943 476 5919, "
    "admitted 14/03/2024 to St Aldhelm's Infirmary. Her son Lysander Okonkwo-Baptiste (07700 914 382, "
    "lysander.ob@quillmail.com) lives at 27 Fennimore Crescent, Wexcombe, SN8 4QT. "
    "She was discharged home on 22/03/2024. What follow-up does she need?"
)
# What makes the note identifying: the words whose recovery gives away who and where.
IDENTIFYING = ["henrietta", "okonkwo", "baptiste", "84729163", "lysander", "fennimore", "wexcombe", "quillmail"]


class CachedDetector(IdentifierDetector):
    """The whole detector, each text detected once: the round trip and the scores read the same findings."""

    def __init__(self):
        super().__init__()
        self._seen: dict[tuple[str, tuple], list] = {}

    def detect(self, text, known=(), **options):
        key = (text, tuple(known), repr(sorted(options.items())))
        if key not in self._seen:
            self._seen[key] = default_detector().detect(text, known, **options)
        return self._seen[key]


@pytest.fixture(scope="module")
def held_out():
    return [d for d in load_corpus() if d.half == "held_out"]


def test_every_held_out_document_round_trips_and_detection_meets_its_targets(held_out):
    detector = CachedDetector()
    for document in held_out:
        pseudonymiser = Pseudonymiser(Pseudonyms(seed=11), detector)
        read = pseudonymiser.pseudonymise(document.text)
        assert pseudonymiser.reidentify(read.text) == document.text, document.id
        originals = {r.original.lower() for r in pseudonymiser.pseudonyms.replacements}
        assert not [r for r in pseudonymiser.pseudonyms.replacements if r.surrogate.lower() in originals]

    scores = score(held_out, detector.detect)
    assert scores.token_recall["overall"].value >= 0.99 and scores.token_precision.value >= 0.85
    held_types = {e.type.value for d in held_out for e in d.entities}
    assert set(scores.token_recall) == held_types | {"overall"}, "every type of the set is scored"
    for kind, rate in scores.token_recall.items():
        assert rate.value >= 0.97, (kind, rate)


def test_every_hand_written_held_out_document_round_trips_exactly():
    """The second and third authors' documents, as the templates' above: what the model reads comes back to
    what was written, word for word and case for case (a town first met in a heading in capitals, a house
    number ending in a word, a time that is no date)."""
    from app.privacy.annotated import project_sources

    detector = CachedDetector()
    sources = [s for s in project_sources() if s.name in ("written-en", "written-es")]
    assert len(sources) == 2
    failed = []
    for document in (d for s in sources for d in s.documents):
        pseudonymiser = Pseudonymiser(Pseudonyms(seed=11), detector)
        read = pseudonymiser.pseudonymise(document.text)
        if pseudonymiser.reidentify(read.text) != document.text:
            failed.append(document.id)
    assert not failed


def test_pseudonymise_command_prints_what_the_model_reads_and_where_each_identifier_was(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "app", "pseudonymise", "-", "--json"],
        input=NOTE,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    *printed, last = result.stdout.rstrip("\n").split("\n")
    body = json.loads(last)
    assert "\n".join(printed) == body["text"]
    for word in IDENTIFYING:
        assert word not in body["text"].lower()
    for entity in body["entities"]:
        original = NOTE[entity["start"] : entity["end"]]
        assert original and entity["surrogate"] in body["text"] and entity["surrogate"] != original
    types = {e["type"] for e in body["entities"]}
    assert {"person", "record_number", "national_id", "date", "phone", "email", "address", "postcode"} <= types

    missing = subprocess.run(
        [sys.executable, "-m", "app", "pseudonymise", str(tmp_path / "nowhere.txt")], capture_output=True, text=True
    )
    assert missing.returncode == 1 and "nowhere.txt" in missing.stderr and "Traceback" not in missing.stderr


class RecordingWorker(WorkerServer):
    """A real worker that keeps every hidden state it is sent: exactly what its operator could read."""

    received: list[tuple[str, list[int], torch.Tensor]]

    async def _hidden_states(self, request, payload):
        hidden = await super()._hidden_states(request, payload)  # unpacked, as the operator would
        self.received.append((request.session, list(request.positions), hidden.float()))
        return hidden


@pytest.fixture(scope="module")
def recording_worker(tmp_path_factory):
    """The bundled model's split-2 middle served in this process, on loopback, recording what arrives."""
    folder = tmp_path_factory.mktemp("recording")
    token = issue_token(folder / "tokens")
    compute = compute_thread()
    shard = compute.submit(load_shard, embedded_shard(resolve_model(), SplitSpec(2, 2))).result()
    worker = RecordingWorker(shard, TokenFile(folder / "tokens"), DEFAULT_MAX_FRAME, compute=compute)
    worker.received = []
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    listener = asyncio.run_coroutine_threadsafe(worker.start("127.0.0.1", 0), loop).result(30)
    yield worker, f"ws://127.0.0.1:{listener.sockets[0].getsockname()[1]}", token
    listener.close()
    loop.call_soon_threadsafe(loop.stop)
    worker.close()


def ask_through(endpoint: str, token: str, switch: str) -> dict:
    result = subprocess.run(
        [sys.executable, "-m", "app", "ask", NOTE, "--endpoint", endpoint, "--json", "--max-new-tokens", "1", switch],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "SPLITCHAT_TOKEN": token},
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def recovered_prompt(worker: RecordingWorker, attacker: WholeModel, rows: torch.Tensor, tokenizer) -> str:
    """The public-weights head search on the prompt the worker received last (positions 0 … n-1)."""
    session, positions, hidden = worker.received[-1]
    # A long prefill arrives as several frames: the prompt is every frame of the session from position 0 on,
    # in order, while the positions run on.
    frames = [(p, h) for s, p, h in worker.received if s == session]
    start = next((i for i, (p, _) in enumerate(frames) if p[0] == 0), None)
    prefill, expected = [], 0
    for p, h in frames[start:] if start is not None else []:
        if p[0] != expected:
            break
        prefill.append(h)
        expected = p[-1] + 1
    observed = torch.cat(prefill) if prefill else hidden
    shortlist = nearest_rows(observed, rows, k=32)
    guesses = head_search(attacker, 2, observed, shortlist, [(0, len(observed))])[:, 0]
    return tokenizer.decode(guesses.tolist()).lower()


def test_the_worker_never_receives_an_original_identifier(recording_worker):
    worker, endpoint, token = recording_worker
    source = resolve_model()
    tokenizer = source.tokenizer()
    attacker = WholeModel.from_source(source)  # the operator holds the public checkpoint
    context = tokenizer("\n", add_special_tokens=False)["input_ids"]
    rows = codebook(attacker, 2, context)

    plain = ask_through(endpoint, token, "--no-pseudonymise")
    assert plain["pseudonymised"] is False and plain["model_prompt"] == NOTE
    seen_plain = recovered_prompt(worker, attacker, rows, tokenizer)
    leaked_plain = [w for w in IDENTIFYING if re.search(re.escape(w), seen_plain)]
    assert len(leaked_plain) >= 0.75 * len(IDENTIFYING), seen_plain  # the attack works: most of them are read

    private = ask_through(endpoint, token, "--pseudonymise")
    assert private["pseudonymised"] is True
    for word in IDENTIFYING:
        assert word not in private["model_prompt"].lower()
    assert private["entities"]["person"] >= 2 and private["entities"]["date"] == 2
    seen_private = recovered_prompt(worker, attacker, rows, tokenizer)
    assert [w for w in IDENTIFYING if w in seen_private] == [], seen_private
    # The attacker still reads the text around them: what pseudonymisation does not hide.
    assert "discharge" in seen_private and "follow" in seen_private


_WARMED = r"""
import asyncio, sys
sys.path.insert(0, sys.argv[1])
from app.host import EngineHost
from app.identifiers.detect import _entity_recogniser
from app.identifiers.surrogates import _given_name_kinds
from app.identifiers.towns import _countries
host = EngineHost()
asyncio.run(host.prepare_pseudonymisation(spanish=sys.argv[2] == "es"))
print(*(cached.cache_info().currsize for cached in (_entity_recogniser, _countries, _given_name_kinds)))
host.shutdown()
"""


def test_a_spanish_user_gets_the_spanish_recogniser_loaded_before_the_first_message():
    root = str(Path(__file__).resolve().parents[2])
    result = subprocess.run(
        [sys.executable, "-c", _WARMED, root, "es"], capture_output=True, text=True, timeout=300, check=True
    )
    recognisers, towns_countries, given_names = result.stdout.strip().splitlines()[-1].split()
    assert recognisers == "2"  # the English recogniser and the Spanish one
    # and the lists a stand-in is picked from, which the first message used to load (~0.35 s)
    assert (towns_countries, given_names) == ("1", "1")
