"""Which drafted tokens the full model agrees with — losslessly, greedy or sampled.

Greedy: walk down the tree while the child equals the argmax. Sampling (drafts are deterministic, so a
drafted token x is accepted with probability p(x)): try a node's children in turn; each rejected child is
removed from p and p renormalised (SpecInfer's multi-candidate rule); if none is accepted, the bonus
token is drawn from what remains. The accepted path ends with a bonus token drawn from the last node's p.
The output distribution equals plain sampling from the model.
"""

from __future__ import annotations

import torch

from app.engine.decode.sampling import TokenPicker
from app.engine.speculation.tree import DraftTree, Verdict


def remove_and_renormalise(probs: torch.Tensor, token: int) -> torch.Tensor:
    """p with ``token`` removed and the rest rescaled to sum to one."""
    probs = probs.clone()
    probs[token] = 0
    total = probs.sum()
    return probs / total if total > 0 else probs


def verify(tree: DraftTree, logits: torch.Tensor, picker: TokenPicker) -> Verdict:
    """Accept the longest path the model agrees with; ``logits[n]`` are node n's logits."""
    node, accepted = 0, [0]
    greedy = picker.sampling.greedy
    while True:
        children = tree.children[node]
        if greedy:
            choice = int(logits[node].argmax())
            child = children.get(choice)
            if child is None:
                return Verdict(accepted, choice)
        else:
            probs = picker.distribution(logits[node])
            child = None
            for token, candidate in children.items():
                if float(torch.rand((), generator=picker.generator)) < float(probs[token]):
                    child = candidate
                    break
                probs = remove_and_renormalise(probs, token)
            if child is None:
                return Verdict(accepted, picker.sample(probs))
        node = child
        accepted.append(node)
