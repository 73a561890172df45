"""What the hostile-worker tests share: zstd frames that lie about their size, and a process's peak memory."""

from __future__ import annotations

import contextlib
import struct
import threading
from collections.abc import Iterator

import psutil

_ZSTD_MAGIC = 0xFD2FB528
_BLOCK = 128 << 10  # the most one zstd block may regenerate


def zero_frame(declared: int, content: int | None = None) -> bytes:
    """A zstd frame that says it holds ``declared`` bytes and holds ``content`` (default: as declared) zeros.

    Built by hand as run-length blocks, 4 bytes per 128 KiB, so a frame of a few KB declares gigabytes
    without this process ever holding them: what a hostile worker would send.
    """
    content = declared if content is None else content
    # Descriptor 0xC0: an 8-byte content size, no checksum, and a window descriptor (0x38: 128 KiB) as a
    # compressor writes one, so a decoder needs only that window whatever the size declared.
    blocks = [struct.pack("<IBB", _ZSTD_MAGIC, 0xC0, 0x38), struct.pack("<Q", declared)]
    left = content
    while True:
        size = min(left, _BLOCK)
        left -= size
        last = left == 0
        blocks.append(((size << 3) | (1 << 1) | int(last)).to_bytes(3, "little") + b"\0")  # type 1: RLE
        if last:
            return b"".join(blocks)


def _own_resident(process: psutil.Process) -> int:
    """Resident bytes the process allocated itself: RSS less its file-backed pages (Linux's ``shared``), which
    rise whenever a library's code is first run and say nothing about what a reply made it allocate."""
    info = process.memory_info()
    return info.rss - getattr(info, "shared", 0)


@contextlib.contextmanager
def peak_rss_growth() -> Iterator[list[float]]:
    """How far this process's own resident memory rose above where it stood, in MiB, while the block ran.

    psutil samples it every millisecond (unpacking a reply of hundreds of MB takes far longer than that);
    the growth is appended to the list yielded.
    """
    process = psutil.Process()
    before = _own_resident(process)
    highest = [before]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.001):
            highest[0] = max(highest[0], _own_resident(process))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    growth: list[float] = []
    try:
        yield growth
    finally:
        done.set()
        sampler.join()
        growth.append((max(highest[0], _own_resident(process)) - before) / 2**20)
