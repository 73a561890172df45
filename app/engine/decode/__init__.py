"""The decode loop across the split: the local edge, blocks, verification, sampling, step timings, and recovery
from a lost worker."""
