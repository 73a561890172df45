"""What both halves speak: frames and messages, the shard on disk, TLS and pins, logs without tokens."""
