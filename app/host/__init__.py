"""The one door front ends use into the trusted half: the engine host (``engine_host``), the values it
exchanges (``values``) and what the app starts before the engine's imports (``early_start``).

Importing this package loads neither torch nor the engine: each name below is imported from where it is
defined on first use, so the desktop app can import ``app.host.early_start`` and launch the loopback
worker while torch is still unimported. A front end imports ``app.host`` and nothing else of the trusted
half (tests/unit/test_boundaries.py follows the imports transitively).
"""

from __future__ import annotations

import importlib
from typing import Any

# Each name a front end may use, and the module that defines it.
WHERE = {
    **dict.fromkeys(
        ("ChatInfo", "Ending", "EngineConfig", "ModelPrivacy", "NotAsReviewed", "Reply", "Role", "StepUpdate", "Turn"),
        "app.host.values",
    ),
    "EngineHost": "app.host.engine_host",
    "ConversationIdentifiers": "app.host.conversation_identifiers",
    "start_embedded_worker": "app.host.early_start",
    "BUNDLED_SPEC": "app.engine.source.names",
    "Cancelled": "app.jobs",
    "CorpusError": "app.privacy.corpus",
    "LocalStepCost": "app.engine.decode.metrics",
    "StepTiming": "app.engine.decode.metrics",
    "LinkErrorCode": "app.engine.link.link_codes",
    "Manifest": "app.wire.shard_format",
    "ModelError": "app.model.errors",
    "ModelFacts": "app.engine.source.inspection",
    "ModelText": "app.identifiers.pseudonyms",
    "PrivacyReport": "app.privacy.report",
    "PrivacySettings": "app.privacy.settings",
    "Sampling": "app.engine.decode.sampling",
    "WorkerError": "app.engine.link.link_codes",
    "WorkerProbe": "app.engine.link.probe",
    "bundled_model_report": "app.privacy.shipped",
    "is_shipped": "app.privacy.shipped",
}
__all__ = sorted(WHERE)


def __getattr__(name: str) -> Any:
    if name not in WHERE:
        raise AttributeError(f"module 'app.host' has no attribute {name!r}")
    value = getattr(importlib.import_module(WHERE[name]), name)
    globals()[name] = value  # resolved once
    return value
