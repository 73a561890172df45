"""A learned draft head: the workstation's own guess at the next few tokens, from the model's last feature.

n-grams (context lookup, Jacobi trajectories) only propose what already happened; on chat and creative
text most tokens are new. The head is a small MLP that advances the model's final feature (the normed
hidden state the LM head reads) one token at a time: f' = f + W2·silu(W1·[f, e(token)]). Its logits are
the model's own LM head restricted to a frequent-token vocabulary (a full 49k-row projection per drafted
token would cost more than the draft saves on a CPU).

It runs on the workstation only — it needs the embedding and the LM head, which never leave — and it is
only a proposer: verification keeps exactly what the full model would produce, so a poor head costs
speed, never correctness. Trained per model by ``splitchat train-draft`` (``draft_training.py``).
"""

from __future__ import annotations

import copy
import json
import time
from dataclasses import dataclass
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

from app.engine.kernels import linear_of, pack_linears

FORMAT = "splitchat-draft-head/1"


HEAD = "head@"
CONFIDENCE_BINS = 10


def head_source(confidence: float) -> str:
    """Draft-tree source name of a head-drafted token, by the head's own probability for it (in tenths).

    Acceptance is then measured per confidence bin: the head knows when it is sure, so a 0.9 token
    deep in a chain is worth drafting and a 0.2 one next to the root may not be.
    """
    return f"{HEAD}{min(int(confidence * CONFIDENCE_BINS), CONFIDENCE_BINS - 1)}"


def head_confidence(source: str) -> float | None:
    """The middle of a head source's confidence bin; None for other sources."""
    if not source.startswith(HEAD):
        return None
    return (int(source.removeprefix(HEAD)) + 0.5) / CONFIDENCE_BINS


class DraftHead(torch.nn.Module):
    """f_{t+1} = f_t + out(silu(fuse([f_t, e(x_{t+1})]))): one token forward in feature space."""

    def __init__(self, hidden_size: int, inner_size: int, vocab: torch.Tensor):
        super().__init__()
        self.hidden_size, self.inner_size = hidden_size, inner_size
        self.fuse = torch.nn.Linear(2 * hidden_size, inner_size)
        self.out = torch.nn.Linear(inner_size, hidden_size)
        torch.nn.init.zeros_(self.out.weight)  # starts as the identity: the LM head's own next-token guess
        torch.nn.init.zeros_(self.out.bias)
        self.register_buffer("vocab", vocab.long(), persistent=False)

    def forward(self, feature: torch.Tensor, token_embedding: torch.Tensor) -> torch.Tensor:
        return feature + self.out(torch.nn.functional.silu(self.fuse(torch.cat([feature, token_embedding], -1))))


@dataclass(frozen=True)
class HeadInfo:
    """What a saved head was trained for and how it did (kept in the file's metadata)."""

    model_fingerprint: str
    hidden_size: int
    inner_size: int
    vocab_size: int
    training: dict


def save_head(head: DraftHead, info: HeadInfo, path: Path) -> None:
    # float16 on disk halves the file; the drafter computes in the edge's dtype.
    tensors = {k: v.detach().to(torch.float16).contiguous().cpu() for k, v in head.state_dict().items()}
    tensors["vocab"] = head.vocab.to(torch.int32).cpu()
    meta = {
        "format": FORMAT,
        "model_fingerprint": info.model_fingerprint,
        "hidden_size": str(info.hidden_size),
        "inner_size": str(info.inner_size),
        "training": json.dumps(info.training),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    save_file(tensors, str(partial), metadata=meta)
    partial.replace(path)


def read_info(path: Path) -> HeadInfo:
    from safetensors import safe_open

    with safe_open(str(path), framework="pt") as f:
        meta = f.metadata() or {}
        vocab_size = f.get_slice("vocab").get_shape()[0]
    if meta.get("format") != FORMAT:
        raise ValueError(f"{path} is not a splitchat draft head")
    return HeadInfo(
        meta["model_fingerprint"],
        int(meta["hidden_size"]),
        int(meta["inner_size"]),
        vocab_size,
        json.loads(meta.get("training", "{}")),
    )


def load_head(path: Path) -> tuple[DraftHead, HeadInfo]:
    info = read_info(path)
    tensors = load_file(str(path))
    head = DraftHead(info.hidden_size, info.inner_size, tensors.pop("vocab"))
    head.load_state_dict({k: v.float() for k, v in tensors.items()})
    return head.eval(), info


class HeadDrafter:
    """Drafts a tree with the head, growing it where the head is most confident (a beam over depths).

    Each depth expands the ``width`` most probable paths so far by their ``width`` likeliest next tokens
    in one batched call; the ``nodes`` most probable of everything drafted make the tree. Each token is
    tagged with its own probability's bin, which is what its acceptance is measured by.

    Drafting is pure overhead on the workstation's critical path, so the drafter computes in whichever
    of float32 and bfloat16 is faster on this device (bfloat16 is ~3× faster on CPUs with AVX512-BF16,
    much slower on those without); it only proposes, so its precision never reaches the output.
    """

    def __init__(self, head: DraftHead, embed_weight: torch.Tensor, lm_head_weight: torch.Tensor, dtype=None):
        self.device = embed_weight.device
        self.vocab = head.vocab.to(self.device)
        self._head = copy.deepcopy(head)  # calibration converts it in place; the caller's stays as it was
        self._embed = embed_weight
        self._lm_rows = lm_head_weight[self.vocab]  # the restricted LM head
        self.dtype = dtype or self._fastest_dtype()
        self._use(self.dtype)

    def _use(self, dtype) -> None:
        # A copy per dtype: prepacking replaces the copy's layers, and the next probe starts from the original.
        self.head = copy.deepcopy(self._head).to(device=self.device, dtype=dtype)
        pack_linears(self.head)
        self.lm_rows = self._lm_rows.to(dtype).contiguous()
        self._lm_project = linear_of(self.lm_rows)

    def _fastest_dtype(self):
        if self.device.type != "cpu":
            return self._embed.dtype
        probe = torch.zeros(self._embed.shape[1])
        best: dict[torch.dtype, float] = {}
        for _ in range(4):  # interleaved, best of four: a busy machine must not decide for one dtype
            for dtype in (torch.float32, torch.bfloat16):
                self._use(dtype)
                start = time.perf_counter()
                self.propose(probe, 0, depth=3, nodes=12)
                best[dtype] = min(best.get(dtype, float("inf")), time.perf_counter() - start)
        return min(best, key=best.get)

    @torch.inference_mode()
    def propose(
        self, feature: torch.Tensor, root: int, depth: int, nodes: int, width: int = 4
    ) -> list[tuple[list[int], list[str]]]:
        """Paths continuing ``root`` (given the feature of the position that chose it), each with one
        source per token, most probable first; parents come before their children."""
        if depth < 1 or nodes < 1:
            return []
        dtype = self.lm_rows.dtype
        features = feature.view(1, -1).to(dtype)
        tokens = torch.tensor([root], device=self.device)
        beam: list[tuple[list[int], list[float], float]] = [([], [], 1.0)]  # path, token probabilities, product
        drafted: list[tuple[list[int], list[float], float]] = []
        for _ in range(depth):
            features = self.head(features, self._embed[tokens].to(dtype))
            top = torch.softmax(self._lm_project(features).float(), -1).topk(min(width, len(self.vocab)))
            next_tokens, next_probs = self.vocab[top.indices].tolist(), top.values.tolist()  # one copy a depth
            grown = []
            for b, (path, probs, product) in enumerate(beam):
                for token, p in zip(next_tokens[b], next_probs[b], strict=True):
                    grown.append((path + [token], probs + [p], product * p, b))
            grown.sort(key=lambda g: -g[2])
            drafted.extend((path, probs, product) for path, probs, product, _ in grown)
            grown = grown[:width]  # the beam: the likeliest paths go one token further
            rows = torch.tensor([b for *_, b in grown], device=self.device)
            features = features[rows]
            tokens = torch.tensor([path[-1] for path, *_ in grown], device=self.device)
            beam = [(path, probs, product) for path, probs, product, _ in grown]
        # A path's product never exceeds its parent's, so the best ``nodes`` are closed under parents
        # (ties broken towards shorter paths, which come first).
        drafted.sort(key=lambda d: (-d[2], len(d[0])))
        return [(path, [head_source(p) for p in probs]) for path, probs, _ in drafted[:nodes]]


SHIPPED = Path(__file__).resolve().parents[2] / "resources" / "drafts"


def cached_head_path(fingerprint: str) -> Path:
    """Where ``splitchat train-draft`` stores the head of the model with this fingerprint."""
    from app.engine.models import cache_root

    return cache_root() / "drafts" / f"{fingerprint.rpartition(':')[2][:32]}.safetensors"


def find_head(fingerprint: str) -> Path | None:
    """A trained head for exactly these weights: the user's own first, then one shipped with the app."""
    cached = cached_head_path(fingerprint)
    candidates = [cached, *sorted(cached.parent.glob("*.safetensors")), *sorted(SHIPPED.glob("*.safetensors"))]
    for path in dict.fromkeys(candidates):  # in order, once each
        if path.is_file():
            try:
                if read_info(path).model_fingerprint == fingerprint:
                    return path
            except Exception:  # noqa: BLE001 - a damaged or foreign file is passed over: drafting is optional
                continue
    return None


def load_drafter(source, edge) -> HeadDrafter | None:
    """The learned drafter for ``source`` on ``edge``'s device, or None when no head was trained for it."""
    from app.engine.fingerprints import model_fingerprint

    path = find_head(model_fingerprint(source))
    if path is None:
        return None
    head, _ = load_head(path)
    return HeadDrafter(head, edge.embed_weight, edge.lm_head_weight)
