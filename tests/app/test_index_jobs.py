"""The window's indexing jobs, run here in-process over a real pipe: one verifying scan,
or a header pass first (large records, a cached index, many shards) and the statuses
after it; a header-only index of remote files verified later; a child whose parent
went away ends quietly."""

from __future__ import annotations

import gzip

import numpy as np

from tests.child_jobs import collect
from tests.damaged_frames import frames_with_bad_payloads
from tfr_viewer.app.index_jobs import index_task, verify_task
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.io.records import RecordStatus
from tfr_viewer.core.task_messages import (
    Chunk,
    Done,
    Indexed,
    SeekPoints,
    Statuses,
    Transfer,
)


def test_an_index_task_over_small_records_checks_the_crcs_in_its_one_scan(tmp_path):
    """Nothing to hop over: the scan that counts the records checks their CRCs (a GZIP
    file is decoded once), so the chunks carry the final statuses."""
    frames = frames_with_bad_payloads([f"r{i}".encode() * 30 for i in range(100)], [42])
    (tmp_path / "a.tfrecord").write_bytes(b"".join(frames))
    (tmp_path / "b.gz").write_bytes(gzip.compress(b"".join(frames[:10])))
    paths = [str(tmp_path / "a.tfrecord"), str(tmp_path / "b.gz")]
    messages = collect(index_task, args=(paths, str(tmp_path)))
    assert messages[-1] == Done(verified=True) and Indexed() in messages
    assert SeekPoints(1, str(tmp_path / "1.seekpoints")) in messages
    assert not any(isinstance(m, Statuses) for m in messages)
    found = []
    for number in (0, 1):
        chunks = [m.chunk for m in messages if isinstance(m, Chunk) and m.file == number]
        found.append(np.concatenate([c.status for c in chunks]))
        with Dataset([paths[number]]) as alone:
            alone.index(verify=True)
            assert found[-1].tolist() == alone.files[0].index.statuses().tolist()
    assert np.flatnonzero(found[0] != RecordStatus.OK).tolist() == [42]


def test_a_file_whose_index_is_cached_is_counted_from_it_then_verified(tmp_path, monkeypatch):
    """A verifying scan never uses a cached index; the window's count must not wait for
    one: a file of small records indexed before (here by ``count``'s header pass) is
    counted from the cache at once, and its CRCs are checked after."""
    monkeypatch.setenv("TFR_VIEWER_CACHE_MIN_BYTES", "0")
    frames = frames_with_bad_payloads([f"r{i}".encode() * 30 for i in range(300)], [7])
    path = tmp_path / "a.tfrecord"
    path.write_bytes(b"".join(frames))
    with Dataset([str(path)]) as ds:
        ds.index(verify=False)  # stored in the cache, every record UNVERIFIED
    messages = collect(index_task, args=([str(path)], str(tmp_path)))
    assert messages[-1] == Done(verified=True)
    chunks = [m.chunk for m in messages if isinstance(m, Chunk)]
    assert sum(map(len, chunks)) == 300
    assert all((c.status == RecordStatus.UNVERIFIED).all() for c in chunks)
    sent, done = _settled(messages, 0)
    assert all(messages.index(m) < done for m in sent)
    with Dataset([str(path)]) as local:
        local.index(verify=True)
        assert _statuses(sent, 300) == local.files[0].index.statuses().tolist()
    assert _statuses(sent, 300)[7] == RecordStatus.BAD_DATA_CRC


def _large_shards(tmp_path, count: int, records: int = 30) -> list[str]:
    """``count`` shards of frames over 64 KB (a header pass hops over them), the middle
    record's payload CRC broken in each."""
    rng = np.random.default_rng(9)
    paths = []
    for k in range(count):
        sizes = rng.integers(66_000, 90_000, records)
        frames = frames_with_bad_payloads([rng.bytes(int(n)) for n in sizes], [records // 2])
        (tmp_path / f"s{k}.tfrecord").write_bytes(b"".join(frames))
        paths.append(str(tmp_path / f"s{k}.tfrecord"))
    return paths


def _settled(messages: list, number: int) -> tuple[list, int]:
    """File ``number``'s ``Statuses`` messages and the position of its ``FileVerified``."""
    from tfr_viewer.core.task_messages import FileVerified

    sent = [m for m in messages if isinstance(m, Statuses) and m.file == number]
    return sent, messages.index(FileVerified(number))


def _statuses(sent: list, count: int) -> list[int]:
    """Each record's status, from messages that must cover each exactly once."""
    got = np.full(count, -1, dtype=np.int64)
    for m in sent:
        assert (got[m.start : m.start + len(m.statuses)] == -1).all()
        got[m.start : m.start + len(m.statuses)] = m.statuses
    return got.tolist()


def test_many_shards_of_large_records_are_counted_by_headers_then_verified(tmp_path, monkeypatch):
    """Counted by a header pass, then verified a file at a time: every record's status
    is sent once, before its file's ``FileVerified``, as a verifying scan finds it."""
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    paths = _large_shards(tmp_path, 5)
    messages = collect(index_task, args=(paths, str(tmp_path)))
    assert messages[-1] == Done(verified=True)
    for number, path in enumerate(paths):
        chunks = [m.chunk for m in messages if isinstance(m, Chunk) and m.file == number]
        assert all((c.status == RecordStatus.UNVERIFIED).all() for c in chunks)  # headers only
        sent, done = _settled(messages, number)
        assert all(messages.index(m) < done for m in sent)
        with Dataset([path]) as local:
            local.index(verify=True)
            assert _statuses(sent, 30) == local.files[0].index.statuses().tolist()


def test_a_header_only_index_task_then_one_verify_task(tmp_path, server):
    """Remote datasets are indexed by headers only; verification is a task of its own
    over that index, and finds what the local verifying scan finds."""
    url = server.url("damaged.tfrecord")
    messages = collect(index_task, args=([url], str(tmp_path), False))
    assert messages[-1] == Done(verified=False)
    assert not any(isinstance(m, Statuses) for m in messages)
    transfer = [m.figures for m in messages if isinstance(m, Transfer)][-1]
    # hops up to the damaged header at record 20, then streams the rest
    assert 0 < transfer.bytes < (server.root / "damaged.tfrecord").stat().st_size
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


def test_settled_blocks_are_sent_as_a_few_messages_that_cover_every_record(tmp_path, monkeypatch):
    """The verifying child sends a file's consecutive blocks as one message (a message a
    block cost the window more than checking it), every record exactly once, each file's
    before its ``FileVerified``; the statuses are a verifying scan's."""
    from tfr_viewer.app import index_jobs
    from tfr_viewer.core.io import verify

    monkeypatch.setattr(verify, "VERIFY_BLOCK_BYTES", 4000)  # a block a record
    monkeypatch.setattr(index_jobs, "STATUS_SECONDS", 3600.0)
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    paths = _large_shards(tmp_path, 2)  # fewer than the streams: verified in parts
    messages = collect(index_task, args=(paths, str(tmp_path)))
    assert isinstance(messages[-1], Done)
    for number, path in enumerate(paths):
        sent, done = _settled(messages, number)
        assert all(messages.index(m) < done for m in sent)
        assert len(sent) <= 3  # 30 blocks
        with Dataset([path]) as local:
            local.index(verify=True)
            assert _statuses(sent, 30) == local.files[0].index.statuses().tolist()


def test_a_child_whose_parent_went_away_ends_quietly(tmp_path):
    """The window closes while a child job sends: the child ends with no traceback."""
    import subprocess
    import sys
    import textwrap

    from tfr_viewer.core.io import write_records

    data = tmp_path / "many.tfrecord"
    write_records(data, [b"x" * 100] * 200_000)
    script = textwrap.dedent(
        f"""
        import functools, multiprocessing, sys
        from tfr_viewer.app.index_jobs import index_task
        from tfr_viewer.app.jobs import run_child

        if __name__ == "__main__":
            ctx = multiprocessing.get_context("spawn")
            parent, child = ctx.Pipe(duplex=True)
            job = functools.partial(index_task, paths=[{str(data)!r}], seek_dir={str(tmp_path)!r})
            process = ctx.Process(target=run_child, args=(job, child))
            process.start()
            child.close()
            parent.recv()  # the job has begun sending
            parent.close()  # the window goes away
            process.join(60)
            sys.exit(process.exitcode)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr
