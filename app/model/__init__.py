"""What both halves compute with: configs, weights by name, the layer stack, its KV cache, masks, kernels."""
