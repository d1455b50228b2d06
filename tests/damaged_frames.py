"""TFRecord bytes with payload CRCs broken on purpose: the commonest damage a test
plants, made one way."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tfr_viewer.core.io.framing import encode_frame


def frames_with_bad_payloads(payloads: Sequence[bytes], bad: Iterable[int]) -> list[bytes]:
    """The frames of ``payloads``, those of records ``bad`` with their last byte (the
    payload CRC) flipped: each of those reads as ``BAD_DATA_CRC``, the framing intact."""
    frames = [encode_frame(p) for p in payloads]
    for record in bad:
        broken = bytearray(frames[record])
        broken[-1] ^= 1
        frames[record] = bytes(broken)
    return frames
