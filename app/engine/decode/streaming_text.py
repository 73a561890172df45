"""The text of a growing answer, decoding only its last tokens at each new one.

Decoding the whole answer at every token costs O(n²) over a long answer. Decoding the new token alone
is wrong twice over: a byte-level tokenizer splits one character across tokens (an emoji, an accented
letter), and SentencePiece-style tokenizers drop or keep a word's leading space depending on what
precedes it. So each step decodes a short window — the tokens already shown since the last settled
point plus the new ones — and appends only what the window adds beyond its settled part, holding back
while the window ends in half a character (U+FFFD).
"""

from __future__ import annotations

REPLACEMENT = "\ufffd"


class StreamingText:
    """``add`` one token at a time; ``text`` is what can be shown so far, ``finish`` the exact whole."""

    def __init__(self, tokenizer, skip_special_tokens: bool = True):
        self._tokenizer = tokenizer
        self._skip = skip_special_tokens
        self.tokens: list[int] = []
        self.text = ""
        self._start = 0  # the window starts here: one settled token gives the next its context
        self._settled = 0  # tokens up to here are in ``text``

    def add(self, token: int) -> str:
        self.tokens.append(token)
        settled = self._decode(self.tokens[self._start : self._settled])
        window = self._decode(self.tokens[self._start :])
        if len(window) > len(settled) and not window.endswith(REPLACEMENT) and window.startswith(settled):
            self.text += window[len(settled) :]
            self._start, self._settled = self._settled, len(self.tokens)
        return self.text

    def finish(self) -> str:
        """The whole answer decoded at once: exact even where a tokenizer's clean-up looks across tokens."""
        self.text = self._decode(self.tokens)
        self._start = self._settled = len(self.tokens)
        return self.text

    def _decode(self, tokens: list[int]) -> str:
        return self._tokenizer.decode(tokens, skip_special_tokens=self._skip) if tokens else ""
