"""Frames must be byte-identical to TensorFlow's, and our files must read in TensorFlow."""

from __future__ import annotations

import pytest

from tests.tf_oracle import tf_read, tf_write
from tfr_viewer.core.io.framing import (
    Compression,
    RecordWriter,
    decode_header,
    encode_frame,
    encode_header,
    mask,
    write_records,
)

PAYLOADS = [b"", b"a", b"hello world", bytes(range(256)) * 40, b"\x00" * 7]


def test_frames_are_byte_identical_to_tensorflow(tmp_path):
    path = tf_write(tmp_path / "tf.tfrecord", PAYLOADS)
    assert path.read_bytes() == b"".join(encode_frame(p) for p in PAYLOADS)


def test_mask_matches_the_documented_formula():
    crc = 0x12345678
    assert mask(crc) == ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) % 2**32


def test_decode_header_rejects_a_flipped_bit():
    header = bytearray(encode_header(1234))
    assert decode_header(bytes(header)) == (1234, True)
    header[3] ^= 0x10
    assert decode_header(bytes(header))[1] is False
    with pytest.raises(ValueError):
        decode_header(b"short")


@pytest.mark.parametrize("compression", ["none", "gzip", "zlib"])
def test_tensorflow_reads_our_files(tmp_path, compression):
    path = tmp_path / "ours.tfrecord"
    assert write_records(path, PAYLOADS, compression) == len(PAYLOADS)
    assert tf_read(path, compression) == PAYLOADS


def test_write_frame_copies_verbatim_and_counts(tmp_path):
    path = tmp_path / "copy.tfrecord"
    frames = [encode_frame(p) for p in PAYLOADS]
    with RecordWriter(path, Compression.NONE) as w:
        for f in frames:
            w.write_frame(f)
        assert w.records == len(frames)
        assert w.bytes_written == sum(map(len, frames))
    assert path.read_bytes() == b"".join(frames)


def test_unknown_compression_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="none, gzip, zlib"):
        Compression.parse("bz2")
    assert Compression.parse("GZIP") is Compression.GZIP
    assert Compression.parse("") is Compression.NONE


def test_a_gzip_file_does_not_depend_on_its_name(tmp_path):
    """The header names no file (exports write under a temporary name, then rename),
    so the same records give the same bytes whatever the file is called."""
    a, b = tmp_path / ".a.123.0.tfr-viewer-tmp", tmp_path / "b.tfrecord.gz"
    write_records(a, PAYLOADS, "gzip")
    write_records(b, PAYLOADS, "gzip")
    data = a.read_bytes()
    assert data == b.read_bytes()
    assert data[3] & 0x08 == 0  # FNAME flag unset
    assert b"tfr-viewer-tmp" not in data
