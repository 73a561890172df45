"""The draft tree: a trie of candidate continuations rooted at the last sampled (not yet run) token."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from app.engine.speculation.sources import ROOT


@dataclass
class DraftTree:
    """Node 0 is the root; every other node has a parent, a depth and the sources that proposed it.

    ``sources[n]`` is the first source to propose node n; ``votes[n]`` lists every source that did. Each
    of them is credited when the node is accepted: crediting only the first would make a source that
    often agrees with another (the head with a context match) look worse than it is.
    """

    tokens: list[int]
    parents: list[int] = field(default_factory=lambda: [-1])
    depths: list[int] = field(default_factory=lambda: [0])
    sources: list[str] = field(default_factory=lambda: [ROOT])
    children: list[dict[int, int]] = field(default_factory=lambda: [{}])
    votes: list[list[str]] = field(default_factory=lambda: [[ROOT]])

    @classmethod
    def rooted_at(cls, token: int) -> DraftTree:
        return cls(tokens=[token])

    def __len__(self) -> int:
        return len(self.tokens)

    def add_path(self, path: Sequence[int], source: str | Sequence[str]) -> None:
        """Merge a continuation of the root into the trie; shared prefixes share nodes.

        ``source`` names who proposed the path, or each of its tokens (the head tags every token).
        """
        node = 0
        sources = [source] * len(path) if isinstance(source, str) else list(source)
        for token, source in zip(path, sources, strict=True):
            child = self.children[node].get(token)
            if child is None:
                child = len(self.tokens)
                self.tokens.append(token)
                self.parents.append(node)
                self.depths.append(self.depths[node] + 1)
                self.sources.append(source)
                self.votes.append([source])
                self.children.append({})
                self.children[node][token] = child
            elif source not in self.votes[child]:
                self.votes[child].append(source)
            node = child

    def ancestors(self, node: int) -> list[int]:
        """The node and all its ancestors up to the root."""
        chain = []
        while node != -1:
            chain.append(node)
            node = self.parents[node]
        return chain

    def pruned(self, keep: Sequence[int]) -> DraftTree:
        """The sub-tree of the given nodes, renumbered in the order given after the root.

        Each node's parent must come before it (or be the root). The controller lists nodes likeliest
        first, so the pruned tree's first nodes are the ones verification most likely reads.
        """
        keep = list(dict.fromkeys([0, *keep]))
        index = {old: new for new, old in enumerate(keep)}
        tree = DraftTree.rooted_at(self.tokens[0])
        for old in keep[1:]:
            if self.parents[old] not in index or index[self.parents[old]] >= index[old]:
                raise ValueError(f"node {old} is kept before its parent, or without it")
            parent = index[self.parents[old]]
            tree.tokens.append(self.tokens[old])
            tree.parents.append(parent)
            tree.depths.append(self.depths[old])
            tree.sources.append(self.sources[old])
            tree.votes.append(list(self.votes[old]))
            tree.children.append({})
            tree.children[parent][self.tokens[old]] = len(tree.tokens) - 1
        return tree


@dataclass
class Verdict:
    """What verification kept of a tree: the accepted path and the token sampled after it."""

    accepted: list[int]  # tree nodes on the accepted path, root first
    bonus: int  # the token sampled after the path: the next root

    def emitted(self, tree: DraftTree) -> list[int]:
        """The new tokens this step produced: the accepted drafts, then the bonus."""
        return [tree.tokens[node] for node in self.accepted[1:]] + [self.bonus]
