"""The untrusted half: serves the middle decoder layers and nothing else."""
