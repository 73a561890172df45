"""Attackers on the hidden states that cross the wire; each returns its top-5 guesses per position.

Every attacker names the threat model under which it applies (``threats.py``): what it must already hold.
"""

from __future__ import annotations

import torch

from app.jobs import CancelFlag, Progress, raise_if_cancelled
from app.privacy.activations import TOP, WholeModel


def most_frequent(train_targets: torch.Tensor, n: int) -> torch.Tensor:
    counts = torch.bincount(train_targets)
    top = counts.topk(min(TOP, int((counts > 0).sum()))).indices
    return _padded(top.expand(n, -1))


def unigram_prior(train_targets: torch.Tensor, n: int, seed: int) -> torch.Tensor:
    counts = torch.bincount(train_targets).float()
    draws = min(TOP, int((counts > 0).sum()))
    generator = torch.Generator().manual_seed(seed)
    guesses = torch.multinomial(counts.expand(n, -1), draws, replacement=False, generator=generator)
    return _padded(guesses)


@torch.inference_mode()
def nearest_rows(hidden: torch.Tensor, rows: torch.Tensor, k: int = TOP, batch: int = 1024) -> torch.Tensor:
    """Indices of the k rows most cosine-similar to each hidden state (rows: the embedding or a codebook)."""
    unit_rows = torch.nn.functional.normalize(rows.float(), dim=-1)
    out = []
    for i in range(0, len(hidden), batch):
        block = torch.nn.functional.normalize(hidden[i : i + batch].float(), dim=-1)
        out.append((block @ unit_rows.T).topk(k, dim=-1).indices)
    return torch.cat(out) if out else torch.empty(0, k, dtype=torch.long)


@torch.inference_mode()
def codebook(
    model: WholeModel,
    depth: int,
    context: list[int],
    batch: int = 1024,
    progress: Progress | None = None,
    cancel: CancelFlag | None = None,
) -> torch.Tensor:
    """Row v: the hidden state entering layer ``depth`` for token v placed right after ``context``.

    Built from public weights alone (every vocabulary token as a sibling after the same context), it
    turns inversion into a nearest-neighbour lookup: the residual stream of shallow layers is still
    mostly the token itself.
    """
    stack = model.stack(0, depth)
    prefix = torch.tensor(context)
    stack(model.embed_ids(prefix.view(1, -1)), torch.arange(len(context)))
    vocab, rows = len(model.embed), []
    for first in range(0, vocab, batch):
        raise_if_cancelled(cancel)
        ids = torch.arange(first, min(vocab, first + batch))
        siblings = torch.eye(len(ids), dtype=torch.bool)
        block = model.embed_ids(ids.view(1, -1))
        rows.append(stack(block, torch.full((len(ids),), len(context)), siblings)[0])
        stack.crop(len(context))
        if progress:
            progress(f"Codebook at depth {depth} ({first + len(ids)}/{vocab} tokens)", (first + len(ids)) / vocab)
    return torch.cat(rows)


@torch.inference_mode()
def head_search(
    model: WholeModel,
    depth: int,
    observed: torch.Tensor,
    shortlist: torch.Tensor,
    chunks: list[tuple[int, int]],
    progress: Progress | None = None,
    cancel: CancelFlag | None = None,
) -> torch.Tensor:
    """Recover each chunk token by token by re-running the public head layers on a shortlist.

    ``observed`` holds the hidden states entering layer ``depth``; ``shortlist`` the candidate tokens
    per position (the codebook's nearest). Each step runs the candidates as siblings (each sees the
    recovered context, not each other), ranks them by distance to the observed state, and commits the
    best one to the cache as the next context token.
    """
    stack = model.stack(0, depth)
    siblings = torch.eye(shortlist.shape[1], dtype=torch.bool)
    guesses = torch.empty(len(observed), TOP, dtype=torch.long)
    done, total = 0, len(observed)
    for start, end in chunks:
        stack.reset()
        for t in range(end - start):
            raise_if_cancelled(cancel)
            options = shortlist[start + t]
            block = model.embed_ids(options.view(1, -1))
            positions = torch.full((len(options),), t)
            produced = stack(block, positions, siblings)[0]
            order = (produced - observed[start + t]).norm(dim=-1).argsort()
            stack.keep(t, [int(order[0])])
            guesses[start + t] = options[order[:TOP]]
        done += end - start
        if progress:
            progress(f"Head search at depth {depth} ({done}/{total} positions)", done / total)
    return guesses


def learned_inversion(
    x_train: torch.Tensor,
    y_train: torch.Tensor,
    x_test: torch.Tensor,
    width: int = 2048,
    epochs: int = 5,
    batch: int = 512,
    lr: float = 1e-3,
    seed: int = 0,
    progress: Progress | None = None,
    cancel: CancelFlag | None = None,
) -> torch.Tensor:
    """Train the published MLP inverter on (activation, token) pairs; return its top-5 on ``x_test``.

    Inputs are standardised per feature with the training statistics (deep residual streams carry a
    few huge channels that otherwise swamp the rest). The output layer spans the tokens seen in
    training: an attacker can only name a token it has examples of.
    """
    classes, labels = torch.unique(y_train, return_inverse=True)
    mean = x_train.float().mean(0)
    std = x_train.float().std(0).clamp_min(1e-6)
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        net = torch.nn.Sequential(
            torch.nn.Linear(x_train.shape[1], width),
            torch.nn.ReLU(),
            torch.nn.Linear(width, width),
            torch.nn.ReLU(),
            torch.nn.Linear(width, len(classes)),
        )
        optimiser = torch.optim.Adam(net.parameters(), lr=lr)
        generator = torch.Generator().manual_seed(seed)
        steps = epochs * ((len(x_train) + batch - 1) // batch)
        done = 0
        for _ in range(epochs):
            order = torch.randperm(len(x_train), generator=generator)
            for i in range(0, len(order), batch):
                raise_if_cancelled(cancel)
                pick = order[i : i + batch]
                loss = torch.nn.functional.cross_entropy(net((x_train[pick].float() - mean) / std), labels[pick])
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()
                done += 1
                if progress and (done % 10 == 0 or done == steps):
                    progress(f"Training the inversion MLP (step {done}/{steps})", done / steps)
    net.eval()
    with torch.inference_mode():
        scores = torch.cat([net((x_test[i : i + 4096].float() - mean) / std) for i in range(0, len(x_test), 4096)])
    top = scores.topk(min(TOP, len(classes)), dim=-1).indices
    return _padded(classes[top])


def hits(guesses: torch.Tensor, targets: torch.Tensor) -> tuple[list[bool], list[bool]]:
    """Per-position (top-1 right, top-5 right)."""
    match = guesses == targets.view(-1, 1)
    return match[:, 0].tolist(), match.any(dim=-1).tolist()


def _padded(guesses: torch.Tensor) -> torch.Tensor:
    """Fill up to TOP columns with -1 (never a token) when fewer guesses exist."""
    if guesses.shape[1] == TOP:
        return guesses.contiguous()
    pad = torch.full((guesses.shape[0], TOP - guesses.shape[1]), -1, dtype=torch.long)
    return torch.cat([guesses, pad], dim=1)
