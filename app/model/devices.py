"""Choose a compute device and dtype: ``auto`` means CUDA with bfloat16 where a GPU is present."""

from __future__ import annotations

import torch

from app.model.choices import DEVICE_CHOICES, DTYPE_CHOICES


def resolve_device(name: str = "auto") -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise ValueError("--device cuda was asked for, but PyTorch sees no CUDA GPU here")
    if name not in DEVICE_CHOICES:
        raise ValueError(f"device must be one of {', '.join(DEVICE_CHOICES)}")
    return torch.device(name)


def resolve_dtype(name: str, device: torch.device) -> torch.dtype:
    if name == "auto":
        return torch.bfloat16 if device.type == "cuda" else torch.float32
    if name not in DTYPE_CHOICES:
        raise ValueError(f"dtype must be one of {', '.join(DTYPE_CHOICES)}")
    return getattr(torch, name)


def wire_dtype_for(dtype: torch.dtype) -> str:
    """Hidden states cross the wire in half precision, or float32 when computing in float32 (exactness)."""
    return str(dtype).removeprefix("torch.")
