"""A learned draft head: the workstation's own guess at the next few tokens, from the model's last feature.

n-grams (context lookup, Jacobi trajectories) only propose what already happened; on chat and creative
text most tokens are new. The head is a small MLP that advances the model's final feature (the normed
hidden state the LM head reads) one token at a time: f' = f + W2·silu(W1·[f, e(token)]). Its logits are
the model's own LM head restricted to a frequent-token vocabulary (a full 49k-row projection per drafted
token would cost more than the draft saves on a CPU).

A head may also read the root's own feature after the workstation's first ``fuse_layer`` layers (EAGLE-3's
fused features, as far as this split allows): the root is the token the model just chose, so the head
otherwise knows it only by its embedding, while those layers have already read it in its context. Only the
workstation can compute that feature before the round trip, and it costs one row through its head layers.

It runs on the workstation only — it needs the embedding and the LM head, which never leave — and it is
only a proposer: verification keeps exactly what the full model would produce, so a poor head costs
speed, never correctness. Trained per model by ``splitchat train-draft`` (``training.py``); its file:
``head_file.py``.
"""

from __future__ import annotations

import copy
import os
import time
from enum import Enum

import torch

from app.engine.speculation.sources import head_source
from app.model.kernels import Int8Linear, int8_available, linear_of, pack_linears
from app.model.layers import LayerStack


class DraftHead(torch.nn.Module):
    """f_{t+1} = f_t + out(silu(fuse([f_t, e(x_{t+1})]))): one token forward in feature space.

    With ``fuse_layer``, the first step starts from f_t + root([f_t, r]) instead of f_t, where r is the
    root's feature after the model's first ``fuse_layer`` layers (``start``); later steps feed on the head's
    own features, as in training.
    """

    def __init__(self, hidden_size: int, inner_size: int, vocab: torch.Tensor, fuse_layer: int | None = None):
        super().__init__()
        self.hidden_size, self.inner_size, self.fuse_layer = hidden_size, inner_size, fuse_layer
        self.fuse = torch.nn.Linear(2 * hidden_size, inner_size)
        self.out = torch.nn.Linear(inner_size, hidden_size)
        torch.nn.init.zeros_(self.out.weight)  # starts as the identity: the LM head's own next-token guess
        torch.nn.init.zeros_(self.out.bias)
        if fuse_layer is not None:
            self.root = torch.nn.Linear(2 * hidden_size, hidden_size)
            torch.nn.init.zeros_(self.root.weight)  # starts as f_t alone: the head without the root's feature
            torch.nn.init.zeros_(self.root.bias)
        self.register_buffer("vocab", vocab.long(), persistent=False)

    def forward(self, feature: torch.Tensor, token_embedding: torch.Tensor) -> torch.Tensor:
        return feature + self.out(torch.nn.functional.silu(self.fuse(torch.cat([feature, token_embedding], -1))))

    def start(self, feature: torch.Tensor, root_feature: torch.Tensor | None) -> torch.Tensor:
        """The feature the first step reads: f_t, with the root's early feature fused in where the head
        reads one and it is known."""
        if self.fuse_layer is None or root_feature is None:
            return feature
        return feature + self.root(torch.cat([feature, root_feature.to(feature.dtype)], -1))


_EVICT_BYTES = 64 << 20  # more than the last-level cache of the CPUs a workstation has

# Forces the drafter's arithmetic (a ``DraftArithmetic`` value) instead of timing each: the bench's A/B.
DTYPE_ENV = "SPLITCHAT_DRAFT_DTYPE"


class DraftArithmetic(Enum):
    """What the drafter computes in: its head's layers, and the LM rows each depth projects onto.

    A few rows' product is bound by reading its weights, so fewer bytes are faster wherever the CPU
    computes the narrower type natively: bfloat16 on CPUs with AVX512-BF16 (much slower without), int8
    rows through fbgemm. Drafting only proposes, so its precision never reaches the output.
    """

    FLOAT32 = "float32"
    BFLOAT16 = "bfloat16"
    INT8_ROWS = "int8"  # float32 layers, int8 LM rows
    BFLOAT16_INT8_ROWS = "bfloat16+int8"

    @property
    def layers_dtype(self) -> torch.dtype:
        return (
            torch.bfloat16 if self in (DraftArithmetic.BFLOAT16, DraftArithmetic.BFLOAT16_INT8_ROWS) else torch.float32
        )

    @property
    def int8_rows(self) -> bool:
        return self in (DraftArithmetic.INT8_ROWS, DraftArithmetic.BFLOAT16_INT8_ROWS)

    @classmethod
    def forced(cls) -> DraftArithmetic | None:
        """The arithmetic ``SPLITCHAT_DRAFT_DTYPE`` names, or None where it is unset."""
        named = os.environ.get(DTYPE_ENV, "").strip().lower()
        if not named:
            return None
        try:
            return cls(named)
        except ValueError:
            raise ValueError(f"{DTYPE_ENV}={named!r}: expected one of {', '.join(a.value for a in cls)}") from None


class HeadDrafter:
    """Drafts a tree with the head, growing it where the head is most confident (a beam over depths).

    Each depth expands the ``width`` most probable paths so far by their ``width`` likeliest next tokens
    in one batched call; the ``nodes`` most probable of everything drafted make the tree. Each token is
    tagged with its own probability's bin, which is what its acceptance is measured by. The beam stops
    before ``depth`` once its paths together hold less than ``BEAM_FLOOR`` of the head's probability:
    deeper tokens would then be reached too rarely to pay for the depths drafting them.

    Drafting is pure overhead on the workstation's critical path, so the drafter computes in whichever
    ``DraftArithmetic`` is fastest on this device, and reads the root's early feature through
    ``early_layers`` where given: an int8 copy of the model's first layers (``early.py``).
    """

    # Offline, on 40 held-out answers of the training prompts (5,357 trees of 20 nodes), a floor of 0.2
    # drafted 4.56 depths instead of 6 for 1.839 accepted tokens a tree against 1.841; 0.3 lost 0.8 %.
    BEAM_FLOOR = 0.2

    def __init__(
        self,
        head: DraftHead,
        embed_weight: torch.Tensor,
        lm_head_weight: torch.Tensor,
        arithmetic: DraftArithmetic | None = None,
        early_layers: LayerStack | None = None,
    ):
        self.device = embed_weight.device
        self.vocab = head.vocab.to(self.device)
        self._head = copy.deepcopy(head)  # calibration converts it in place; the caller's stays as it was
        self._embed = embed_weight
        self._lm_rows = lm_head_weight[self.vocab]  # the restricted LM head
        self.early_layers = early_layers
        chosen = arithmetic or DraftArithmetic.forced()
        if chosen is not None and chosen.int8_rows and (self.device.type != "cpu" or not int8_available()):
            where = "torch build lacks" if self.device.type == "cpu" else f"model on {self.device.type} cannot use"
            raise ValueError(f"{DTYPE_ENV}={chosen.value} needs fbgemm's int8 linear on the CPU, which this {where}")
        if chosen is not None:
            self.arithmetic, built = chosen, self._built(chosen)
        else:
            self.arithmetic, built = self._fastest()
        self._use(built)

    def _built(self, arithmetic: DraftArithmetic) -> tuple[DraftHead, torch.dtype, torch.nn.Module]:
        """The head's copy, its features' dtype and the LM rows' product for ``arithmetic``."""
        # A copy per arithmetic: prepacking replaces the copy's layers, and the next one starts from the original.
        dtype = arithmetic.layers_dtype if self.device.type == "cpu" else self._embed.dtype
        head = copy.deepcopy(self._head).to(device=self.device, dtype=dtype)
        pack_linears(head)
        if arithmetic.int8_rows:
            # Their rounding moved no accepted token (3.068 against 3.074 tokens a tree, on 1,121 positions
            # of the model's own answers); the head's own layers in int8 lost 5 %, so those never are.
            return head, dtype, Int8Linear(self._lm_rows)  # packs its own int8 copy; no float one is kept
        return head, dtype, linear_of(self._lm_rows.to(dtype).contiguous())

    def _use(self, built: tuple[DraftHead, torch.dtype, torch.nn.Module]) -> None:
        self.head, self.features_dtype, self._lm_project = built

    def _fastest(self) -> tuple[DraftArithmetic, tuple[DraftHead, torch.dtype, torch.nn.Module]]:
        """The arithmetic that drafts fastest here, and its build."""
        if self.device.type != "cpu":
            # computed in the model's own dtype (``_built``)
            return DraftArithmetic.FLOAT32, self._built(DraftArithmetic.FLOAT32)
        probe = torch.zeros(self._embed.shape[1])
        root_probe = probe if self._head.fuse_layer is not None else None
        # Between two drafts verification reads the tail layers and the whole LM head, so drafting always
        # finds its weights out of the CPU's caches: each timing starts after writing more than a last-level
        # cache holds, since the arithmetic fastest warm need not be the fastest cold.
        evict = torch.empty(_EVICT_BYTES // 4)
        builds = {a: self._built(a) for a in DraftArithmetic if int8_available() or not a.int8_rows}
        best: dict[DraftArithmetic, float] = {}
        for _ in range(4):  # interleaved, best of four: a busy machine must not decide for one arithmetic
            for arithmetic, built in builds.items():
                self._use(built)
                evict.fill_(0.0)
                start = time.perf_counter()
                self.propose(probe, 0, depth=3, nodes=12, root_feature=root_probe, beam_floor=0.0)
                best[arithmetic] = min(best.get(arithmetic, float("inf")), time.perf_counter() - start)
        fastest = min(best, key=best.get)
        return fastest, builds[fastest]

    @property
    def fuse_layer(self) -> int | None:
        """How many of the model's first layers the root's feature must have gone through (None: not read)."""
        return self._head.fuse_layer

    @torch.inference_mode()
    def propose(
        self,
        feature: torch.Tensor,
        root: int,
        depth: int,
        nodes: int,
        width: int = 4,
        root_feature: torch.Tensor | None = None,
        beam_floor: float | None = None,
    ) -> list[tuple[list[int], list[str]]]:
        """Paths continuing ``root`` (given the feature of the position that chose it, and the root's own
        after ``fuse_layer`` layers where the head reads it), each with one source per token, most probable
        first; parents come before their children. ``beam_floor`` (``BEAM_FLOOR`` when None) stops the beam
        early; 0 drafts every depth."""
        if depth < 1 or nodes < 1:
            return []
        dtype = self.features_dtype
        floor = self.BEAM_FLOOR if beam_floor is None else beam_floor
        start = None if root_feature is None else root_feature.view(1, -1).to(dtype)
        features = self.head.start(feature.view(1, -1).to(dtype), start)
        tokens = torch.tensor([root], device=self.device)
        beam: list[tuple[list[int], list[float], float]] = [([], [], 1.0)]  # path, token probabilities, product
        drafted: list[tuple[list[int], list[float], float]] = []
        for _ in range(depth):
            if sum(product for *_, product in beam) < floor:
                break
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
