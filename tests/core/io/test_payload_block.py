"""Blocks of payloads: bounded by records and by bytes, read straight into one buffer,
each payload the record's bytes as TensorFlow reads them."""

from __future__ import annotations

import numpy as np

from tests.tf_oracle import tf_read, tf_write
from tfr_viewer.core.io import payload_block
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.io.dataset_blocks import iter_blocks


def test_blocks_hold_a_bounded_number_of_bytes(tmp_path, monkeypatch):
    rng = np.random.default_rng(4)
    payloads = [rng.bytes(int(n)) for n in rng.integers(0, 3000, 200)]
    path = tf_write(tmp_path / "sizes.tfrecord", payloads)
    monkeypatch.setattr(payload_block, "BLOCK_BYTES", 5000)
    expected = tf_read(path)
    seen: dict[int, bytes] = {}
    with Dataset([str(path)]) as ds:
        ds.index()
        records = np.arange(len(ds))[::-1].copy()  # any order
        for positions, block in iter_blocks(ds, records, size=64):
            assert block.rows <= 64
            sizes = block.lengths.tolist()
            assert sum(sizes) <= 5000 or block.rows == 1
            for row, position in enumerate(positions.tolist()):
                seen[int(records[position])] = block.payload(row)
    assert [seen[i] for i in range(len(expected))] == expected


def _reads_and_fetches(monkeypatch) -> list[tuple[str, str, int, int]]:
    """Every read and prefetch of a plain file, in order: (what, path, offset, bytes)."""
    from tfr_viewer.core.io.plain_source import PlainSource

    events: list[tuple[str, str, int, int]] = []
    read, fetch = PlainSource.readinto_at, PlainSource.prefetch

    def reading(self, offset, buf):  # noqa: ANN001, ANN202
        got = read(self, offset, buf)
        events.append(("read", self.path, offset, got))
        return got

    def fetching(self, offset, n):  # noqa: ANN001, ANN202
        events.append(("fetch", self.path, offset, n))
        fetch(self, offset, n)

    monkeypatch.setattr(PlainSource, "readinto_at", reading)
    monkeypatch.setattr(PlainSource, "prefetch", fetching)
    return events


def _fetched_before_read(events: list[tuple[str, str, int, int]]) -> int:
    """The reads that no earlier prefetch of the same file covers (the first one only,
    in a pass that fetches each block while the one before is worked on)."""
    unfetched = 0
    for k, (what, path, offset, n) in enumerate(events):
        if what != "read":
            continue
        covered = any(
            w == "fetch" and p == path and o <= offset and offset + n <= o + m
            for w, p, o, m in events[:k]
        )
        unfetched += not covered
    return unfetched


def test_the_next_block_is_fetched_while_one_is_worked_on(tmp_path, monkeypatch):
    """A pass over blocks asks the system for the frames of the next block (of the same
    file or the next one) before it hands out the block it has, so that a cold disk
    reads while the caller computes; records in any order, in several files."""
    rng = np.random.default_rng(6)
    paths = [
        str(tf_write(tmp_path / f"part-{k}.tfrecord", [rng.bytes(int(n)) for n in sizes]))
        for k, sizes in enumerate([rng.integers(0, 3000, 150), rng.integers(0, 3000, 90)])
    ]
    monkeypatch.setattr(payload_block, "BLOCK_BYTES", 20_000)
    with Dataset(paths) as ds:
        ds.index()
        events = _reads_and_fetches(monkeypatch)
        records = rng.permutation(len(ds))
        blocks = sum(1 for _ in iter_blocks(ds, records, size=32))
    assert blocks > 10
    assert sum(e[0] == "fetch" for e in events) == blocks - 1
    assert sum(e[0] == "read" for e in events) >= blocks
    assert _fetched_before_read(events) == 1


def test_a_verifying_pass_fetches_its_next_block_too(tmp_path, monkeypatch):
    """After a header pass, the payload CRCs are checked block by block, each block
    asked for while the one before is checked; the statuses are TensorFlow's."""
    from tfr_viewer.core.io import verify

    rng = np.random.default_rng(7)
    payloads = [rng.bytes(int(n)) for n in rng.integers(0, 3000, 300)]
    path = str(tf_write(tmp_path / "one.tfrecord", payloads))
    monkeypatch.setattr(verify, "VERIFY_BLOCK_BYTES", 30_000)
    monkeypatch.setenv("TFR_VIEWER_LOCAL_STREAMS", "1")
    with Dataset([path]) as ds:
        ds.index(verify=False)
        events = _reads_and_fetches(monkeypatch)
        settled = list(ds.verify())
        passed = list(events)
        assert ds.files[0].index.verified
        assert [ds.read(i) for i in range(len(ds))] == tf_read(path)
    assert len(settled) > 10
    assert _fetched_before_read(passed) == 1
