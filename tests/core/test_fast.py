"""The compiled core: CRC32C bit for bit against google-crc32c, and the frame scan's
bounds. Skipped where the module was not built (the pure-Python path is tested by the
rest of the suite)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from google_crc32c import value as reference_crc

from tfr_viewer.core import fast
from tfr_viewer.core.io.framing import encode_frame, encode_header

pytestmark = pytest.mark.skipif(not fast.available(), reason="the compiled core is not built")


def _impls() -> list[str]:
    from tfr_viewer.core import _fast

    return ["portable", "auto"] + (["hardware"] if _fast.HARDWARE_CRC else [])


def test_crc32c_matches_google_crc32c_at_every_length_and_alignment():
    from tfr_viewer.core import _fast

    rng = random.Random(7)
    blob = rng.randbytes(4096 + 16)
    for impl in _impls():
        for n in range(4097):
            start = n % 9  # unaligned starts exercise the byte-wise head
            data = blob[start : start + n]
            assert _fast.crc32c(data, impl=impl) == reference_crc(data), (impl, n)


def test_crc32c_of_large_buffers_and_extension():
    from tfr_viewer.core import _fast

    rng = random.Random(8)
    # around the three streams' block sizes (3 x 256 and 3 x 8192 bytes) and past them
    for size in (767, 768, 769, 24575, 24576, 24577, 24576 + 768 + 7, 1 << 20, (1 << 22) + 3):
        data = rng.randbytes(size)
        want = reference_crc(data)
        for impl in _impls():
            assert _fast.crc32c(data, impl=impl) == want
            half = _fast.crc32c(data[: size // 3], impl=impl)
            assert _fast.crc32c(data[size // 3 :], half, impl=impl) == want


def _scan(buf: bytes, limit: int = 100, verify: bool = True):
    from tfr_viewer.core import _fast

    offsets = np.zeros(limit, dtype=np.uint64)
    lengths = np.zeros(limit, dtype=np.uint64)
    status = np.zeros(limit, dtype=np.uint8)
    n, stop = _fast.scan_frames(buf, 0, limit, verify, 1000, offsets, lengths, status)
    return offsets[:n].tolist(), lengths[:n].tolist(), status[:n].tolist(), stop


def test_frame_scan_reports_offsets_lengths_and_data_crcs():
    frames = [encode_frame(b"a" * n) for n in (0, 1, 300)]
    bad = bytearray(encode_frame(b"xyz"))
    bad[13] ^= 1  # a payload byte: the data CRC fails, the frame still counts
    buf = b"".join(frames) + bytes(bad)
    offsets, lengths, status, stop = _scan(buf)
    assert lengths == [0, 1, 300, 3]
    assert offsets == [1000, 1016, 1033, 1349]
    assert status == [0, 0, 0, 2]
    assert stop == len(buf)
    assert _scan(buf, verify=False)[2] == [4, 4, 4, 4]
    assert _scan(buf, limit=2)[3] == 33


def test_frame_scan_stops_at_a_bad_header_or_a_frame_that_does_not_fit():
    good = encode_frame(b"hello")
    damaged = bytearray(good)
    damaged[0] ^= 1  # the length no longer matches its CRC
    assert _scan(good + bytes(damaged))[3] == len(good)
    claim = encode_header((1 << 64) - 1)  # a verified length far past the end
    for tail in (claim + b"\0" * 8, good[:-1], good[:11]):
        offsets, _, _, stop = _scan(good + tail)
        assert len(offsets) == 1 and stop == len(good)


def test_frame_scan_refuses_output_arrays_that_are_too_small():
    from tfr_viewer.core import _fast

    small = np.zeros(1, dtype=np.uint64)
    with pytest.raises(ValueError, match="fewer than"):
        _fast.scan_frames(b"", 0, 5, True, 0, small, small, np.zeros(5, dtype=np.uint8))


def test_payload_crcs_check_each_payload_and_refuse_what_lies_outside():
    from tfr_viewer.core import _fast

    frames = [encode_frame(bytes([k]) * (k * 100)) for k in range(1, 5)]
    data = bytearray(b"".join(frames))
    data[len(frames[0]) + 20] ^= 1  # a byte of the second payload
    buf = np.frombuffer(bytes(data), dtype=np.uint8)
    starts = np.cumsum([0] + [len(f) for f in frames[:-1]]).astype(np.int64) + 12
    lengths = np.array([k * 100 for k in range(1, 5)], dtype=np.int64)
    ok = np.zeros(4, dtype=np.uint8)
    _fast.payload_crcs(buf, starts, lengths, ok)
    assert ok.tolist() == [1, 0, 1, 1]
    starts[1] = -1  # unreadable: not checked
    _fast.payload_crcs(buf, starts, lengths, ok)
    assert ok.tolist() == [1, 0, 1, 1]
    for start, length in ((len(buf) - 3, 0), (0, len(buf)), (5, 2**62), (len(buf) + 1, 0)):
        with pytest.raises(ValueError, match="outside the buffer"):
            _fast.payload_crcs(buf, np.array([start], np.int64), np.array([length], np.int64), ok)


def test_the_compiled_core_names_the_constants_the_python_side_defines():
    """The statuses and verdict codes the compiled core returns are the numbers the
    modules that read them define; a core built from other sources is not used."""
    import subprocess
    import sys

    code = (
        "from tfr_viewer.core import fast\n"
        "import tfr_viewer.core.io.records, tfr_viewer.core.decode.tf_example\n"
        "import tfr_viewer.core.query.extract\n"
        "print(fast.native() is not None)\n"
        "fast.agree(TF_DIFFERS=0x41)\n"
        "print(fast.native() is None, fast.describe())\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    agreed, refused = run.stdout.splitlines()
    assert agreed == "True"
    assert refused.startswith("True ") and "TF_DIFFERS is 128 there, 65 here" in refused


def test_text_taken_as_python_decodes_it_and_bytes_where_it_is_no_utf8():
    from tfr_viewer.core import kernels

    pieces = [b"", b"plain", "ünï😀".encode(), b"\xff\xfe", b"\xed\xa0\x80", b"ok\xc3"]
    buf = np.frombuffer(b"".join(pieces), dtype=np.uint8)
    spans, at = [], 0
    for p in pieces:
        spans += [at, len(p)]
        at += len(p)
    spans_array = np.array(spans, dtype=np.int64)
    compiled = kernels.take_text(buf, spans_array)
    fast.use(False)
    try:
        python = kernels.take_text(buf, spans_array)
    finally:
        fast.use(True)
    assert compiled == python == ["", "plain", "ünï😀", b"\xff\xfe", b"\xed\xa0\x80", b"ok\xc3"]
    assert [type(v) for v in compiled] == [type(v) for v in python]


def test_message_paths_refuse_a_schema_of_the_wrong_shape():
    from tfr_viewer.core import _fast

    buf = b"\x08\x01"
    starts, lengths = np.array([0], np.int64), np.array([2], np.int64)
    path = (b"", 1, 5, 0, 0)
    with pytest.raises(ValueError, match="outside the fields"):
        _fast.message_paths(
            buf, starts, lengths, b"", np.array([0, 3], np.int32).tobytes(), (path,)
        )
    fields = np.array([1, 11, 0, 4], np.int32).tobytes()  # a message field of message 4
    with pytest.raises(ValueError, match="a field of no message"):
        _fast.message_paths(
            buf, starts, lengths, fields, np.array([0, 1], np.int32).tobytes(), (path,)
        )
    with pytest.raises(ValueError, match="outside the buffer"):
        _fast.message_paths(buf, starts, np.array([9], np.int64), fields, b"\0" * 8, (path,))
