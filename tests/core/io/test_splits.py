"""Splits of a header index: every record in exactly one split, bounded in records and
bytes, and verifying the splits one by one (in any order) gives the local verify."""

from __future__ import annotations

import random

import numpy as np

from tfr_viewer.core.io import Dataset
from tfr_viewer.core.io.splits import apply_statuses, mark_verified, plan_splits, verify_split


def _problems(ds: Dataset) -> list[tuple]:
    return [(p.file, p.record, p.offset, p.kind, p.message) for p in ds.problems()]


def test_splits_cover_every_record_once_within_their_bounds(remote_root):
    paths = [str(remote_root / n) for n in ("big.tfrecord", "empty.tfrecord", "small.tfrecord")]
    with Dataset(paths) as ds:
        ds.index(verify=False)
        splits = plan_splits(ds, max_records=700, max_bytes=3_000_000)
        for number, f in enumerate(ds.files):
            mine = [s for s in splits if s.file_number == number]
            assert mine, f.path  # an empty file has one empty split
            covered = np.concatenate([s.offsets for s in mine])
            assert np.array_equal(covered, f.index.offsets())
            assert [s.first for s in mine] == sorted(s.first for s in mine)
        for s in splits:
            assert len(s) <= 700
            if len(s) > 1:
                assert int(s.offsets[-1] + s.lengths[-1] - s.offsets[0]) <= 3_000_000


def test_verifying_splits_in_any_order_gives_the_local_verify(remote_root):
    paths = [str(remote_root / n) for n in ("damaged.tfrecord", "empty.tfrecord", "small.tfrecord")]
    with Dataset(paths) as local:
        local.index(verify=True)
        expected = _problems(local)
    assert {kind for _, _, _, kind, _ in expected} >= {"bad_data_crc", "garbage", "truncated"}
    with Dataset(paths) as ds:
        ds.index(verify=False)
        splits = plan_splits(ds, max_records=500, max_bytes=2_000_000)
        assert len(splits) > 5
        random.Random(3).shuffle(splits)
        for split in splits:
            apply_statuses(ds, split.key, verify_split(split))
        mark_verified(ds)
        assert _problems(ds) == expected


def test_a_split_ref_finds_its_records_again(remote_root, no_cache):
    from tfr_viewer.core.io.splits import plan_refs

    names = ("damaged.tfrecord", "empty.tfrecord", "small.tfrecord", "small.tfrecord.gz")
    paths = [str(remote_root / n) for n in names]
    with Dataset(paths) as ds:
        ds.index(verify=False)
        splits = plan_splits(ds, max_records=400, max_bytes=1_500_000)
        refs = plan_refs(ds, max_records=400, max_bytes=1_500_000)
    assert [r.key for r in refs] == [s.key for s in splits]
    assert sum(1 for r in refs if r.path.endswith(".gz")) == 1  # one split per compressed file
    for ref, split in zip(refs, splits, strict=True):
        loaded = ref.load()
        for column in ("offsets", "lengths", "statuses"):
            assert np.array_equal(getattr(loaded, column), getattr(split, column)), ref


def test_a_verifying_load_gives_the_statuses_of_a_verified_split(remote_root, no_cache):
    """``load(verify=True)`` checks the CRCs in its scan: the same statuses as a header
    load verified afterwards, damaged and compressed files included."""
    from tfr_viewer.core.io.splits import plan_refs

    names = ("damaged.tfrecord", "empty.tfrecord", "small.tfrecord", "small.tfrecord.gz")
    with Dataset([str(remote_root / n) for n in names]) as ds:
        ds.index(verify=False)
        refs = plan_refs(ds, max_records=300, max_bytes=2_000_000)
    assert len(refs) > 5
    for ref in refs:
        checked = ref.load(verify=True)
        assert checked.checked
        assert np.array_equal(checked.statuses, verify_split(ref.load())), ref
