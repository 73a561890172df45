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

FORMAT = "splitchat-draft-head/1"


def head_source(rank: int) -> str:
    """Draft-tree source name of the chain that starts with the head's rank-th first token."""
    return f"head{rank}"


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
    """Proposes a small tree from the head: the top ``branches`` first tokens, each continued greedily.

    Drafting is pure overhead on the workstation's critical path, so the drafter computes in whichever
    of float32 and bfloat16 is faster on this device (bfloat16 is ~3× faster on CPUs with AVX512-BF16,
    much slower on those without); it only proposes, so its precision never reaches the output.
    """

    def __init__(
        self,
        head: DraftHead,
        embed_weight: torch.Tensor,
        lm_head_weight: torch.Tensor,
        dtype=None,
        held_out_accuracy: dict[str, float] | None = None,
    ):
        # depth -> how often the chain's token at that depth was right given the ones before (from training)
        self.accuracy = {int(k.removeprefix("depth")): v for k, v in (held_out_accuracy or {}).items()}
        self.device = embed_weight.device
        self.vocab = head.vocab.to(self.device)
        self._head = copy.deepcopy(head)  # calibration converts it in place; the caller's stays as it was
        self._embed = embed_weight
        self._lm_rows = lm_head_weight[self.vocab]  # the restricted LM head
        self.dtype = dtype or self._fastest_dtype()
        self._use(self.dtype)

    def accuracy_at(self, depth: int) -> float | None:
        """Held-out accuracy at ``depth``, or at the deepest measured depth above it; None if unmeasured."""
        known = [d for d in self.accuracy if d <= depth]
        return self.accuracy[max(known)] if known else None

    def _use(self, dtype) -> None:
        self.head = self._head.to(device=self.device, dtype=dtype)
        self.lm_rows = self._lm_rows.to(dtype).contiguous()

    def _fastest_dtype(self):
        if self.device.type != "cpu":
            return self._embed.dtype
        probe = torch.zeros(self._embed.shape[1])
        best: dict[torch.dtype, float] = {}
        for _ in range(4):  # interleaved, best of four: a busy machine must not decide for one dtype
            for dtype in (torch.float32, torch.bfloat16):
                self._use(dtype)
                start = time.perf_counter()
                self.propose(probe, 0, 3, 2)
                best[dtype] = min(best.get(dtype, float("inf")), time.perf_counter() - start)
        return min(best, key=best.get)

    @torch.inference_mode()
    def propose(self, feature: torch.Tensor, root: int, depth: int, branches: int) -> list[tuple[list[int], str]]:
        """Chains continuing ``root``, given the feature of the position that produced it."""
        if depth < 1 or branches < 1:
            return []
        dtype = self.lm_rows.dtype
        f = self.head(feature.view(1, -1).to(dtype), self._embed[[root]].to(dtype))
        first = (f @ self.lm_rows.T)[0].topk(min(branches, len(self.vocab))).indices
        tokens = self.vocab[first]
        paths = [[int(t)] for t in tokens]
        f = f.expand(len(paths), -1)
        for _ in range(depth - 1):  # every chain one token further, in one batched call
            f = self.head(f, self._embed[tokens].to(dtype))
            tokens = self.vocab[(f @ self.lm_rows.T).argmax(-1)]
            for path, token in zip(paths, tokens.tolist(), strict=True):
                path.append(token)
        return [(path, head_source(rank)) for rank, path in enumerate(paths, start=1)]


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
    head, info = load_head(path)
    return HeadDrafter(
        head, edge.embed_weight, edge.lm_head_weight, held_out_accuracy=info.training.get("held_out_accuracy")
    )
