"""Where a model is cut: k_in layers before the wire, k_out after it."""

from __future__ import annotations

from dataclasses import dataclass


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
