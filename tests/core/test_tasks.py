"""The child-process jobs, run here in-process over a real pipe."""

from __future__ import annotations

import gzip
import multiprocessing
import threading

import numpy as np

from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.io.framing import encode_frame
from tfr_viewer.core.io.records import RecordStatus
from tfr_viewer.core.task_messages import (
    Chunk,
    Done,
    Failed,
    Hits,
    Indexed,
    SeekPoints,
    Statuses,
    Transfer,
)
from tfr_viewer.core.tasks import filter_task, index_task, verify_task


def collect(target, payload=None, args=()):
    parent, child = multiprocessing.Pipe(duplex=True)
    if payload is not None:
        parent.send(payload)
    worker = threading.Thread(target=target, args=(child, *args))
    worker.start()
    messages = []
    while True:
        try:
            messages.append(parent.recv())
        except EOFError:
            break
    worker.join()
    return messages


def test_index_task_streams_chunks_seek_points_and_statuses(tmp_path):
    frames = [encode_frame(f"r{i}".encode() * 30) for i in range(100)]
    bad = bytearray(frames[42])
    bad[20] ^= 1
    frames[42] = bytes(bad)
    (tmp_path / "a.tfrecord").write_bytes(b"".join(frames))
    (tmp_path / "b.gz").write_bytes(gzip.compress(b"".join(frames[:10])))
    paths = [str(tmp_path / "a.tfrecord"), str(tmp_path / "b.gz")]
    messages = collect(index_task, args=(paths, str(tmp_path)))
    assert isinstance(messages[-1], Done) and Indexed() in messages
    assert SeekPoints(1, str(tmp_path / "1.seekpoints")) in messages
    records = sum(len(m.chunk) for m in messages if isinstance(m, Chunk))
    assert records == 110
    statuses = np.concatenate(
        [m.statuses for m in messages if isinstance(m, Statuses) and m.file == 0]
    )
    assert np.flatnonzero(statuses != RecordStatus.OK).tolist() == [42]


def test_a_header_only_index_task_then_one_verify_task(tmp_path, server):
    """Remote datasets are indexed by headers only; verification is a task of its own
    over that index, and finds what the local verifying scan finds."""
    url = server.url("damaged.tfrecord")
    messages = collect(index_task, args=([url], str(tmp_path), False))
    assert messages[-1] == Done(verified=False)
    assert not any(isinstance(m, Statuses) for m in messages)
    transfer = [m.figures for m in messages if isinstance(m, Transfer)][-1]
    # hops up to the damaged header at record 20, then streams the rest
    assert 0 < transfer["bytes"] < (server.root / "damaged.tfrecord").stat().st_size
    ds = Dataset([url])
    for m in messages:
        if isinstance(m, Chunk):
            if m.chunk.start == 0:
                ds.begin_file(m.file)
            ds.files[m.file].index.add(m.chunk)
    ds.finish_file(0, verified=False)
    checked = collect(verify_task, ([url], ds.columns()))
    assert checked[-1] == Done(verified=True)
    parts = sorted((m.start, m.statuses) for m in checked if isinstance(m, Statuses))
    statuses = np.concatenate([s for _, s in parts])
    with Dataset([str(server.root / "damaged.tfrecord")]) as local:
        local.index(verify=True)
        assert np.array_equal(statuses, local.files[0].index.statuses())
    ds.close()


def test_filter_task_matches_what_the_core_finds(tmp_path):
    path = tmp_path / "a.tfrecord"
    path.write_bytes(b"".join(encode_frame(b"x" * i) for i in range(50)))
    with Dataset([str(path)]) as ds:
        ds.index()
        payload = ([str(path)], ds.columns(), "length % 7 == 0", {})
    messages = collect(filter_task, payload)
    assert messages[-1] == Done()
    hits = np.concatenate([m.records for m in messages if isinstance(m, Hits)]).tolist()
    assert hits == [i for i in range(50) if i % 7 == 0]
    errors = collect(filter_task, ([str(path)], ds.columns(), "length =", {}))
    failed = errors[-1]
    assert isinstance(failed, Failed) and failed.kind == "input" and "column" in failed.message


def test_settled_blocks_are_sent_as_a_few_messages_that_cover_every_record(tmp_path, monkeypatch):
    """The verifying child sends a file's consecutive blocks as one message (a message a
    block cost the window more than checking it), every record exactly once, each file's
    before its ``FileVerified``; the statuses are a verifying scan's."""
    from tfr_viewer.core import tasks
    from tfr_viewer.core.io import verify
    from tfr_viewer.core.task_messages import FileVerified

    monkeypatch.setattr(verify, "VERIFY_BLOCK_BYTES", 4000)
    monkeypatch.setattr(tasks, "STATUS_SECONDS", 3600.0)
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    rng = np.random.default_rng(9)
    paths = []
    for name, count in (("a", 400), ("b", 250)):
        frames = [encode_frame(rng.bytes(int(n))) for n in rng.integers(100, 3000, count)]
        bad = bytearray(frames[count // 2])
        bad[-1] ^= 1  # the payload CRC
        frames[count // 2] = bytes(bad)
        (tmp_path / f"{name}.tfrecord").write_bytes(b"".join(frames))
        paths.append(str(tmp_path / f"{name}.tfrecord"))
    messages = collect(index_task, args=(paths, str(tmp_path)))
    assert isinstance(messages[-1], Done)
    for number, path in enumerate(paths):
        sent = [m for m in messages if isinstance(m, Statuses) and m.file == number]
        done = messages.index(FileVerified(number))
        assert all(messages.index(m) < done for m in sent)
        assert len(sent) <= 3  # blocks of 4,000 bytes: hundreds of them
        with Dataset([path]) as local:
            local.index(verify=True)
            want = local.files[0].index.statuses().tolist()
        got = np.full(len(want), -1, dtype=np.int64)
        for m in sent:
            assert (got[m.start : m.start + len(m.statuses)] == -1).all()
            got[m.start : m.start + len(m.statuses)] = m.statuses
        assert got.tolist() == want
