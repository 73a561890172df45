"""The bench's prompt set (``app/resources/bench_prompts.json``): chat, document QA, code and creative writing."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from app.resources import BENCH_PROMPTS

# Not one of the measured prompts: the warm-up must not teach the controller their answers.
WARMUP = [{"role": "user", "content": "Hello! Please introduce yourself briefly."}]


@dataclass
class BenchPrompt:
    id: str
    category: str
    messages: list[dict]


def load_prompts(path: Path = BENCH_PROMPTS, per_category: int = 0) -> list[BenchPrompt]:
    """The bench prompt set; ``per_category`` > 0 keeps only the first N of each category."""
    prompts = [BenchPrompt(**p) for p in json.loads(path.read_text())["prompts"]]
    if per_category:
        seen: Counter[str] = Counter()
        kept = []
        for prompt in prompts:
            seen[prompt.category] += 1
            if seen[prompt.category] <= per_category:
                kept.append(prompt)
        prompts = kept
    return prompts
