"""The model's training answers, and the file that keeps them so that training a head again does not answer again.

Answering is most of train-draft's time; the head's own settings (epochs, sizes, unrolling) do not change the
answers, so a file of answers is reused for as long as what made them (the weights, the prompts, the answering
settings) is the same, and refused with what differs otherwise.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import torch

FORMAT = 1


@dataclass
class Answer:
    """One prompt and the model's answer, as ids, with the features the model computed for each position."""

    ids: list[int]
    prompt_len: int
    sampled: bool = False
    features: torch.Tensor | None = None  # [n, H]: final normed hidden state per position
    argmax: torch.Tensor | None = None  # [n]: the model's greedy choice after each position
    early: torch.Tensor | None = None  # [n, H]: the hidden state after the first ``fuse_layer`` layers


@dataclass(frozen=True)
class AnswerRecipe:
    """What the answers depend on; two runs with equal recipes answer alike."""

    fingerprint: str
    prompts_sha256: str
    new_tokens: int
    sampled_answers: int
    generate_batch: int  # the sampled answers' random draws follow the batches
    seed: int
    fuse_layer: int | None
    dtype: str  # the model's: bfloat16 answers on a GPU are not a float32 run's


def prompts_digest(prompts: Sequence[list[dict]]) -> str:
    return hashlib.sha256(json.dumps(list(prompts), sort_keys=True).encode("utf-8")).hexdigest()


class AnswerFileMismatch(ValueError):
    """The file holds answers made another way (other weights, prompts or settings)."""


def save_answers(path: Path, recipe: AnswerRecipe, answers: Sequence[Answer]) -> None:
    rows = [
        {
            "ids": torch.tensor(a.ids),
            "prompt_len": a.prompt_len,
            "sampled": a.sampled,
            "features": a.features,
            "argmax": a.argmax,
            "early": a.early,
        }
        for a in answers
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    torch.save({"format": FORMAT, "recipe": vars(recipe), "answers": rows}, partial)
    partial.replace(path)  # a run stopped while writing leaves no half file under the real name


def load_answers(path: Path, recipe: AnswerRecipe) -> list[Answer]:
    try:
        data = torch.load(path, weights_only=True)
    except Exception as exc:
        raise AnswerFileMismatch(f"{path} is not a file of training answers ({exc.__class__.__name__})") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise AnswerFileMismatch(f"{path} is not a file of training answers this version reads")
    differs = sorted(k for k, v in vars(recipe).items() if data["recipe"].get(k) != v)
    if differs:
        raise AnswerFileMismatch(
            f"{path} holds answers made with another {', '.join(differs)}; give another --answers file "
            "(or delete this one) to answer again"
        )
    return [
        Answer(r["ids"].tolist(), r["prompt_len"], r["sampled"], r["features"], r["argmax"], r["early"])
        for r in data["answers"]
    ]
