"""Forward passes over compressed files decode with ISA-L when the data compresses well,
hand over to rapidgzip when a read goes back or the stream is damaged, and give exactly
what the rapidgzip path gives."""

from __future__ import annotations

import gzip
import os
import zlib

import pytest

from tests.tf_oracle import tf_read, tf_write
from tfr_viewer.core.io import Compression, Dataset, sequential as seq
from tfr_viewer.core.io.framing import encode_frame
from tfr_viewer.core.io.sources import open_source

from .test_inflate import PAYLOADS, RAW, variants


@pytest.fixture
def served(monkeypatch):
    """Count the bytes the ISA-L stream serves."""
    counts = {"bytes": 0}
    real = seq.SequentialStream.readinto_at

    def counting(self, offset, buf):
        n = real(self, offset, buf)
        counts["bytes"] += n
        return n

    monkeypatch.setattr(seq.SequentialStream, "readinto_at", counting)
    return counts


def test_the_choice_follows_how_well_the_data_compresses(tmp_path):
    good = tmp_path / "good.gz"
    good.write_bytes(gzip.compress(b"".join(encode_frame(b"label 3 " * 20) for _ in range(5000))))
    poor = tmp_path / "poor.gz"
    poor.write_bytes(gzip.compress(os.urandom(3 << 20)))
    assert seq.prefers_sequential(str(good), Compression.GZIP)
    assert not seq.prefers_sequential(str(poor), Compression.GZIP)
    zgood = tmp_path / "good.zz"
    zgood.write_bytes(zlib.compress(b"x" * (4 << 20)))
    assert seq.prefers_sequential(str(zgood), Compression.ZLIB)


@pytest.mark.parametrize("compression", ["gzip", "zlib"])
def test_a_tensorflow_file_is_scanned_with_isal_and_reads_as_tensorflow_reads_it(
    tmp_path, compression, served
):
    path = tf_write(tmp_path / f"tf.{compression}", PAYLOADS, compression)
    with Dataset([str(path)]) as ds:
        ds.index(verify=True)
        assert ds.problems() == []
        assert served["bytes"] == len(RAW)  # the whole pass, none of it by rapidgzip
        assert [ds.read(i) for i in range(len(ds))] == tf_read(path, compression)


def test_a_read_that_goes_back_hands_over_to_rapidgzip(tmp_path, served):
    path = tmp_path / "two_members.gz"
    path.write_bytes(gzip.compress(RAW[: len(RAW) // 3]) + gzip.compress(RAW[len(RAW) // 3 :]))
    with open_source(str(path)) as src:
        assert src.read_at(0, 5000) == RAW[:5000]
        assert src.read_at(9000, 100) == RAW[9000:9100]  # forward: skipped and served
        assert served["bytes"] == 5100
        assert src.read_at(10, 50) == RAW[10:60]  # back: rapidgzip from here on
        assert src.read_at(len(RAW) - 10, 100) == RAW[-10:]
        assert served["bytes"] == 5100
        assert src.end_problem() is None


@pytest.mark.parametrize(
    "name",
    [
        "gzip cut in half",
        "gzip + zeros",
        "gzip + garbage",
        "gzip bad crc",
        "zlib cut in half",
        "zlib bad adler",
        "zlib + zeros",
        "small gzip cut",
    ],
)
def test_damaged_streams_give_what_the_rapidgzip_path_gives(tmp_path, name):
    path, _, _ = variants(tmp_path)[name]
    seen = []
    for seek_points in (False, True):
        with Dataset([str(path)], seek_points=seek_points) as ds:
            ds.index(verify=True)
            seen.append(
                (
                    [(p.kind, p.offset, p.message) for p in ds.problems()],
                    ds.intact().tolist(),
                    [ds.read(i) for i in ds.intact().tolist()],
                )
            )
    assert seen[0] == seen[1]
    assert seen[0][0]  # the damage is reported either way
