"""The decode loop across the split: the local edge, blocks, verification, sampling, step timings."""
