"""Linear layers on weights prepacked for oneDNN, torch's other CPU matrix library.

A decode step multiplies one row, or a block of a few, by every weight matrix of the model. On CPUs
torch sends those products to MKL, whose kernels for a few rows can be far from what the memory allows;
on weights reordered once for oneDNN the same products come close to it (docs/BENCH.md, "Measurements
behind the code"). Prepacking is a one-time copy at load; the dense weight is dropped where nothing
else reads it.

It is used for float32 and bfloat16 on the CPU when a numerical self-check passes, and can be turned
off with ``SPLITCHAT_KERNELS=plain`` (the bench's A/B, or a torch build whose private oneDNN ops differ).
The results are float32 products like MKL's, summed in a different order: the differences are the
rounding of the last bits, which the greedy equivalence tests hold to the same tie rule as before.
"""

from __future__ import annotations

import functools
import os
import warnings

import torch
from torch import nn

ENV = "SPLITCHAT_KERNELS"
PACKED_DTYPES = (torch.float32, torch.bfloat16)
# The reorder picks a blocked layout for the batch it is told to expect; 4 rows suits both the single
# rows of sequential decoding and the 8-24-row speculative blocks (measured 1-32 rows, hints 1/4/16/64).
BATCH_HINT = 4


def _ops():
    """oneDNN's prepacked-linear operators, or None where this torch build lacks them."""
    mkldnn = getattr(torch.ops, "mkldnn", None)
    try:
        return mkldnn._reorder_linear_weight, mkldnn._linear_pointwise
    except (AttributeError, RuntimeError):
        return None


@functools.cache
def packing_available(dtype: torch.dtype) -> bool:
    """Whether weights of ``dtype`` can be prepacked here, checked once against ``F.linear``."""
    if os.environ.get(ENV, "").strip().lower() == "plain" or dtype not in PACKED_DTYPES:
        return False
    ops = _ops()
    if ops is None or not torch.backends.mkldnn.is_available():
        return False
    reorder, linear = ops
    generator = torch.Generator().manual_seed(0)
    weight = torch.randn(48, 40, generator=generator).to(dtype)
    bias = torch.randn(48, generator=generator).to(dtype)
    x = torch.randn(1, 5, 40, generator=generator).to(dtype)
    try:
        with torch.inference_mode():
            got = linear(x, reorder(weight, BATCH_HINT), bias, "none", [], "")
    except RuntimeError:
        return False
    want = nn.functional.linear(x.float(), weight.float(), bias.float())
    tolerance = 1e-4 if dtype == torch.float32 else 5e-2
    return got.shape == want.shape and torch.allclose(got.float(), want, rtol=tolerance, atol=tolerance)


class PackedLinear(nn.Module):
    """``y = x Wᵀ + b`` with W held in oneDNN's blocked layout (inference only: no gradient)."""

    def __init__(self, weight: torch.Tensor, bias: torch.Tensor | None = None):
        super().__init__()
        reorder, self._linear = _ops()
        self.out_features, self.in_features = weight.shape
        self.dtype = weight.dtype
        self.packed = reorder(weight.detach().contiguous(), BATCH_HINT)
        self.bias = None if bias is None else bias.detach().clone()  # its own memory, not a view of the file

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self._linear(x.to(self.dtype).contiguous(), self.packed, self.bias, "none", [], "")

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, dtype={self.dtype}"


def can_pack(weight: torch.Tensor) -> bool:
    return weight.device.type == "cpu" and weight.dim() == 2 and packing_available(weight.dtype)


def pack_linears(module: nn.Module) -> int:
    """Replace every ``nn.Linear`` under ``module`` whose weight can be prepacked; returns how many."""
    packed = 0
    for name, child in list(module.named_children()):
        if isinstance(child, nn.Linear) and can_pack(child.weight):
            setattr(module, name, PackedLinear(child.weight, child.bias))
            packed += 1
        else:
            packed += pack_linears(child)
    return packed


def int8_linears(module: nn.Module) -> int:
    """Replace every ``nn.Linear`` under ``module`` with an ``Int8Linear`` copy; returns how many.

    Only for layers whose outputs a proposer reads (the draft head's copy of the first layers)."""
    converted = 0
    for name, child in list(module.named_children()):
        if isinstance(child, nn.Linear):
            setattr(module, name, Int8Linear(child.weight, child.bias))
            converted += 1
        else:
            converted += int8_linears(child)
    return converted


def own_memory(module: nn.Module) -> None:
    """Copy the tensors left beside packed weights (norms, biases) out of the file they were loaded from.

    Loaded tensors are views of one mapping of the whole weights file; a small norm weight would keep
    all of it resident after the packed copies replaced the matrices.
    """
    for tensor in [*module.parameters(), *module.buffers()]:
        tensor.data = tensor.data.clone()


def linear_of(weight: torch.Tensor):
    """``x -> x Wᵀ`` on the fastest kernel for this weight (prepacked where possible)."""
    if can_pack(weight):
        return PackedLinear(weight)
    return functools.partial(nn.functional.linear, weight=weight)


@functools.cache
def int8_available() -> bool:
    """Whether fbgemm's int8 linear (weights per row, each call's input quantized on the fly) runs here and
    agrees with ``F.linear`` to within the rounding of eight bits, checked once."""
    if os.environ.get(ENV, "").strip().lower() == "plain" or not hasattr(torch.ops, "quantized"):
        return False
    generator = torch.Generator().manual_seed(0)
    weight = torch.randn(64, 96, generator=generator) * 0.05
    x = torch.randn(3, 96, generator=generator)
    try:
        got = Int8Linear(weight)(x)
    except (RuntimeError, AttributeError):
        return False
    want = nn.functional.linear(x, weight)
    return got.shape == want.shape and bool((got - want).abs().max() <= 0.05 * want.abs().max())


class Int8Linear(nn.Module):
    """``y ≈ x Wᵀ + b`` with W in int8, one scale per output row (inference only).

    Only for proposers whose outputs are checked by the full model (the draft head): the product is an
    approximation, a quarter of float32's bytes to read, which is what a few rows' product is bound by.
    """

    def __init__(self, weight: torch.Tensor, bias: torch.Tensor | None = None):
        super().__init__()
        weight = weight.detach().float().contiguous()
        self.out_features, self.in_features = weight.shape
        scales = (weight.abs().amax(1) / 127).clamp_min(1e-12).double()
        zeros = torch.zeros(self.out_features, dtype=torch.long)
        with warnings.catch_warnings():  # torch flags its quantized tensors for removal; int8_available guards
            warnings.simplefilter("ignore")
            quantized = torch.quantize_per_channel(weight, scales, zeros, 0, torch.qint8)
            self.packed = torch.ops.quantized.linear_prepack(quantized, None if bias is None else bias.float())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # reduce_range: without VNNI, fbgemm's u8×s8 pairs saturate 16 bits at full range (measured: a 10 %
        # error on a 576-wide row at full range, 2 % reduced)
        return torch.ops.quantized.linear_dynamic(x.float().contiguous(), self.packed, True)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, int8"


# The LM head is converted and packed this many bytes of rows at a time: converting a 128k-row matrix
# in one piece would hold it twice (as read and as converted) on top of everything else.
LM_HEAD_CHUNK_BYTES = 256 << 20


class RowChunks(nn.Module):
    """``x Wᵀ`` for W held as blocks of rows, each on its own kernel; the outputs are concatenated."""

    def __init__(self, parts: list):
        super().__init__()
        self.parts = parts

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cat([part(x) for part in self.parts], dim=-1)


def lm_head_linear(rows, shape: tuple[int, int], device: torch.device, dtype: torch.dtype):
    """``x -> x Wᵀ`` for a [vocabulary, hidden] W read through ``rows(start, stop)``, in ``dtype``.

    Prepacked in blocks of rows where the CPU allows (never more than one block in two forms at once);
    elsewhere one dense matrix filled block by block.
    """
    vocab, hidden = shape
    step = max(1, LM_HEAD_CHUNK_BYTES // (hidden * torch.finfo(dtype).bits // 8))
    spans = [(start, min(start + step, vocab)) for start in range(0, vocab, step)]
    if device.type == "cpu" and packing_available(dtype):
        parts = [PackedLinear(rows(start, stop).to(dtype)) for start, stop in spans]
        return parts[0] if len(parts) == 1 else RowChunks(parts)
    weight = torch.empty(vocab, hidden, dtype=dtype, device=device)
    for start, stop in spans:
        weight[start:stop] = rows(start, stop).to(device=device, dtype=dtype)
    return functools.partial(nn.functional.linear, weight=weight)
