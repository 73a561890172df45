"""The compute devices and dtypes a user may name, once for every command, setting and process (the app, the
CLI, the worker, the benches): torch-free, so the settings layer reads them without loading torch."""

from __future__ import annotations

DEVICE_CHOICES = ("auto", "cpu", "cuda")
DTYPE_CHOICES = ("auto", "float32", "bfloat16", "float16")
# What hidden states may cross the wire in, and what an exported shard may store: a dtype, never "auto".
STORED_DTYPE_CHOICES = ("float32", "float16", "bfloat16")
