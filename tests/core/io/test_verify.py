"""Verifying a header-indexed dataset, several files at once: the statuses TensorFlow's
framing gives (those of a verifying scan), each file's progress in order, errors and
cancelling without a hang."""

from __future__ import annotations

import os

import pytest

from tests.tf_oracle import tf_write
from tfr_viewer.core.io import payload_block
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.io.records import CancelToken, RecordStatus
from tfr_viewer.core.io.source_errors import FileChanged


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
        progress: dict[int, list[int]] = {}
        bad_found = {}
        for number, done, bad in ds.verify():
            progress.setdefault(number, []).append(done)
            bad_found[number] = bad
        assert [f.index.statuses().tolist() for f in ds.files] == want
        assert all(f.index.verified for f in ds.files)
        assert sorted(progress) == list(range(5))
        for dones in progress.values():
            assert len(dones) > 1 and dones == sorted(dones) and dones[-1] == 90
        assert [p.record for p in ds.problems()] == [95, 179, 310]
        assert bad_found == {0: 0, 1: 2, 2: 0, 3: 1, 4: 0}


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
