"""Prepacked oneDNN linear layers: the same products as F.linear, used wherever they can be, and optional."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from app.engine.decode.edge import LocalEdge
from app.engine.source.specs import resolve_model
from app.model import kernels
from app.model.choices import SplitSpec
from app.model.kernels import (
    Int8Linear,
    PackedLinear,
    int8_available,
    linear_of,
    pack_linears,
    packing_available,
)
from app.model.layers import LayerStack

needs_packing = pytest.mark.skipif(
    not packing_available(torch.float32), reason="this torch build cannot prepack linear weights"
)


needs_int8 = pytest.mark.skipif(not int8_available(), reason="this torch build has no fbgemm int8 linear")


@pytest.fixture
def plain_kernels(monkeypatch):
    """Kernels as a user who set SPLITCHAT_KERNELS=plain gets them (the checks are cached per process)."""
    monkeypatch.setenv(kernels.ENV, "plain")
    packing_available.cache_clear()
    int8_available.cache_clear()
    yield
    monkeypatch.delenv(kernels.ENV)
    packing_available.cache_clear()
    int8_available.cache_clear()


@needs_packing
@pytest.mark.parametrize("rows", [1, 3, 4, 14, 33])
def test_packed_linear_equals_dense_linear(rows):
    generator = torch.Generator().manual_seed(rows)
    weight = torch.randn(96, 64, generator=generator)
    bias = torch.randn(96, generator=generator)
    x = torch.randn(1, rows, 64, generator=generator)
    with torch.inference_mode():
        got = PackedLinear(weight, bias)(x)
    assert got.shape == (1, rows, 96) and got.dtype == torch.float32
    torch.testing.assert_close(got, nn.functional.linear(x, weight, bias), rtol=1e-5, atol=1e-5)


@needs_packing
def test_packed_bfloat16_stays_bfloat16_and_close():
    if not packing_available(torch.bfloat16):
        pytest.skip("no bfloat16 prepacking here")
    generator = torch.Generator().manual_seed(1)
    weight = torch.randn(80, 48, generator=generator).bfloat16()
    x = torch.randn(5, 48, generator=generator).bfloat16()
    got = PackedLinear(weight)(x)
    assert got.dtype == torch.bfloat16
    torch.testing.assert_close(got.float(), nn.functional.linear(x.float(), weight.float()), rtol=2e-2, atol=2e-1)


@needs_packing
def test_pack_linears_replaces_every_linear_and_keeps_the_output():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.SiLU(), nn.Sequential(nn.Linear(32, 8, bias=False), nn.Tanh()))
    x = torch.randn(7, 16)
    with torch.inference_mode():
        want = model(x)
        assert pack_linears(model) == 2
        got = model(x)
    assert not any(isinstance(m, nn.Linear) for m in model.modules())
    assert sum(isinstance(m, PackedLinear) for m in model.modules()) == 2
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)


def test_half_precision_and_integer_weights_are_left_dense():
    model = nn.Sequential(nn.Linear(8, 8).half())
    assert pack_linears(model) == 0 and isinstance(model[0], nn.Linear)
    weight = torch.randn(4, 8, dtype=torch.float64)
    assert not isinstance(linear_of(weight), PackedLinear)
    torch.testing.assert_close(linear_of(weight)(torch.ones(2, 8, dtype=torch.float64)), weight.sum(1).expand(2, 4))


def test_plain_setting_turns_packing_off(plain_kernels):
    assert not packing_available(torch.float32)
    model = nn.Sequential(nn.Linear(8, 8))
    assert pack_linears(model) == 0 and isinstance(model[0], nn.Linear)


@needs_packing
def test_model_stacks_and_lm_head_run_on_packed_weights(tiny_models):
    folder, model = tiny_models["llama"]
    source = resolve_model(str(folder))
    stack = LayerStack.from_source(source, 1, 3)
    projections = [m for m in stack.modules() if isinstance(m, PackedLinear)]
    assert len(projections) == 2 * 7  # q, k, v, o, gate, up, down per layer
    assert not any(isinstance(m, nn.Linear) for m in stack.modules())
    edge = LocalEdge(source, SplitSpec(1, 1))
    assert isinstance(edge._lm_head, PackedLinear)
    features = torch.randn(3, source.config.hidden_size)
    torch.testing.assert_close(
        edge.project(features), nn.functional.linear(features, edge.lm_head_weight), rtol=1e-5, atol=1e-5
    )


def test_model_stacks_are_dense_when_packing_is_off(tiny_models, plain_kernels):
    folder, _ = tiny_models["llama"]
    stack = LayerStack.from_source(resolve_model(str(folder)), 1, 3)
    assert sum(isinstance(m, nn.Linear) for m in stack.modules()) == 2 * 7
    assert not any(isinstance(m, PackedLinear) for m in stack.modules())


@needs_int8
@pytest.mark.parametrize("rows", [1, 4, 24])
def test_int8_linear_is_within_eight_bits_rounding_of_the_dense_product(rows):
    # a draft head's sizes and a language model's weight scale: an error of 2 % of the output's range
    # is the rounding of eight bits; without the reduced range the 576-wide sums saturated at 10 %
    generator = torch.Generator().manual_seed(rows)
    layer = nn.Linear(576, 1024)
    with torch.no_grad():
        layer.weight.copy_(torch.randn(1024, 576, generator=generator) * 0.05)
        layer.bias.copy_(torch.randn(1024, generator=generator))
    x = torch.randn(rows, 576, generator=generator)
    with torch.inference_mode():
        want, got = layer(x), Int8Linear(layer.weight, layer.bias)(x)
    assert got.dtype == torch.float32 and got.shape == want.shape
    assert (got - want).abs().max() < 0.03 * want.abs().max()


def test_plain_setting_turns_int8_off(plain_kernels):
    assert not int8_available()
