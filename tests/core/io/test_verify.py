"""Verifying a header-indexed dataset, several files at once: the statuses TensorFlow's
framing gives (those of a verifying scan), each file's progress in order, errors and
cancelling without a hang."""

from __future__ import annotations

import os
import time

import pytest

from tests.tf_oracle import tf_write
from tfr_viewer.core.io import payload_block, verify
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.io.records import CancelToken, RecordStatus
from tfr_viewer.core.io.source_errors import FileChanged
from tfr_viewer.core.io.verify import FINISHED


def _flip(path, record_offsets: list[int]) -> None:
    data = bytearray(path.read_bytes())
    for at in record_offsets:
        data[at + 12 + 3] ^= 0x40  # a payload byte: the data CRC no longer matches
    path.write_bytes(bytes(data))


@pytest.fixture
def shards(tmp_path, monkeypatch):
    """Five TensorFlow-written shards with payload damage in two of them; blocks of
    about 20 KB, so each file takes several."""
    monkeypatch.setattr(payload_block, "BLOCK_BYTES", 20_000)
    monkeypatch.setattr(verify, "VERIFY_BLOCK_BYTES", 20_000)
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    paths = []
    for k in range(5):
        path = tf_write(
            tmp_path / f"s-{k}.tfrecord", [bytes([k, i % 256]) * 700 for i in range(90)]
        )
        paths.append(path)
    with Dataset([str(paths[1]), str(paths[3])]) as ds:
        ds.index()
        at = [ds.ref(i).offset for i in (5, 89, 90 + 40)]
    _flip(paths[1], at[:2])
    _flip(paths[3], at[2:])
    return [str(p) for p in paths]


def test_verifying_files_at_once_gives_the_statuses_of_a_verifying_scan(shards, monkeypatch):
    monkeypatch.setenv("TFR_VIEWER_LOCAL_STREAMS", "3")
    with Dataset(shards) as scanned:
        scanned.index(verify=True)
        want = [f.index.statuses().tolist() for f in scanned.files]
    assert sum(s.count(RecordStatus.BAD_DATA_CRC) for s in want) == 3
    with Dataset(shards) as ds:
        ds.index(verify=False)
        progress: dict[int, list[tuple[int, int]]] = {}
        finished = []
        for number, first, end in ds.verify():
            if first == FINISHED:
                assert sorted(progress[number]) == progress[number]  # one part: in order
                finished.append(number)
            else:
                progress.setdefault(number, []).append((first, end))
        assert [f.index.statuses().tolist() for f in ds.files] == want
        assert all(f.index.verified for f in ds.files)
        assert sorted(finished) == list(range(5))
        for spans in progress.values():
            assert len(spans) > 1 and _covers(spans, 90)
        assert [p.record for p in ds.problems()] == [95, 179, 310]


def _covers(spans: list[tuple[int, int]], n: int) -> bool:
    """Whether the spans, in any order, cover ``0 .. n`` once each."""
    at = 0
    for first, end in sorted(spans):
        if first != at or end <= first:
            return False
        at = end
    return at == n


def test_one_large_file_is_verified_in_parts_side_by_side(tmp_path, monkeypatch):
    """Fewer files than threads: a file is cut into parts of equal bytes, each a
    thread's (records damaged at the first and last of each part); the statuses and
    the problems are those of one verifying scan, and the file is marked verified only
    after its last part."""
    monkeypatch.setattr(verify, "PART_BYTES", 40_000)
    monkeypatch.setattr(verify, "VERIFY_BLOCK_BYTES", 15_000)
    monkeypatch.setattr(verify.os, "cpu_count", lambda: 3)
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    monkeypatch.setenv("TFR_VIEWER_LOCAL_STREAMS", "3")
    path = tf_write(tmp_path / "one.tfrecord", [bytes([i % 256]) * 1500 for i in range(200)])
    with Dataset([str(path)]) as ds:
        ds.index()
        at = [ds.ref(i).offset for i in (0, 65, 66, 132, 133, 199)]
    _flip(path, at)
    with Dataset([str(path)]) as scanned:
        scanned.index(verify=True)
        want = scanned.files[0].index.statuses().tolist()
    with Dataset([str(path)]) as ds:
        ds.index(verify=False)
        index = ds.files[0].index
        cut = verify.parts([(0, ds.files[0].open(), index)], 3)
        assert [(lo, hi) for _, lo, hi in cut] == [(0, 66), (66, 133), (133, 200)]
        spans, verified_before_end = [], []
        for _number, first, end in ds.verify():
            if first != FINISHED:
                spans.append((first, end))
                verified_before_end.append(index.verified)
        assert _covers(spans, 200) and not any(verified_before_end) and index.verified
        assert index.statuses().tolist() == want
        assert [p.record for p in ds.problems()] == [0, 65, 66, 132, 133, 199]


def test_a_file_cut_while_verified_is_one_error_and_no_hang(shards, monkeypatch):
    monkeypatch.setenv("TFR_VIEWER_LOCAL_STREAMS", "3")
    with Dataset(shards) as ds:
        ds.index(verify=False)
        os.truncate(shards[2], os.path.getsize(shards[2]) // 3)
        with pytest.raises(FileChanged):
            for _ in ds.verify():
                pass
        assert not ds.files[2].index.verified


def test_cancelling_or_stopping_leaves_the_rest_unverified(shards, monkeypatch):
    monkeypatch.setenv("TFR_VIEWER_LOCAL_STREAMS", "3")
    real = verify.verify_index

    def unhurried(*args, **kwargs):
        """Each part pauses after a block: the reader of the first message cancels or
        stops long before the threads could have checked everything, however busy the
        machine is."""
        for settled in real(*args, **kwargs):
            yield settled
            time.sleep(0.3)

    monkeypatch.setattr(verify, "verify_index", unhurried)
    with Dataset(shards) as ds:
        ds.index(verify=False)
        cancel = CancelToken()
        for _ in ds.verify(cancel=cancel):
            cancel.cancel()
        left = sum(int((f.index.statuses() == RecordStatus.UNVERIFIED).sum()) for f in ds.files)
        assert left > 0 and not all(f.index.verified for f in ds.files)
    with Dataset(shards) as ds:
        ds.index(verify=False)
        steps = ds.verify()
        next(steps)
        steps.close()  # the threads stop after their block
        assert not all(f.index.verified for f in ds.files)
