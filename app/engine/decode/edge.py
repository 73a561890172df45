"""LocalEdge: everything the workstation keeps — embedding, head and tail layers, norm, LM head."""

from __future__ import annotations

from collections.abc import Sequence

import torch

from app.engine.source.specs import ModelSource
from app.model.choices import SplitSpec
from app.model.errors import ModelError
from app.model.families import embedding_scale, final_softcap
from app.model.kernels import lm_head_linear
from app.model.layers import LayerStack, family_class

EMBED = "model.embed_tokens.weight"
NORM = "model.norm.weight"
LM_HEAD = "lm_head.weight"


def lm_head_weight(config, tensors: dict[str, torch.Tensor]) -> torch.Tensor:
    """The LM head matrix, or the embedding where the model ties the two."""
    if LM_HEAD in tensors:
        return tensors[LM_HEAD]
    if not getattr(config, "tie_word_embeddings", False):
        raise ValueError("model has no lm_head.weight and does not tie it to the embedding")
    return tensors[EMBED]


def final_norm(config, tensors: dict[str, torch.Tensor]) -> torch.nn.Module:
    norm = family_class(config, "norm")(config.hidden_size, eps=config.rms_norm_eps)
    norm.load_state_dict({"weight": tensors[NORM]})
    return norm.eval()


class LazyLogits:
    """Rows of logits computed when first read, or ahead of it in one product (``prefetch``).

    Verification reads only the nodes it walks — the accepted path and the node where it stops. The
    session prefetches a tree's likeliest 16 nodes together; any other row it walks costs its own
    product, so a 48-node tree never pays for 48 LM-head rows (the costliest local matrix).
    """

    def __init__(self, features: torch.Tensor, project):
        self.features, self._project = features, project
        self._rows: dict[int, torch.Tensor] = {}

    def __len__(self) -> int:
        return len(self.features)

    def __getitem__(self, row: int) -> torch.Tensor:
        if row < 0:
            row += len(self.features)
        if row not in self._rows:
            self._rows[row] = self._project(self.features[row : row + 1])[0]
        return self._rows[row]

    def prefetch(self, rows: Sequence[int]) -> None:
        """Project ``rows`` in one matrix product, ahead of reading them.

        One row reads the whole matrix, so a product of several rows costs little more than one. Without
        prepacked weights (``SPLITCHAT_KERNELS=plain``) MKL takes a slower kernel for some odd row counts,
        so the batch is padded to a multiple of 4.
        """
        wanted = [row for row in dict.fromkeys(rows) if row not in self._rows]
        if not wanted:
            return
        padded = wanted + wanted[-1:] * (-len(wanted) % 4)
        for row, logits in zip(wanted, self._project(self.features[padded]), strict=False):
            self._rows[row] = logits

    def rows(self, start: int, stop: int) -> torch.Tensor:
        """Rows [start, stop) as one matrix (the window's last level is read whole)."""
        self.prefetch(range(start, stop))
        return torch.stack([self._rows[row] for row in range(start, stop)])

    @property
    def computed(self) -> int:
        return len(self._rows)


class LocalEdge:
    """The trusted ends of the split model: tokens -> hidden before the wire, hidden -> logits after.

    Loading reads one tensor, or one layer, at a time from the checkpoint and keeps only what decoding
    uses: the head and tail layers and the LM head in the compute dtype (prepacked where the CPU allows),
    and the embedding table as stored, mapped from its file — a lookup reads a few rows, and converting
    them is exact, so a converted copy of the whole table would only cost memory.
    """

    def __init__(self, source: ModelSource, split: SplitSpec, device="cpu", dtype=torch.float32):
        config = source.config
        n = config.num_hidden_layers
        split.check(n)
        self.config, self.split = config, split
        self.device, self.dtype = torch.device(device), dtype
        self._reader = reader = source.weights()
        # A tied model's LM head is its embedding, whatever else the files hold (as transformers reads it).
        self.tied = bool(getattr(config, "tie_word_embeddings", False))
        if not self.tied and LM_HEAD not in reader:
            raise ModelError(f"{source.folder} has no {LM_HEAD} and its config does not tie it to the embedding")
        self.embed_weight = reader.tensor(EMBED).to(device)
        scale = embedding_scale(config)
        self._embed_scale = None if scale is None else torch.tensor(scale, dtype=dtype, device=self.device)
        self._softcap = final_softcap(config)
        # The costliest local matrix, built before the layers so its conversion's peak meets nothing else.
        self._lm_head = lm_head_linear(
            lambda start, stop: self.embed_weight[start:stop] if self.tied else reader.rows(LM_HEAD, start, stop),
            reader.info(EMBED if self.tied else LM_HEAD).shape,
            self.device,
            dtype,
        )
        if self.tied:
            # Building the LM head read every page of the embedding's file mapping, and read pages count
            # as this process's memory while mapped; a fresh mapping holds only the rows lookups touch.
            self.embed_weight = reader.tensor(EMBED).to(device)
        self.norm = final_norm(config, reader.load([NORM])).to(device=device, dtype=dtype)
        self.head = LayerStack(config, 0, split.k_in, reader, device, dtype)
        self.tail = LayerStack(config, n - split.k_out, n, reader, device, dtype)

    @property
    def lm_head_weight(self) -> torch.Tensor:
        """The dense LM head as stored: the embedding where tied, else read from the checkpoint when asked
        (the edge itself keeps only its converted, packed copy)."""
        return self.embed_weight if self.tied else self._reader.tensor(LM_HEAD).to(self.device)

    @property
    def hidden_size(self) -> int:
        return self.config.hidden_size

    def _embedded(self, token_ids: torch.Tensor) -> torch.Tensor:
        hidden = torch.nn.functional.embedding(token_ids.to(self.device).view(1, -1), self.embed_weight)
        hidden = hidden.to(self.dtype)
        return hidden if self._embed_scale is None else hidden * self._embed_scale

    @torch.inference_mode()
    def run_head(
        self, token_ids: torch.Tensor, positions: torch.Tensor, ancestry=None, long_rope: bool = False
    ) -> torch.Tensor:
        """Embed a block of token ids [q] and run it through layers [0, k_in)."""
        return self.head(self._embedded(token_ids), positions, ancestry, long_rope=long_rope)

    @torch.inference_mode()
    def early_feature(
        self, token: int, position: int, layers: int, long_rope: bool = False, stand_in: LayerStack | None = None
    ) -> torch.Tensor | None:
        """One token's hidden state [H] after the first ``layers`` layers, in the context the caches hold, or
        None when fewer layers are local. The caches are left as they were: the block that follows runs the
        token again with its tree, so this costs one row through the head layers and changes nothing.

        ``stand_in`` computes it instead of the edge's own layers: ``layers`` layers reading the same caches
        (the draft head's int8 copy, ``speculation/early.py``)."""
        if layers > self.split.k_in or layers < 1:
            return None
        length = self.head.length
        ids, at = torch.tensor([token]), torch.tensor([position])
        if stand_in is not None:
            if len(stand_in.layers) != layers:
                raise ValueError(f"a stand-in for {layers} layers has {len(stand_in.layers)}")
            try:
                return stand_in(self._embedded(ids), at, None, self.head.cache, long_rope)[0, -1]
            finally:
                self.head.crop(length)
        captured: list[torch.Tensor] = []
        hook = self.head.layers[layers - 1].register_forward_hook(lambda _m, _i, out: captured.append(out))
        try:
            self.run_head(ids, at, None, long_rope)
        finally:
            hook.remove()
            self.head.crop(length)
        out = captured[0]
        return (out[0] if isinstance(out, tuple) else out)[0, -1]

    @torch.inference_mode()
    def run_tail(
        self, hidden: torch.Tensor, positions: torch.Tensor, ancestry=None, rows: list[int] | None = None
    ) -> torch.Tensor:
        """Run the worker's output through layers [N-k_out, N), the norm and the LM head.

        Returns logits [len(rows), V] — the LM head is the costliest local matrix, so only the rows a
        step reads are projected (all rows when ``rows`` is None).
        """
        return self.project(self.run_tail_features(hidden, positions, ancestry, rows))

    @torch.inference_mode()
    def run_tail_features(
        self,
        hidden: torch.Tensor,
        positions: torch.Tensor,
        ancestry=None,
        rows: list[int] | None = None,
        long_rope: bool = False,
    ) -> torch.Tensor:
        """The normed features [len(rows), H] the LM head reads; the caller projects the rows it needs."""
        hidden = self.tail(hidden, positions, ancestry, long_rope=long_rope)
        if rows is not None:
            hidden = hidden[:, rows]
        return self.norm(hidden)[0]

    @torch.inference_mode()
    def project(self, features: torch.Tensor) -> torch.Tensor:
        """Logits [n, V] of normed features [n, H] (what ``run_tail_features`` returns)."""
        logits = self._lm_head(features)
        if self._softcap is not None:
            logits = torch.tanh(logits / self._softcap) * self._softcap
        return logits.float()

    def lazy_logits(self, features: torch.Tensor) -> LazyLogits:
        return LazyLogits(features, self.project)

    def crop(self, length: int) -> None:
        self.head.crop(length)
        self.tail.crop(length)

    def keep(self, start: int, indices: list[int]) -> None:
        self.head.keep(start, indices)
        self.tail.keep(start, indices)

    def reset(self) -> None:
        self.head.reset()
        self.tail.reset()
