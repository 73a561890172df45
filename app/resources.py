"""Where the files shipped beside the code live: prompt sets, the bundled model's draft head."""

from __future__ import annotations

from pathlib import Path

# The folder holding ``app/`` (a checkout, or a frozen bundle's root); ``python -m app…`` runs from here.
CODE_ROOT = Path(__file__).resolve().parents[1]
RESOURCES = CODE_ROOT / "resources"
BENCH_PROMPTS = RESOURCES / "bench_prompts.json"
DRAFT_PROMPTS = RESOURCES / "draft_prompts.json"
SHIPPED_DRAFT_HEADS = RESOURCES / "drafts"
