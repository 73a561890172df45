"""The bench's prompt sets: its own (``bench_prompts.json``: document QA, code, chat, creative writing) and a
held-out one (``bench_prompts_heldout.json``: chat, clinical, legal, code, writing) written apart from both
it and the draft head's training prompts, so a drafter tuned on the first is also measured on text it never
shaped."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from app.bench.records import BENCH_SET
from app.resources import BENCH_PROMPTS, HELD_OUT_BENCH_PROMPTS

# Not one of the measured prompts: the warm-up must not teach the controller their answers.
WARMUP = [{"role": "user", "content": "Hello! Please introduce yourself briefly."}]


class PromptSet(Enum):
    BENCH = BENCH_SET
    HELD_OUT = "held-out"

    @property
    def path(self) -> Path:
        return BENCH_PROMPTS if self is PromptSet.BENCH else HELD_OUT_BENCH_PROMPTS


PROMPT_SET_CHOICES = {"bench": (PromptSet.BENCH,), "held-out": (PromptSet.HELD_OUT,), "both": tuple(PromptSet)}


@dataclass
class BenchPrompt:
    id: str
    category: str
    messages: list[dict]
    prompt_set: str = BENCH_SET


def load_prompts(
    path: Path | None = None, per_category: int = 0, prompt_set: PromptSet = PromptSet.BENCH
) -> list[BenchPrompt]:
    """One prompt set (``path`` overrides where it is read from); ``per_category`` > 0 keeps only the first N
    of each category."""
    data = json.loads((path or prompt_set.path).read_text(encoding="utf-8"))
    prompts = [BenchPrompt(**p, prompt_set=prompt_set.value) for p in data["prompts"]]
    if per_category:
        seen: Counter[str] = Counter()
        kept = []
        for prompt in prompts:
            seen[prompt.category] += 1
            if seen[prompt.category] <= per_category:
                kept.append(prompt)
        prompts = kept
    return prompts


def load_prompt_sets(choice: str, per_category: int = 0) -> list[BenchPrompt]:
    """``bench``, ``held-out`` or ``both`` (the bench's first); their ids must not collide."""
    if choice not in PROMPT_SET_CHOICES:
        raise ValueError(f"unknown prompt set {choice!r}; choose from {', '.join(PROMPT_SET_CHOICES)}")
    prompts = [p for s in PROMPT_SET_CHOICES[choice] for p in load_prompts(per_category=per_category, prompt_set=s)]
    repeated = [i for i, n in Counter(p.id for p in prompts).items() if n > 1]
    if repeated:
        raise ValueError(f"prompt ids appear twice: {', '.join(sorted(repeated))}")
    return prompts
