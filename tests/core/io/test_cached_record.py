"""One record straight from the index cache: the same file, offset, length, status and
bytes as the dataset gives, or no answer where the cache cannot tell."""

from __future__ import annotations

import gzip
import os

import pytest

from tfr_viewer.core.io import Dataset, RecordStatus, cached_record, write_records
from tfr_viewer.core.io.framing import encode_frame


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("TFR_VIEWER_CACHE_DIR", str(folder))
    monkeypatch.setenv("TFR_VIEWER_CACHE_MIN_BYTES", "0")
    monkeypatch.delenv("TFR_VIEWER_NO_CACHE", raising=False)
    return folder


def _index(paths, verify=False) -> None:
    with Dataset([str(p) for p in paths]) as ds:
        ds.index(verify=verify)


def _from_dataset(paths, index):
    """What ``show`` reads through a dataset with the cache off."""
    os.environ["TFR_VIEWER_NO_CACHE"] = "1"
    try:
        with Dataset([str(p) for p in paths]) as ds:
            ds.index(verify=False)
            payload, status = ds.read_verified(index)
            ref = ds.ref(index)
            return ref.file, ref.local, ref.offset, ref.length, status, payload
    finally:
        del os.environ["TFR_VIEWER_NO_CACHE"]


def _damaged_file(path) -> None:
    """Intact records around garbage, a bad payload CRC, a bad length CRC, a cut end."""
    frames = [encode_frame(bytes([i]) * (20 + i)) for i in range(6)]
    bad_data = bytearray(frames[2])
    bad_data[15] ^= 0xFF
    bad_length = bytearray(encode_frame(b"y" * 30))
    bad_length[9] ^= 0x01
    path.write_bytes(
        frames[0]
        + frames[1]
        + b"JUNKJUNK"
        + bytes(bad_data)
        + frames[3]
        + bytes(bad_length)
        + frames[4]
        + frames[5]
        + encode_frame(b"z" * 50)[:-9]
    )


@pytest.mark.parametrize("verify", [False, True])
def test_every_readable_record_matches_the_dataset(tmp_path, verify):
    a, b, c = tmp_path / "a.tfrecord", tmp_path / "b.tfrecord", tmp_path / "c.tfrecord"
    write_records(a, [bytes([i % 256]) * i for i in range(40)])
    _damaged_file(b)
    write_records(c, [b"last"] * 3)
    paths = [str(a), str(b), str(c)]
    _index(paths, verify)
    with Dataset(paths) as ds:
        ds.index(verify=False)
        total = len(ds)
        statuses = [ds.ref(i).status for i in range(total)]
    answered = 0
    for i in range(total):
        found = cached_record.find(paths, i)
        if statuses[i].damaged:
            assert found is None  # the dataset bounds what it reads of those
            continue
        assert found is not None, i
        expected = _from_dataset(paths, i)
        assert (found.file, found.local, found.offset, found.length) == expected[:4]
        assert (found.status, found.payload) == expected[4:]
        answered += 1
    assert answered == total - sum(s.damaged for s in statuses) > 40
    if not verify:  # the header pass left the bad payload CRC for the read to find
        bad = [i for i in range(total) if _from_dataset(paths, i)[4] is RecordStatus.BAD_DATA_CRC]
        assert len(bad) == 1 and cached_record.find(paths, bad[0]).status.kind == "bad_data_crc"
    assert cached_record.find(paths, total) is None


def test_no_answer_without_a_current_entry(tmp_path, monkeypatch):
    path = tmp_path / "a.tfrecord"
    write_records(path, [b"abc"] * 10)
    assert cached_record.find([str(path)], 0) is None  # never indexed
    _index([path])
    assert cached_record.find([str(path)], 3).payload == b"abc"
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    assert cached_record.find([str(path)], 3) is None
    monkeypatch.delenv("TFR_VIEWER_NO_CACHE")
    with open(path, "ab") as f:
        f.write(encode_frame(b"more"))
    assert cached_record.find([str(path)], 3) is None  # the file changed
    _index([path])
    assert cached_record.find([str(path)], 10).payload == b"more"
    assert cached_record.find([str(path)], -1) is None


def test_a_later_file_without_an_entry_does_not_matter_but_an_earlier_one_does(tmp_path):
    a, b = tmp_path / "a.tfrecord", tmp_path / "b.tfrecord"
    write_records(a, [b"a"] * 5)
    write_records(b, [b"b"] * 5)
    _index([a])
    assert cached_record.find([str(a), str(b)], 4).payload == b"a"
    assert cached_record.find([str(a), str(b)], 5) is None
    assert cached_record.find([str(b), str(a)], 0) is None


def test_compressed_files_and_damaged_entries_are_left_to_the_dataset(tmp_path, cache):
    plain = tmp_path / "p.tfrecord"
    write_records(plain, [b"abc"] * 10)
    packed = tmp_path / "p.tfrecord.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    _index([packed, plain])
    assert cached_record.find([str(packed)], 0) is None
    assert cached_record.find([str(plain)], 0).payload == b"abc"
    for entry in cache.iterdir():
        data = bytearray(entry.read_bytes())
        data[-10] ^= 1
        entry.write_bytes(bytes(data))
    assert cached_record.find([str(plain)], 0) is None


def test_more_records_than_the_limit_are_left_to_the_dataset(tmp_path, monkeypatch):
    path = tmp_path / "a.tfrecord"
    write_records(path, [b"abc"] * 50)
    _index([path])
    monkeypatch.setattr(cached_record, "MAX_RECORDS", 49)
    assert cached_record.find([str(path)], 0) is None
    monkeypatch.setattr(cached_record, "MAX_RECORDS", 50)
    assert cached_record.find([str(path)], 49).payload == b"abc"
