"""The scan agrees with tf.data on TensorFlow's files and locates every kind of damage."""

from __future__ import annotations

import gzip
import os
import struct
import tracemalloc

import numpy as np
import pytest

from tests.tf_oracle import tf_read, tf_write
from tfr_viewer.core.io import index as index_mod
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.io.file_index import FileIndex
from tfr_viewer.core.io.framing import encode_frame, encode_header
from tfr_viewer.core.io.index import scan
from tfr_viewer.core.io.records import CancelToken, RecordStatus
from tfr_viewer.core.io.sources import open_source

OK = RecordStatus.OK


def indexed(path, verify=True) -> FileIndex:
    fi = FileIndex()
    with open_source(path) as src:
        for chunk in scan(src, verify=verify):
            fi.add(chunk)
    fi.finish(verify)
    return fi


def read_all(path) -> list[bytes]:
    with Dataset([str(path)]) as ds:
        ds.index()
        assert not ds.problems()
        return [ds.read(i) for i in range(len(ds))]


CASES = {
    "empty_payloads": [b"", b"x", b"", b""],
    "empty_file": [],
    "one_16mb_record": [os.urandom(16 << 20)],
    "100k_small": [i.to_bytes(4, "little") * (i % 7) for i in range(100_000)],
}


@pytest.mark.parametrize("compression", ["none", "gzip", "zlib"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_same_records_as_tf_data(tmp_path, case, compression):
    path = tf_write(tmp_path / f"{case}.tfrecord", CASES[case], compression)
    expected = tf_read(path, compression)
    assert expected == CASES[case]
    got = read_all(path)
    assert len(got) == len(expected)
    assert got == expected


def test_a_shard_set_of_four_reads_as_one(tmp_path):
    shards = []
    for s in range(4):
        payloads = [f"shard{s}-rec{i}".encode() for i in range(100 + s)]
        shards.append(tf_write(tmp_path / f"train-{s:05d}-of-00004", payloads))
    expected = tf_read(shards)
    with Dataset.open([str(tmp_path)]) as ds:
        ds.index()
        assert len(ds) == len(expected) == 406
        assert [ds.read(i) for i in range(len(ds))] == expected
        assert ds.ref(100).file.endswith("train-00001-of-00004")
        assert ds.ref(100).local == 0
        assert ds.warnings == []


# -- damaged variants -------------------------------------------------------------

PAYLOADS = [bytes([i]) * (50 + i) for i in range(20)]


def frames() -> list[bytes]:
    return [encode_frame(p) for p in PAYLOADS]


def offsets_of(fs: list[bytes]) -> list[int]:
    return list(np.cumsum([0] + [len(f) for f in fs[:-1]]))


def write(tmp_path, blob: bytes, name="d.tfrecord"):
    path = tmp_path / name
    path.write_bytes(blob)
    return path


def statuses(fi: FileIndex) -> list[RecordStatus]:
    return [fi.status(i) for i in range(len(fi))]


@pytest.mark.parametrize(
    "where,expected",
    [
        (9, RecordStatus.BAD_LENGTH_CRC),
        (20, RecordStatus.BAD_DATA_CRC),
        (-2, RecordStatus.BAD_DATA_CRC),
    ],
)
def test_one_flipped_bit(tmp_path, where, expected):
    fs = frames()
    k = 7
    damaged = bytearray(fs[k])
    damaged[where] ^= 0x04
    fs[k] = bytes(damaged)
    fi = indexed(write(tmp_path, b"".join(fs)))
    assert len(fi) == 20
    want = [OK] * 20
    want[k] = expected
    assert statuses(fi) == want
    assert fi.offsets().tolist() == offsets_of(fs)
    assert fi.garbage == []
    with Dataset([str(tmp_path / "d.tfrecord")]) as ds:
        ds.index()
        for i in range(20):
            if i != k:
                assert ds.read(i) == PAYLOADS[i]
        (problem,) = ds.problems()
        assert (problem.record, problem.offset, problem.kind) == (
            k,
            offsets_of(fs)[k],
            expected.kind,
        )
        assert "d.tfrecord" in problem.message and str(offsets_of(fs)[k]) in problem.message


def test_truncation_at_every_byte_of_the_last_frame(tmp_path):
    fs = frames()
    whole = b"".join(fs)
    last = offsets_of(fs)[-1]
    for cut in range(len(fs[-1])):
        fi = indexed(write(tmp_path, whole[: last + cut]))
        if cut == 0:
            assert statuses(fi) == [OK] * 19
            continue
        assert len(fi) == 20, cut
        assert statuses(fi) == [OK] * 19 + [RecordStatus.TRUNCATED], cut
        assert fi.offset(19) == last
        assert fi.garbage == []


def test_37_bytes_of_garbage_between_two_frames(tmp_path):
    fs = frames()
    junk = bytes((i * 37 + 11) % 251 for i in range(37))
    blob = b"".join(fs[:10]) + junk + b"".join(fs[10:])
    fi = indexed(write(tmp_path, blob))
    assert statuses(fi) == [OK] * 20
    (g,) = fi.garbage
    assert (g.offset, g.size, g.before_record) == (offsets_of(fs)[10], 37, 10)
    assert fi.offset(10) == offsets_of(fs)[10] + 37


@pytest.mark.parametrize("fix_crc", [False, True])
def test_a_length_of_2_pow_63_does_not_allocate(tmp_path, fix_crc):
    fs = frames()
    k = 5
    bad = bytearray(fs[k])
    bad[:8] = struct.pack("<Q", 2**63)
    if fix_crc:
        bad[:12] = encode_header(2**63)
    fs[k] = bytes(bad)
    path = write(tmp_path, b"".join(fs))
    tracemalloc.start()
    fi = indexed(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 32 << 20
    offs = offsets_of(fs)
    if fix_crc:
        assert len(fi) == 20
        assert fi.status(k) is RecordStatus.TRUNCATED
        assert fi.length(k) == 2**63
        assert fi.garbage == []
    else:
        assert len(fi) == 19
        (g,) = fi.garbage
        assert (g.offset, g.size, g.before_record) == (offs[k], len(fs[k]), k)
    assert fi.offsets().tolist()[-(19 - k) :] == offs[k + 1 :]
    with Dataset([str(path)]) as ds:
        ds.index()
        assert ds.read(len(ds) - 1) == PAYLOADS[-1]
        assert ds.read(0) == PAYLOADS[0]
        if fix_crc:
            assert len(ds.read(k)) == len(fs[k]) - 12  # bounded by the next frame


def test_header_only_pass_leaves_payloads_unverified(tmp_path):
    fs = frames()
    damaged = bytearray(fs[3])
    damaged[20] ^= 1
    fs[3] = bytes(damaged)
    fi = indexed(write(tmp_path, b"".join(fs)), verify=False)
    assert set(statuses(fi)) == {RecordStatus.UNVERIFIED}
    assert fi.problem_count() == 0


def test_cancel_stops_between_chunks(tmp_path):
    path = write(tmp_path, b"".join(encode_frame(b"x") for _ in range(5000)))
    token = CancelToken()
    seen = 0
    with open_source(path) as src:
        for chunk in scan(src, cancel=token, chunk_records=1000):
            seen += len(chunk)
            token.cancel()
    assert seen == 1000


def test_zero_filled_region_is_one_garbage_region(tmp_path):
    fs = frames()
    blob = b"".join(fs[:4]) + bytes(300_000) + b"".join(fs[4:])
    fi = indexed(write(tmp_path, blob))
    assert len(fi) == 20
    assert [(g.offset, g.size) for g in fi.garbage] == [(offsets_of(fs)[4], 300_000)]


@pytest.mark.parametrize("damage", ["garbage", "flip_length_crc", "truncate", "big"])
def test_compressed_streams_with_small_windows(tmp_path, monkeypatch, damage):
    """Exercise window refills, streaming of large frames and resync on compressed data."""
    from tfr_viewer.core.io.source import Source

    monkeypatch.setattr(Source, "window_bytes", 4096)
    monkeypatch.setattr(index_mod, "_MAX_WINDOW", 16384)
    payloads = [os.urandom(n) for n in (10, 5000, 3000, 40_000, 7, 0, 20_000, 100)]
    fs = [encode_frame(p) for p in payloads]
    want = [OK] * len(fs)
    garbage = []
    if damage == "garbage":
        blob = b"".join(fs[:3]) + b"\x01" * 9000 + b"".join(fs[3:])
        garbage = [(sum(map(len, fs[:3])), 9000)]
    elif damage == "flip_length_crc":
        bad = bytearray(fs[3])
        bad[10] ^= 0x80
        fs[3] = bytes(bad)
        blob = b"".join(fs)
        want[3] = RecordStatus.BAD_LENGTH_CRC
    elif damage == "truncate":
        blob = b"".join(fs)[:-30]
        want[-1] = RecordStatus.TRUNCATED
    else:
        bad = bytearray(fs[6])
        bad[5000] ^= 1
        fs[6] = bytes(bad)
        blob = b"".join(fs)
        want[6] = RecordStatus.BAD_DATA_CRC
    path = write(tmp_path, gzip.compress(blob), "d.gz")
    fi = indexed(path)
    assert statuses(fi) == want
    assert [(g.offset, g.size) for g in fi.garbage] == garbage
    with Dataset([str(path)]) as ds:
        ds.index()
        for i, st in enumerate(want):
            if st is OK:
                assert ds.read(i) == payloads[i]


@pytest.mark.parametrize("damage", ["none", "garbage", "flip_length_crc", "truncate", "big"])
def test_plain_files_read_ahead_with_small_windows(tmp_path, monkeypatch, damage):
    """A plain file's scan reads its next bytes on a thread while it checks: with small
    windows, frames straddle every read ahead, some are larger than it, and damage sits
    past it. The index equals the one of a scan without reading ahead, and the intact
    records are TensorFlow's."""
    from tfr_viewer.core.io.plain_source import PlainSource

    monkeypatch.setattr(PlainSource, "window_bytes", 3000)
    monkeypatch.setattr(index_mod, "_MAX_WINDOW", 16384)
    rng = np.random.default_rng(5)
    payloads = [rng.bytes(int(n)) for n in rng.integers(0, 2500, 120)]
    payloads[40] = rng.bytes(9000)  # larger than a read ahead
    payloads[80] = rng.bytes(30_000)  # larger than a window: checked by streaming
    fs = [encode_frame(p) for p in payloads]
    if damage == "garbage":
        blob = b"".join(fs[:60]) + b"\x01" * 5000 + b"".join(fs[60:])
    elif damage == "flip_length_crc":
        bad = bytearray(fs[70])
        bad[10] ^= 0x80
        fs[70] = bytes(bad)
        blob = b"".join(fs)
    elif damage == "truncate":
        blob = b"".join(fs)[:-30]
    elif damage == "big":
        bad = bytearray(fs[90])
        bad[20] ^= 1
        fs[90] = bytes(bad)
        blob = b"".join(fs)
    else:
        blob = b"".join(fs)
    path = write(tmp_path, blob, "plain.tfrecord")
    ahead = indexed(path)
    monkeypatch.setattr(PlainSource, "concurrent_reads", False)
    alone = indexed(path)
    assert statuses(ahead) == statuses(alone)
    assert ahead.offsets().tolist() == alone.offsets().tolist()
    assert [(g.offset, g.size) for g in ahead.garbage] == [
        (g.offset, g.size) for g in alone.garbage
    ]
    if damage == "none":
        assert statuses(ahead) == [OK] * len(payloads)
        assert read_all(path) == tf_read(path) == payloads


def _without_crcs(payloads: list[bytes]) -> bytes:
    """Frames as a writer that leaves its CRCs zero writes them."""
    return b"".join(struct.pack("<Q", len(p)) + bytes(4) + p + bytes(4) for p in payloads)


def test_an_event_file_written_without_crcs_is_framed_and_flagged(tmp_path):
    payloads = [b"\x09" + bytes(8) + b"event %d" % i * (i + 1) for i in range(40)]
    path = tmp_path / "events.out.tfevents.1.host"
    data = _without_crcs(payloads)
    path.write_bytes(data + data[:30])  # and a last frame cut short, as a live writer's
    fi = indexed(path, verify=True)
    statuses = fi.statuses().tolist()
    assert statuses[:40] == [RecordStatus.BAD_LENGTH_CRC] * 40
    assert statuses[40:] == [RecordStatus.TRUNCATED]
    offsets, lengths = fi.offsets().tolist(), fi.lengths().tolist()
    assert lengths[:40] == [len(p) for p in payloads]
    with Dataset([str(path)]) as ds:
        ds.index()
        assert [ds.read(i) for i in range(40)] == payloads
    assert offsets[1] == 16 + len(payloads[0])


@pytest.mark.parametrize("name", ["data.tfrecord", "events.out.tfevents.2.host"])
def test_zero_crcs_are_taken_from_event_files_only_and_never_as_empty_frames(tmp_path, name):
    path = tmp_path / name
    if name.endswith(".tfrecord"):
        path.write_bytes(_without_crcs([b"payload"] * 3))  # another writer's: damage
    else:
        path.write_bytes(bytes(4096))  # zeros: no writer's frames
    fi = indexed(path, verify=True)
    assert len(fi) == 0 and len(fi.garbage) == 1


def test_a_zero_crc_claiming_too_much_in_an_event_file_is_damage_only(tmp_path):
    good = encode_frame(b"\x09" + bytes(8))
    lying = struct.pack("<Q", 1 << 63) + bytes(4) + b"x" * 20
    path = tmp_path / "events.out.tfevents.3.host"
    path.write_bytes(good + lying + good)
    fi = indexed(path, verify=True)
    assert fi.statuses().tolist() == [RecordStatus.OK, RecordStatus.OK]
    assert [(g.offset, g.size) for g in fi.garbage] == [(len(good), len(lying))]
