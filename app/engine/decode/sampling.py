"""Choosing the next token from logits: greedy argmax, or seeded temperature + top-p sampling."""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class Sampling:
    """Greedy when temperature is 0; otherwise sample, reproducibly when a seed is given."""

    temperature: float = 0.0
    top_p: float = 1.0
    seed: int | None = None

    def __post_init__(self):
        if self.temperature < 0:
            raise ValueError("temperature must be >= 0")
        if not 0 < self.top_p <= 1:
            raise ValueError("top_p must be in (0, 1]")

    @property
    def greedy(self) -> bool:
        return self.temperature == 0


class TokenPicker:
    """Picks tokens for one generation; holds the random generator so a seed replays exactly."""

    def __init__(self, sampling: Sampling):
        self.sampling = sampling
        self.generator = torch.Generator()
        if sampling.seed is not None:
            self.generator.manual_seed(sampling.seed)
        else:
            self.generator.seed()

    def distribution(self, logits: torch.Tensor) -> torch.Tensor:
        """The sampling distribution over the vocabulary after temperature and top-p."""
        probs = torch.softmax(logits.float() / self.sampling.temperature, dim=-1)
        if self.sampling.top_p < 1:
            sorted_probs, order = probs.sort(descending=True)
            # Keep the smallest prefix whose mass reaches top_p (always at least one token).
            outside = sorted_probs.cumsum(-1) - sorted_probs >= self.sampling.top_p
            sorted_probs[outside] = 0
            probs = torch.zeros_like(probs).scatter_(-1, order, sorted_probs)
            probs /= probs.sum()
        return probs

    def pick(self, logits: torch.Tensor) -> int:
        """The next token for a single row of logits [V]."""
        if self.sampling.greedy:
            return int(logits.argmax())
        return self.sample(self.distribution(logits))

    def sample(self, probs: torch.Tensor) -> int:
        """One draw from a distribution over the vocabulary."""
        return int(torch.multinomial(probs.cpu(), 1, generator=self.generator))
