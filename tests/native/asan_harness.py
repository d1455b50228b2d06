"""Run generated cases through a sanitizer build of the compiled core.

Usage: python -m tests.native.asan_harness MODULE_PATH CASES. Each payload is copied
into its own exactly sized heap block (numpy, with PYTHONMALLOC=malloc), so a read one
byte past a payload lands in AddressSanitizer's red zone and aborts the process.
"""

from __future__ import annotations

import contextlib
import importlib.util
import random
import sys
import tempfile

import numpy as np

from tests.fuzz.differential.encoding import KEYS, case


def load(path: str):
    spec = importlib.util.spec_from_file_location("_fast", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    module = load(sys.argv[1])
    cases = int(sys.argv[2])
    keys = tuple(k.encode() for k in KEYS)
    one = np.zeros(1, dtype=np.int64)
    rng = random.Random(3)
    for n in range(cases):
        payload = case(1, n)
        buf = np.frombuffer(payload, dtype=np.uint8).copy()
        length = np.array([len(payload)], dtype=np.int64)
        module.extract(buf, one, length, keys)
        module.discover(buf, one, length)
        module.tf_check(buf, one, length)
        module.tf_fields(buf)
        if n % 50 == 0:  # frames: random bytes and real frames cut anywhere
            frames = bytearray()
            for _ in range(rng.randrange(4)):
                size = rng.randrange(40)
                frames += size.to_bytes(8, "little") + rng.randbytes(8 + size)
            data = np.frombuffer(bytes(frames) + payload, dtype=np.uint8).copy()
            out = np.zeros(64, dtype=np.uint64), np.zeros(64, dtype=np.uint64)
            module.scan_frames(data, 0, 64, True, 0, *out, np.zeros(64, dtype=np.uint8))
            module.crc32c(data, impl="portable")
            n = len(data)  # payloads and their CRCs at every place, some past the end
            starts = np.array([rng.randrange(n + 2) - 1 for _ in range(8)], dtype=np.int64)
            sizes = np.array([rng.randrange(n + 2) for _ in range(8)], dtype=np.int64)
            with contextlib.suppress(ValueError):
                module.payload_crcs(data, starts, sizes, np.zeros(8, dtype=np.uint8))
            with tempfile.TemporaryFile() as f:  # the header hop, over a file that may be
                f.write(data.tobytes())  # shorter than the size it is said to have
                f.flush()
                said = len(data) + rng.randrange(3) * rng.randrange(1 << 20)
                module.hop_frames(f.fileno(), said, 0, 64, rng.randrange(2) * 30, *out)
    print(f"{cases} cases clean")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
