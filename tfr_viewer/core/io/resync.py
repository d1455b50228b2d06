"""Find the next valid frame after damage, vectorised over a window of bytes.

A candidate offset is accepted when its 8-byte length has a matching masked CRC32C in
the next 4 bytes and its whole frame fits in the stream. Lengths of 2^40 bytes or more
are never candidates (no TFRecord file is that large), which lets a vector filter drop
almost every position of random bytes before any CRC is computed; the CRCs that remain
are computed once per distinct length, so long runs of zeros cost one CRC call.
"""

from __future__ import annotations

import numpy as np

from .framing import FRAME_OVERHEAD, HEADER_SIZE, masked_crc

_FIRST_STEP = 64 << 10
_MAX_STEP = 4 << 20
_COLS = np.arange(HEADER_SIZE)


def find_next_frame(
    arr: np.ndarray, base: int, start: int, size: int | None, eof: bool
) -> int | None:
    """The first stream offset ``>= start`` inside ``arr`` where a good frame begins.

    ``arr`` holds stream bytes ``[base, base + len(arr))``. ``size`` is the stream size
    when known. When it is unknown and the window is not the end of the stream
    (``eof`` false), a frame that runs past the window is accepted. Returns None when no
    candidate header lies in the window.
    """
    lo = max(start - base, 0)
    last = len(arr) - HEADER_SIZE
    step = _FIRST_STEP
    while lo <= last:
        hi = min(last + 1, lo + step)
        count = hi - lo
        seg = arr[lo : hi + HEADER_SIZE - 1]
        small = (seg[5 : 5 + count] == 0) & (seg[6 : 6 + count] == 0) & (seg[7 : 7 + count] == 0)
        idx = np.flatnonzero(small)
        if idx.size:
            rows = seg[idx[:, None] + _COLS]
            lengths = rows[:, :8].copy().view("<u8").ravel()
            stored = rows[:, 8:].copy().view("<u4").ravel()
            uniq, inverse = np.unique(lengths, return_inverse=True)
            expected = np.fromiter(
                (masked_crc(int(v).to_bytes(8, "little")) for v in uniq),
                dtype=np.uint32,
                count=len(uniq),
            )
            for hit in np.flatnonzero(expected[inverse.ravel()] == stored):
                offset = base + lo + int(idx[hit])
                end = offset + FRAME_OVERHEAD + int(lengths[hit])
                if size is not None:
                    fits = end <= size
                elif eof:
                    fits = end <= base + len(arr)
                else:
                    fits = True
                if fits:
                    return offset
        lo = hi
        step = min(step * 4, _MAX_STEP)
    return None
