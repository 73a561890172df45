"""What a user chooses about running a model, named once for every command, setting and process (the app, the
CLI, the worker, the benches): where it is cut, how it decodes, the compute device and dtype. Torch-free, so
the settings layer reads and checks them without loading torch or the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

DEVICE_CHOICES = ("auto", "cpu", "cuda")
DTYPE_CHOICES = ("auto", "float32", "bfloat16", "float16")
# What hidden states may cross the wire in, and what an exported shard may store: a dtype, never "auto".
STORED_DTYPE_CHOICES = ("float32", "float16", "bfloat16")


class Mode(StrEnum):
    """How a session speculates; every mode's greedy output is the model's own."""

    AUTO = "auto"  # every source, the tree sized each step from live measurements
    LEARNED = "learned"  # the learned draft head plus context lookup, a fixed budget
    LOOKAHEAD = "lookahead"  # the Jacobi window's n-grams plus context lookup, a fixed budget
    LOOKUP = "lookup"  # n-grams of the conversation only
    SEQUENTIAL = "sequential"  # one token per round trip

    @classmethod
    def parse(cls, name: str | Mode) -> Mode:
        """The mode called ``name``; ValueError naming the choices otherwise."""
        try:
            return cls(name)
        except ValueError:
            raise ValueError(f"decoding mode must be one of {', '.join(cls)}") from None

    @property
    def speculates(self) -> bool:
        return self is not Mode.SEQUENTIAL

    @property
    def drafts_with_head(self) -> bool:
        """Whether the learned draft head may propose (when the model has one)."""
        return self in (Mode.AUTO, Mode.LEARNED)

    @property
    def runs_window(self) -> bool:
        """Whether the Jacobi window may ride in the block and feed the n-gram pool."""
        return self in (Mode.AUTO, Mode.LOOKAHEAD)

    @property
    def adaptive(self) -> bool:
        """Whether the tree, the window and the head are chosen each step from measured costs."""
        return self is Mode.AUTO


MODE_NAMES: tuple[str, ...] = tuple(mode.value for mode in Mode)


@dataclass(frozen=True)
class SplitSpec:
    """Layers [0, k_in) and [N-k_out, N) stay local; [k_in, N-k_out) go to the worker."""

    k_in: int = 2
    k_out: int = 2

    @classmethod
    def parse(cls, text: str | int) -> SplitSpec:
        """Read ``"2"`` (both sides) or ``"2,3"`` (k_in, k_out)."""
        parts = str(text).replace(":", ",").split(",")
        try:
            values = [int(p) for p in parts]
        except ValueError:
            raise ValueError(f"split must be K or K_IN,K_OUT (integers), got {text!r}") from None
        if len(values) == 1:
            return cls(values[0], values[0])
        if len(values) == 2:
            return cls(values[0], values[1])
        raise ValueError(f"split must be K or K_IN,K_OUT, got {text!r}")

    def middle(self, num_layers: int) -> tuple[int, int]:
        """The worker's layer range [first, last) in a model of ``num_layers`` layers."""
        self.check(num_layers)
        return self.k_in, num_layers - self.k_out

    def check(self, num_layers: int) -> None:
        if self.k_in < 1 or self.k_out < 1:
            raise ValueError("each side of the split keeps at least one layer")
        if self.k_in + self.k_out >= num_layers:
            raise ValueError(f"split {self.k_in},{self.k_out} leaves no middle layers in a {num_layers}-layer model")

    def __str__(self) -> str:
        return str(self.k_in) if self.k_in == self.k_out else f"{self.k_in},{self.k_out}"
