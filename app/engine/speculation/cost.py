"""What a step costs, measured live: the round trip, and the compute by block size.

A step's milliseconds are the RTT plus compute (local + remote + serialization) as a function of the
block's size. On a CPU that function is not a line: a single row runs matrix-vector products with no
mask, two rows already switch to matrix-matrix kernels and an explicit mask, and tiled kernels make
the cost climb in steps. ``BlockCost`` keeps each regime apart.
"""

from __future__ import annotations

DECAY = 0.97  # recent steps count more: the link and the text change as a reply goes on
SMOOTH = 0.2  # weight of the newest sample in running means


def running(mean: float | None, sample: float) -> float:
    """An exponentially weighted running mean; the first sample starts it."""
    return sample if mean is None else (1 - SMOOTH) * mean + SMOOTH * sample


class LinearCost:
    """Milliseconds as a + b·q, by exponentially weighted least squares over recent steps."""

    def __init__(self, prior_a: float, prior_b: float):
        self._prior = (prior_a, prior_b)
        self._sw = self._sx = self._sy = self._sxx = self._sxy = 0.0

    def observe(self, q: int, ms: float) -> None:
        self._sw = self._sw * DECAY + 1
        self._sx = self._sx * DECAY + q
        self._sy = self._sy * DECAY + ms
        self._sxx = self._sxx * DECAY + q * q
        self._sxy = self._sxy * DECAY + q * ms

    def predict(self, q: int) -> float:
        a, b = self.coefficients()
        return a + b * q

    def coefficients(self) -> tuple[float, float]:
        if self._sw == 0:
            return self._prior
        mean_x, mean_y = self._sx / self._sw, self._sy / self._sw
        var = self._sxx / self._sw - mean_x * mean_x
        if var < 1.0:  # one block size seen so far: keep the prior slope
            b = self._prior[1]
        else:
            b = max(0.0, (self._sxy / self._sw - mean_x * mean_y) / var)
        return mean_y - b * mean_x, b


class BlockCost:
    """Compute ms per step by block size.

    Single rows get their own running mean; blocks of two or more get a + b·q, corrected by what each
    size has measured (on a CPU 2- and 3-row blocks can cost more than 5- or 6-row ones).
    """

    BLOCK_PREMIUM = 1.5  # prior: a small block costs half again a single row, until measured
    SIZE_WEIGHT = 3.0  # a size's own measurements outweigh the line once it has this many

    def __init__(self, prior_single_ms: float = 30.0, prior_ms_per_row: float = 1.0):
        self._single: float | None = None
        self._prior_single = prior_single_ms
        self._prior_slope = prior_ms_per_row
        self._blocks: LinearCost | None = None
        self._sizes: dict[int, tuple[float, float]] = {}  # block size -> (running mean ms, samples seen)

    def observe(self, block_size: int, ms: float) -> None:
        if block_size == 1:
            self._single = running(self._single, ms)
            return
        if self._blocks is None:
            self._blocks = LinearCost(prior_a=ms - self._prior_slope * block_size, prior_b=self._prior_slope)
        self._blocks.observe(block_size, ms)
        mean, samples = self._sizes.get(block_size, (None, 0.0))
        # Samples are capped so the line keeps a third of the weight: a size measured long ago still
        # moves with the line when the machine's speed drifts.
        self._sizes[block_size] = (running(mean, ms), min(samples + 1, 2 * self.SIZE_WEIGHT))

    def predict(self, block_size: int) -> float:
        single = self._single
        if block_size == 1:
            if single is None and self._blocks is not None:
                return self._blocks.predict(2) / self.BLOCK_PREMIUM
            return self._prior_single if single is None else single
        if self._blocks is None:
            base = self._prior_single if single is None else single
            return base * self.BLOCK_PREMIUM + self._prior_slope * block_size
        line = max(self._blocks.predict(block_size), single or 0.0)
        if block_size not in self._sizes:
            return line
        mean, samples = self._sizes[block_size]
        blended = (samples * mean + self.SIZE_WEIGHT * line) / (samples + self.SIZE_WEIGHT)
        # A block does a single row's work and more: a size that happened to measure faster than one
        # row (noise, a warm cache) must not make speculating look cheaper than not.
        return max(blended, single or 0.0)


class StepCost:
    """Milliseconds of one step by block size: the measured round trip plus the compute for that size."""

    MIN_COMPUTE_MS = 0.05

    def __init__(self):
        self.compute = BlockCost()
        self.rtt_ms: float | None = None

    def observe_rtt(self, network_ms: float) -> None:
        self.rtt_ms = running(self.rtt_ms, network_ms)

    def observe_compute(self, block_size: int, compute_ms: float) -> None:
        self.compute.observe(block_size, compute_ms)

    def step_ms(self, block_size: int) -> float:
        # A line fitted through few points can dip to zero or below for small blocks: a step is never free.
        return (self.rtt_ms or 0.0) + max(self.MIN_COMPUTE_MS, self.compute.predict(block_size))
