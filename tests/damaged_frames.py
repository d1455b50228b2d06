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


def examples_with_a_bad_payload(folder) -> object:
    """``damaged.tfrecord`` in ``folder``: three Examples with a picture and a label
    each, record 1's payload CRC broken. Returns its path."""
    import io

    from PIL import Image

    from tfr_viewer.core.write.build import build_example

    out = io.BytesIO()
    Image.new("RGB", (16, 12), (10, 200, 10)).save(out, format="PNG")
    payloads = [build_example({"image/encoded": out.getvalue(), "label": [i]}) for i in range(3)]
    path = folder / "damaged.tfrecord"
    path.write_bytes(b"".join(frames_with_bad_payloads(payloads, [1])))
    return path
