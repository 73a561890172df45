"""The attackers the evaluation runs, each with the threat model under which it applies: what it must hold."""

from __future__ import annotations

THREAT_MODELS = {
    "learned_mlp": (
        "Has collected (activation, token) pairs at this cut — for example as a client of the same "
        "deployment — and trained the published inversion MLP (hidden → 2048 → 2048 → vocabulary) on them. "
        "Needs no weights."
    ),
    "public_embedding": (
        "Holds the public embedding matrix (the local layers are a published checkpoint) and scores each "
        "hidden state against every embedding row by cosine similarity. No training."
    ),
    "public_codebook": (
        "Holds the public embedding and head layers: runs every vocabulary token through them once (after "
        "the most common token as context) and names the codebook row nearest each observed hidden state. "
        "No training, no data. Applies to what the worker receives."
    ),
    "public_head_search": (
        "Holds the public embedding and head layers: re-runs them on the codebook's 32 nearest candidates "
        "in the real context, keeps the one that reproduces the observed hidden state, and feeds its own "
        "recoveries back as context. Applies to what the worker receives."
    ),
    "public_tail": (
        "Holds the public tail layers, final norm and LM head: runs them on what the worker returns and "
        "reads the next token — exactly what the workstation computes. For tokens the model generates "
        "greedily this recovers every one by construction."
    ),
    "most_frequent": "Knows only word frequencies: always guesses the training documents' most frequent tokens.",
    "unigram_prior": (
        "Knows only word frequencies: guesses at random from the training documents' unigram distribution."
    ),
}
