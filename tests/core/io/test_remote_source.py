"""Remote files over a loopback HTTP server read exactly as the local files do: the
same index (offsets, lengths, statuses, problems), the same bytes, with bounded
transfers, for plain, GZIP, ZLIB, sharded, damaged and empty files."""

from __future__ import annotations

import numpy as np
import pytest

from tests.remote_data import size_of
from tfr_viewer.core.io import Dataset
from tfr_viewer.core.io.dataset import open_path as open_source
from tfr_viewer.core.io.remote_source import RemoteCompressedSource, RemoteSource


def _same_index(local: Dataset, remote: Dataset) -> None:
    assert len(local) == len(remote)
    for a, b in zip(local.files, remote.files, strict=True):
        assert np.array_equal(a.index.offsets(), b.index.offsets())
        assert np.array_equal(a.index.lengths(), b.index.lengths())
        assert np.array_equal(a.index.statuses(), b.index.statuses())
        assert a.index.garbage == b.index.garbage


def _problems(ds: Dataset) -> list[tuple]:
    return [(p.record, p.offset, p.kind) for p in ds.problems()]


@pytest.mark.parametrize("name", ["small.tfrecord", "small.tfrecord.gz", "small.tfrecord.zz"])
@pytest.mark.parametrize("verify", [False, True])
def test_every_compression_indexes_and_reads_as_the_local_file(
    remote_root, server, no_cache, name, verify
):
    with Dataset.open([str(remote_root / name)]) as local, Dataset.open([server.url(name)]) as far:
        local.index(verify=verify)
        far.index(verify=verify)
        _same_index(local, far)
        for i in (0, 1234, len(local) - 1):
            assert far.read(i) == local.read(i)
        assert far.files[0].source.compression is local.files[0].source.compression
    if name.endswith(".gz"):
        assert isinstance(open_source(server.url(name)), RemoteCompressedSource)


def test_header_scan_of_large_records_transfers_under_5_percent(remote_root, server, no_cache):
    size = size_of(remote_root, "big.tfrecord")
    with Dataset.open([server.url("big.tfrecord")]) as far:
        server.reset_counts()
        far.index(verify=False)
        assert len(far) == 60
        assert server.bytes_sent < 0.05 * size, (server.bytes_sent, size)
        assert far.transfer().bytes == server.bytes_sent
        with Dataset.open([str(remote_root / "big.tfrecord")]) as local:
            local.index(verify=False)
            _same_index(local, far)
            # one record read later costs about its own size
            server.reset_counts()
            assert far.read(42) == local.read(42)
            assert server.bytes_sent < 2 * local.ref(42).length


def test_small_records_stream_the_whole_file_once(remote_root, server, no_cache):
    size = size_of(remote_root, "small.tfrecord")
    with Dataset.open([server.url("small.tfrecord")]) as far:
        server.reset_counts()
        far.index(verify=False)
        assert len(far) == 3000
        assert size <= server.bytes_sent < 1.1 * size + 4096


def test_full_verification_streams_the_file_once(remote_root, server, no_cache):
    size = size_of(remote_root, "big.tfrecord")
    with Dataset.open([server.url("big.tfrecord")]) as far:
        server.reset_counts()
        far.index(verify=True)
        assert far.problems() == []
        assert server.bytes_sent < 1.1 * size


def test_damaged_remote_file_reports_the_local_problems(remote_root, server, no_cache):
    for verify in (False, True):
        with (
            Dataset.open([str(remote_root / "damaged.tfrecord")]) as local,
            Dataset.open([server.url("damaged.tfrecord")]) as far,
        ):
            local.index(verify=verify)
            far.index(verify=verify)
            _same_index(local, far)
            assert _problems(far) == _problems(local)
            assert {p.kind for p in far.problems()} >= {"garbage", "truncated"}


def test_header_scan_then_one_click_verification(remote_root, server, no_cache):
    with Dataset.open([server.url("damaged.tfrecord")]) as far:
        far.index(verify=False)
        list(far.verify())
        with Dataset.open([str(remote_root / "damaged.tfrecord")]) as local:
            local.index(verify=True)
            assert _problems(far) == _problems(local)
            assert "bad_data_crc" in {p.kind for p in far.problems()}


def test_shards_by_glob_folder_and_spec_are_indexed_concurrently(remote_root, server, no_cache):
    names = [f"train-{k:05d}-of-00003" for k in range(3)]
    for spec in ("train-*", "train@3"):
        with Dataset.open([server.url(spec)]) as far:
            assert [f.path for f in far.files] == [server.url(n) for n in names]
            far.index(verify=True)
            assert len(far) == 3000 and far.problems() == []
            assert far.read(2500) == Dataset.open([str(remote_root / names[2])]).index().read(500)
    with Dataset.open([server.url("")]) as folder:  # a listing page
        assert server.url("big.tfrecord") in [f.path for f in folder.files]


def test_empty_remote_file(server, no_cache):
    with Dataset.open([server.url("empty.tfrecord")]) as far:
        far.index(verify=False)
        assert len(far) == 0
        assert any("is empty" in w for w in far.warnings)


def test_the_index_cache_keys_urls_by_size_and_etag(remote_root, server, tmp_path, monkeypatch):
    monkeypatch.setenv("TFR_VIEWER_CACHE_DIR", str(tmp_path / "cache"))
    url = server.url("big.tfrecord")
    with Dataset.open([url]) as first:
        first.index(verify=False)
    server.reset_counts()
    with Dataset.open([url]) as again:
        again.index(verify=False)
        assert len(again) == 60
    # the index came from the cache: one request sniffs the compression, none scans
    assert server.range_requests <= 1
    # the object changes: its ETag does, and the cached index is not used
    path = remote_root / "big.tfrecord"
    stat = path.stat()
    import os
    import time

    from tfr_viewer.core.io import remote

    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    remote._STATS.clear()
    try:
        server.reset_counts()
        with Dataset.open([url]) as changed:
            changed.index(verify=False)
        assert server.range_requests > 1
    finally:
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        remote._STATS.clear()
        time.sleep(0)


def test_plain_remote_reads_are_bounded_by_the_block_cache(server, no_cache):
    source = open_source(server.url("small.tfrecord"))
    assert isinstance(source, RemoteSource)
    server.reset_counts()
    for _ in range(3):
        assert len(source.read_at(1000, 100)) == 100
    assert server.range_requests == 1
    assert source.read_at(source.size - 10, 100) == source.read_at(source.size - 10, 10)
    assert source.read_at(source.size + 5, 10) == b""
    source.close()


def test_any_fsspec_protocol_works(remote_root, no_cache):
    """fsspec's in-memory file system stands for the protocols not tested here."""
    import fsspec

    memory = fsspec.filesystem("memory")
    memory.pipe("/bucket/x/small.tfrecord", (remote_root / "small.tfrecord").read_bytes())
    with Dataset.open(["memory://bucket/x/*.tfrecord"]) as far:
        far.index(verify=True)
        (path,) = [f.path for f in far.files]
        assert path.startswith("memory://") and path.endswith("/bucket/x/small.tfrecord")
        assert len(far) == 3000 and far.problems() == []
        with Dataset.open([str(remote_root / "small.tfrecord")]) as local:
            local.index()
            assert far.read(2999) == local.read(2999)
    memory.rm("/bucket", recursive=True)


def test_a_remote_scan_that_found_a_problem_is_not_cached(
    remote_root, server, tmp_path, monkeypatch
):
    """A lying server keeps one ETag while the object changes: a scan that met damage
    mid-way is not kept, so the object repaired under the same tag reads whole."""
    from tests.program import program
    from tfr_viewer.core.io import remote, write_records

    monkeypatch.setenv("TFR_VIEWER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TFR_VIEWER_CACHE_MIN_BYTES", "0")
    monkeypatch.delenv("TFR_VIEWER_NO_CACHE", raising=False)
    good = remote_root / "changing.tfrecord"
    write_records(good, [b"%04d" % i for i in range(200)])
    whole = good.read_bytes()
    damaged = bytearray(whole)
    damaged[len(whole) // 2 + 7] ^= 0xFF  # inside a frame half-way: garbage from there
    server.faults.fixed_etag = '"same"'
    try:
        good.write_bytes(bytes(damaged))
        remote._STATS.clear()
        first = program("count", server.url("changing.tfrecord"))
        assert first.returncode == 1 and int(first.stdout) < 200
        good.write_bytes(whole)  # repaired, under the same ETag
        again = program("count", server.url("changing.tfrecord"))
        assert (again.returncode, int(again.stdout)) == (0, 200), again.stderr
    finally:
        server.faults.fixed_etag = None
        good.unlink()
        remote._STATS.clear()
