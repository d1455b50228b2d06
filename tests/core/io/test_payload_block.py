"""Blocks of payloads: bounded by records and by bytes, read straight into one buffer,
each payload the record's bytes as TensorFlow reads them."""

from __future__ import annotations

import numpy as np

from tests.tf_oracle import tf_read, tf_write
from tfr_viewer.core.io import payload_block
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.io.payload_block import iter_blocks


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
