"""CRC32C throughput on a 1 MB buffer, for each path of the compiled core and for
google-crc32c beside them, measured in one run.

Usage: ``python tests/benchmarks/crc_benchmarks.py``. Each figure is the best of five
runs of ``REPEAT`` CRCs of the same buffer (so it is in the CPU's caches: this measures
the CRC, not the memory), in GB/s (10^9 bytes a second).
"""

from __future__ import annotations

import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

SIZE = 1 << 20
REPEAT = 2000


def throughput(crc, data: bytes) -> float:
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(REPEAT):
            crc(data)
        best = min(best, time.perf_counter() - t0)
    return REPEAT * len(data) / best / 1e9


def main() -> int:
    from google_crc32c import implementation, value

    from tfr_viewer.core import _fast

    data = os.urandom(SIZE)
    rows = [
        (f"compiled core, the path in use ({_fast.CRC_PATH})", lambda d: _fast.crc32c(d)),
        ("compiled core, portable (slicing-by-8)", lambda d: _fast.crc32c(d, impl="portable")),
        (f"google-crc32c ({implementation})", value),
    ]
    print(f"CRC32C of a {SIZE >> 20} MB buffer, {platform.processor() or platform.machine()}")
    print("| path | GB/s | target |")
    print("|---|---|---|")
    for name, crc in rows:
        target = ">= 12" if "in use" in name else ""
        print(f"| {name} | {throughput(crc, data):.2f} | {target} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
