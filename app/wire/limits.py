"""Wire limits both halves agree on, in a module that imports nothing (``splitchat --help`` reads them
without loading torch)."""

DEFAULT_MAX_FRAME = 1 << 20  # bytes; both ends set it explicitly
