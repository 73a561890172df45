"""Model names the app knows without loading anything (``splitchat --help`` shows them before torch loads)."""

BUNDLED_SPEC = "smollm2-135m-instruct"
