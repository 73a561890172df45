"""Where the model comes from: specs to folders, the bundled GGUF, fingerprints, the split point."""
