"""Run the whole model over token documents and keep the hidden states that would cross the wire.

A symmetric split at depth k sends the hidden state after layer k − 1 to the worker (it enters layer
k) and receives the one after layer N − k − 1 (it enters layer N − k). One pass through all N layers,
cut into segments at those boundaries, captures every depth at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from app.engine.decode.edge import EMBED, final_norm, lm_head_weight
from app.jobs import CancelFlag, Progress, raise_if_cancelled
from app.model.families import embedding_scale
from app.model.layers import LayerStack
from app.privacy.corpus import TokenDocument
from app.privacy.report import FROM_WORKER, TO_WORKER

TOP = 5


class WholeModel:
    """Every tensor of a model in float32, as the evaluation's own reference and attacker toolbox."""

    def __init__(self, config, tensors: dict[str, torch.Tensor]):
        self.config = config
        self.tensors = {k: v.float() for k, v in tensors.items()}
        self.num_layers = config.num_hidden_layers
        self.embed = self.tensors[EMBED]
        self.lm_head = lm_head_weight(config, self.tensors)
        self.norm = final_norm(config, self.tensors)
        self.embed_scale = embedding_scale(config)

    @classmethod
    def from_source(cls, source) -> WholeModel:
        reader = source.weights()
        return cls(source.config, reader.load(reader.names()))

    def stack(self, first: int, last: int) -> LayerStack:
        return LayerStack(self.config, first, last, self.tensors)

    def embed_ids(self, ids: torch.Tensor) -> torch.Tensor:
        """Token ids [1, q] -> the hidden states entering layer 0 (scaled as the family scales them)."""
        hidden = torch.nn.functional.embedding(ids, self.embed)
        return hidden * self.embed_scale if self.embed_scale is not None else hidden

    @torch.inference_mode()
    def logits(self, hidden: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.linear(self.norm(hidden), self.lm_head)


@dataclass
class Activations:
    """Flat arrays over every position of every chunk, in document order."""

    taps: dict[int, torch.Tensor]  # boundary b -> [n, H]: the hidden state entering layer b
    targets: torch.Tensor  # [n] the token at each position
    # [n, TOP]: the full model's top tokens for each position, read at the one before (-1 at chunk starts)
    predicted: torch.Tensor
    chunk_starts: list[int]  # flat index where each chunk begins; chunks are contiguous

    @property
    def scored(self) -> torch.Tensor:
        """Positions that count in the test: all but a chunk's first (it has no previous position)."""
        mask = torch.ones(len(self.targets), dtype=torch.bool)
        mask[self.chunk_starts] = False
        return mask

    def chunks(self) -> list[tuple[int, int]]:
        ends = self.chunk_starts[1:] + [len(self.targets)]
        return list(zip(self.chunk_starts, ends, strict=True))


def boundaries_for(depths: list[int], num_layers: int) -> dict[tuple[int, str], int]:
    """(depth, direction) -> the layer boundary whose hidden state crosses the wire that way."""
    out = {}
    for depth in depths:
        if depth < 1 or 2 * depth >= num_layers:
            raise ValueError(
                f"split depth {depth} leaves no middle layers in a {num_layers}-layer model: "
                f"choose 1..{(num_layers - 1) // 2}"
            )
        out[(depth, TO_WORKER)] = depth
        out[(depth, FROM_WORKER)] = num_layers - depth
    return out


@torch.inference_mode()
def capture(
    model: WholeModel,
    documents: list[TokenDocument],
    boundaries: list[int],
    chunk_tokens: int = 512,
    progress: Progress | None = None,
    cancel: CancelFlag | None = None,
) -> Activations:
    """Run each document in chunks of ``chunk_tokens`` (fresh context per chunk) and keep the taps."""
    cuts = sorted(set(boundaries))
    edges = [0] + cuts + [model.num_layers]
    segments = [model.stack(a, b) for a, b in zip(edges, edges[1:], strict=False) if a < b]
    chunks = [doc.ids[i : i + chunk_tokens] for doc in documents for i in range(0, len(doc.ids), chunk_tokens)]
    chunks = [c for c in chunks if len(c) >= 2]
    taps: dict[int, list[torch.Tensor]] = {b: [] for b in cuts}
    targets, predicted, starts, position = [], [], [], 0
    for index, chunk in enumerate(chunks):
        raise_if_cancelled(cancel)
        ids = torch.tensor(chunk)
        positions = torch.arange(len(chunk))
        hidden = model.embed_ids(ids.view(1, -1))
        for segment in segments:
            segment.reset()
            hidden = segment(hidden, positions)
            if segment.last in taps:
                taps[segment.last].append(hidden[0].clone())
        top = model.logits(hidden[0]).topk(TOP, dim=-1).indices
        shifted = torch.full((len(chunk), TOP), -1, dtype=torch.long)
        shifted[1:] = top[:-1]  # position t's guess comes from position t − 1
        targets.append(ids)
        predicted.append(shifted)
        starts.append(position)
        position += len(chunk)
        if progress:
            progress(f"Running the model over the corpus ({index + 1}/{len(chunks)} chunks)", (index + 1) / len(chunks))
    if not chunks:
        raise ValueError("no document holds two or more tokens")
    return Activations({b: torch.cat(v) for b, v in taps.items()}, torch.cat(targets), torch.cat(predicted), starts)
