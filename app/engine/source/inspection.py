"""What a model folder is and what each split of it costs, from its config and file headers alone.

The admin panel asks this when a folder is chosen: is it a family the split runs, are its files whole,
what dtype does it store, and — per split depth — how much memory this computer and the worker need.
No tensor is read.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine.source.specs import resolve_model
from app.jobs import Progress
from app.model.choices import SplitSpec
from app.model.families import family_of
from app.model.weights import layer_prefix

_ITEMSIZE = {"float32": 4, "bfloat16": 2, "float16": 2}
EMBED = "model.embed_tokens.weight"
LM_HEAD = "lm_head.weight"


@dataclass(frozen=True)
class ModelFacts:
    """A checked model: its family and files, and the element counts that size each side of a split."""

    spec: str
    family: str  # what a person calls it: "Llama 2/3 (also SmolLM2)"
    model_type: str
    num_layers: int
    stored_dtype: str  # "bfloat16", or several joined by "+"
    files: int
    stored_bytes: int
    tied: bool
    layer_elements: tuple[int, ...]  # per decoder layer
    embed_elements: int
    other_elements: int  # the final norm, and the LM head unless tied

    def edge_bytes(self, k_in: int, k_out: int, dtype: str) -> int:
        """What the workstation holds in ``dtype``: embedding, LM head, final norm, the edge layers."""
        layers = self.layer_elements[:k_in] + self.layer_elements[self.num_layers - k_out :]
        return (self.embed_elements + self.other_elements + sum(layers)) * _ITEMSIZE[dtype]

    def worker_bytes(self, k_in: int, k_out: int, dtype: str) -> int:
        """What the worker holds in ``dtype`` (its weights; KV cache comes on top, per session)."""
        first, last = SplitSpec(k_in, k_out).middle(self.num_layers)
        return sum(self.layer_elements[first:last]) * _ITEMSIZE[dtype]

    def summary(self) -> str:
        gigabytes = self.stored_bytes / 1e9
        files = f"{self.files} file{'s' if self.files != 1 else ''}"
        tied = ", tied embeddings" if self.tied else ""
        return f"{self.family}: {self.num_layers} layers, {self.stored_dtype}, {gigabytes:.1f} GB in {files}{tied}."


def inspect_model(spec: str, progress: Progress | None = None) -> ModelFacts:
    """Check ``spec`` (the bundled model or a folder) and size it; a ModelError says what is wrong."""
    source = resolve_model(spec, progress)
    family = family_of(source.config)
    reader = source.weights()
    n = source.num_layers
    layer_elements = []
    names = reader.names()
    for index in range(n):
        prefix = layer_prefix(index)
        layer_elements.append(sum(_elements(reader.info(name).shape) for name in names if name.startswith(prefix)))
    tied = bool(getattr(source.config, "tie_word_embeddings", False))
    in_layers = {name for name in names if name.startswith("model.layers.")}
    rest = [name for name in names if name not in in_layers and name != EMBED and not (tied and name == LM_HEAD)]
    return ModelFacts(
        spec=spec,
        family=family.label,
        model_type=family.model_type,
        num_layers=n,
        stored_dtype="+".join(sorted(str(d).removeprefix("torch.") for d in reader.dtypes())),
        files=len(reader.files()),
        stored_bytes=sum(reader.info(name).nbytes for name in names),
        tied=tied,
        layer_elements=tuple(layer_elements),
        embed_elements=_elements(reader.info(EMBED).shape),
        other_elements=sum(_elements(reader.info(name).shape) for name in rest),
    )


def _elements(shape: tuple[int, ...]) -> int:
    count = 1
    for size in shape:
        count *= size
    return count
