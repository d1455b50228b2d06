"""The header-only scan of local files: for files of large records it reads a frame
header per record (and its shards side by side), and gives the index the streaming
scan gives, on files TensorFlow wrote and on damaged ones."""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

from tests.tf_oracle import tf_read, tf_write
from tfr_viewer.core.io import Dataset
from tfr_viewer.core.io.file_index import FileIndex
from tfr_viewer.core.io.framing import encode_frame
from tfr_viewer.core.io.index import scan
from tfr_viewer.core.io.read_ahead import file_chunks
from tfr_viewer.core.io.sources import open_source

RECORD = 256 << 10


def _payloads(n: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    return [rng.randbytes(RECORD + rng.randrange(1000)) for _ in range(n)]


def _read_bytes() -> int:
    """Bytes this process has asked the system to read so far (``rchar``)."""
    with open("/proc/self/io") as f:
        return int(next(line for line in f if line.startswith("rchar:")).split()[1])


def _index(chunks) -> FileIndex:
    index = FileIndex()
    for chunk in chunks:
        index.add(chunk)
    index.finish(verified=False)
    return index


def _same(a: FileIndex, b: FileIndex) -> None:
    assert np.array_equal(a.offsets(), b.offsets())
    assert np.array_equal(a.lengths(), b.lengths())
    assert np.array_equal(a.statuses(), b.statuses())
    assert a.garbage == b.garbage and a.position == b.position


@pytest.mark.skipif(not os.path.exists("/proc/self/io"), reason="Linux only")
def test_shards_of_large_records_are_indexed_from_their_headers(tmp_path, monkeypatch):
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    paths = []
    for k in range(4):
        path = tmp_path / f"train-{k:05d}-of-00004"
        tf_write(path, _payloads(30, k))
        paths.append(str(path))
    total = sum(os.path.getsize(p) for p in paths)
    with Dataset(paths) as ds:
        before = _read_bytes()
        ds.index(verify=False)
        asked = _read_bytes() - before
        assert len(ds) == len(tf_read(paths)) == 120
        assert asked < total * 0.02, f"{asked:,} bytes read of {total:,}"
        for number, f in enumerate(ds.files):
            with open_source(paths[number]) as source:
                _same(f.index, _index(scan(source, verify=False)))
        assert [ds.read(i) for i in (0, 45, 119)] == [tf_read(paths)[i] for i in (0, 45, 119)]


def _damaged() -> dict[str, bytes]:
    frames = [encode_frame(p) for p in _payloads(12, 99)]
    starts = np.cumsum([0] + [len(f) for f in frames]).tolist()
    whole = b"".join(frames)
    flipped_header = bytearray(whole)
    flipped_header[starts[5] + 3] ^= 0x10  # record 5's length
    flipped_payload = bytearray(whole)
    flipped_payload[starts[7] + 5000] ^= 0xFF  # record 7's payload: a header scan cannot tell
    small_tail = whole[: starts[6]] + b"".join(encode_frame(b"x" * 50) for _ in range(40))
    return {
        "cut in a payload": whole[: starts[9] + 1000],
        "cut in a header": whole[: starts[9] + 5],
        "a broken length": bytes(flipped_header),
        "a flipped payload byte": bytes(flipped_payload),
        "garbage between frames": whole[: starts[4]] + b"\0" * 3000 + whole[starts[4] :],
        "small records after large ones": small_tail,
        "one large record": frames[0],
    }


DAMAGE = (
    "cut in a payload",
    "cut in a header",
    "a broken length",
    "a flipped payload byte",
    "garbage between frames",
    "small records after large ones",
    "one large record",
)


@pytest.mark.parametrize("name", DAMAGE)
def test_a_damaged_file_gets_the_index_of_the_streaming_scan(tmp_path, name):
    data = _damaged()[name]
    path = tmp_path / "f.tfrecord"
    path.write_bytes(data)
    with open_source(str(path)) as source:
        hopped = _index(file_chunks(source, verify=False, cancel=None))
    with open_source(str(path)) as source:
        streamed = _index(scan(source, verify=False))
    _same(hopped, streamed)
    assert len(hopped)


def test_random_files_get_the_index_of_the_streaming_scan(tmp_path):
    """Frames of random sizes on either side of the hop's threshold, with a byte
    flipped or the file cut at random: the header-only scan agrees with the streaming
    scan every time."""
    rng = random.Random(5)
    path = tmp_path / "r.tfrecord"
    for _ in range(60):
        sizes = [rng.choice([70_000, 200_000, 65_520, 10, 0]) for _ in range(rng.randrange(1, 8))]
        data = bytearray(b"".join(encode_frame(rng.randbytes(n)) for n in sizes))
        if rng.random() < 0.5:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        if rng.random() < 0.3:
            del data[rng.randrange(len(data)) :]
        path.write_bytes(bytes(data))
        with open_source(str(path)) as source:
            hopped = _index(file_chunks(source, verify=False, cancel=None))
        with open_source(str(path)) as source:
            streamed = _index(scan(source, verify=False))
        _same(hopped, streamed)


def test_shards_shorter_than_a_header_are_scanned_not_hopped(tmp_path):
    """A first file of 5 bytes (the index is then the streaming scan's), and shards of
    large records after it."""
    (tmp_path / "a-00000").write_bytes(b"0 10\n")
    tf_write(tmp_path / "a-00001", _payloads(3, 1))
    paths = [str(tmp_path / "a-00000"), str(tmp_path / "a-00001")]
    with Dataset(paths) as hopped, Dataset(paths) as streamed:
        hopped.index(verify=False)
        streamed.index(verify=True)  # no hop: every byte read
        for a, b in zip(hopped.files, streamed.files, strict=True):
            assert np.array_equal(a.index.offsets(), b.index.offsets())
            assert np.array_equal(a.index.lengths(), b.index.lengths())
        assert len(hopped) == len(streamed) == 4  # the 5 bytes are a cut record
