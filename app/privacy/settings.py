"""What a privacy evaluation runs with: depths, corpus, sample sizes, the attackers. Its key names its cache."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from app.privacy.threats import THREAT_MODELS


@dataclass(frozen=True)
class PrivacySettings:
    depths: tuple[int, ...] = (1, 2, 4, 6, 8)
    corpus: str | None = None  # a folder of .txt files; None = the bundled corpus
    # Read the corpus as the model would with pseudonymisation on. Off unless asked: the raw leak is the
    # measurement; what is left of identifiers is `privacy --identifiers`'s.
    pseudonymise: bool = False
    test_share: float = 0.2
    max_doc_tokens: int = 4096
    chunk_tokens: int = 512
    max_train_pairs: int = 24_000
    max_test_pairs: int = 4_000
    mlp_width: int = 2048
    mlp_epochs: int = 5
    search_candidates: int = 32
    seed: int = 0
    attackers: tuple[str, ...] = field(default=tuple(THREAT_MODELS))

    def key(self) -> str:
        """A short hash of everything that changes the numbers (the corpus folder by its contents)."""
        body = asdict(self)
        if self.corpus is not None:
            body["corpus"] = _folder_digest(Path(self.corpus))
        return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]

    @classmethod
    def from_dict(cls, data: dict) -> PrivacySettings:
        """The settings as a report records them (JSON turns tuples into lists)."""
        return cls(**{**data, "depths": tuple(data["depths"]), "attackers": tuple(data["attackers"])})


def _folder_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.expanduser().rglob("*.txt")):
        digest.update(str(path.relative_to(folder.expanduser())).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()
