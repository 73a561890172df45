"""The one door front ends use into the trusted half: the engine host (``engine_host``) and what the app
starts before the engine's imports (``early_start``).

Importing this package loads neither torch nor the engine: its names resolve on first use, so the desktop
app can import ``app.host.early_start`` and launch the loopback worker while torch is still unimported.
A front end imports ``app.host`` and nothing else of the trusted half (tests/unit/test_boundaries.py
follows the imports transitively).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the names below are, for readers and type checkers; nothing is imported at run time
    from app.host.early_start import start_embedded_worker
    from app.host.engine_host import (
        BUNDLED_SPEC,
        Cancelled,
        ChatInfo,
        ChatReply,
        CorpusError,
        EngineConfig,
        EngineHost,
        LocalStepCost,
        Manifest,
        ModelError,
        ModelFacts,
        ModelPrivacy,
        ModelText,
        NotAsReviewed,
        PrivacyReport,
        PrivacySettings,
        Pseudonyms,
        Sampling,
        StepUpdate,
        WorkerError,
        WorkerProbe,
        bundled_model_report,
        is_shipped,
    )

_EARLY = ("start_embedded_worker",)
__all__ = [
    "BUNDLED_SPEC",
    "Cancelled",
    "ChatInfo",
    "ChatReply",
    "CorpusError",
    "EngineConfig",
    "EngineHost",
    "LocalStepCost",
    "Manifest",
    "ModelError",
    "ModelFacts",
    "ModelPrivacy",
    "ModelText",
    "NotAsReviewed",
    "PrivacyReport",
    "PrivacySettings",
    "Pseudonyms",
    "Sampling",
    "StepUpdate",
    "WorkerError",
    "WorkerProbe",
    "bundled_model_report",
    "is_shipped",
    "start_embedded_worker",
]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'app.host' has no attribute {name!r}")
    module = importlib.import_module("app.host.early_start" if name in _EARLY else "app.host.engine_host")
    value = getattr(module, name)
    globals()[name] = value  # resolved once
    return value
