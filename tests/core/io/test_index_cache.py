"""The persistent index: a second open of an unchanged file reads the index from the
cache; any change to the file, a damaged entry or --no-cache means a fresh scan."""

from __future__ import annotations

import os

import numpy as np
import pytest

from tfr_viewer.core.io import Dataset, index_cache, write_records
from tfr_viewer.core.io.framing import encode_frame


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("TFR_VIEWER_CACHE_DIR", str(folder))
    monkeypatch.setenv("TFR_VIEWER_CACHE_MIN_BYTES", "0")
    monkeypatch.delenv("TFR_VIEWER_NO_CACHE", raising=False)
    return folder


def _scans(monkeypatch) -> list[str]:
    """Record every real scan."""
    from tfr_viewer.core.io import read_ahead

    seen: list[str] = []
    real = read_ahead.scan

    def counting(source, **kw):
        seen.append(source.path)
        return real(source, **kw)

    monkeypatch.setattr(read_ahead, "scan", counting)
    return seen


def _index(path, verify=True):
    with Dataset([str(path)]) as ds:
        ds.index(verify=verify)
        f = ds.files[0].index
        return f.offsets(), f.lengths(), f.statuses(), list(f.garbage), f.verified


def _unverified(statuses: np.ndarray) -> np.ndarray:
    """``statuses`` as a loaded entry gives them: payload verdicts back to UNVERIFIED."""
    out = statuses.copy()
    out[(out == 0) | (out == 2)] = 4
    return out


def test_a_second_open_reads_the_cache_and_gives_the_same_index(tmp_path, monkeypatch, cache):
    path = tmp_path / "a.tfrecord"
    write_records(path, [bytes([i % 256]) * i for i in range(300)])
    scans = _scans(monkeypatch)
    first = _index(path)
    assert len(scans) == 1 and len(list(cache.glob("*" + index_cache.SUFFIX))) == 1
    second = _index(path, verify=False)
    assert len(scans) == 1
    for a, b in zip(first[:2], second[:2], strict=True):
        assert np.array_equal(a, b)
    assert np.array_equal(_unverified(first[2]), second[2])  # offsets, never verdicts
    assert first[3] == second[3] and second[4] is False


def test_damage_and_garbage_survive_the_cache(tmp_path, monkeypatch):
    path = tmp_path / "d.tfrecord"
    frames = [encode_frame(b"x" * 20) for _ in range(5)]
    bad = bytearray(frames[2])
    bad[15] ^= 0xFF
    bad_length = bytearray(encode_frame(b"y" * 30))
    bad_length[9] ^= 0x01  # the length CRC
    path.write_bytes(
        frames[0]
        + frames[1]
        + b"JUNKJUNK"
        + bytes(bad)
        + b"".join(frames[3:])
        + bytes(bad_length)
        + frames[0]
        + encode_frame(b"z" * 50)[:-9]  # cut short
    )
    first = _index(path)
    scans = _scans(monkeypatch)
    second = _index(path, verify=False)
    assert scans == []
    assert second[3] == first[3] and len(first[3]) >= 1
    for a, b in zip(first[:2], second[:2], strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    assert np.array_equal(_unverified(first[2]), second[2])
    assert {1, 2, 3} <= set(first[2].tolist()) and {1, 3} <= set(second[2].tolist())


def test_a_verifying_open_always_reads_the_bytes(tmp_path, monkeypatch):
    path = tmp_path / "h.tfrecord"
    write_records(path, [b"abc"] * 10)
    _index(path, verify=False)
    scans = _scans(monkeypatch)
    assert _index(path, verify=True)[4] is True
    assert _index(path, verify=True)[4] is True
    assert len(scans) == 2  # a verdict is never taken from the cache
    assert _index(path, verify=False)[4] is False  # offsets from it, payloads unverified
    assert len(scans) == 2


def test_a_changed_file_is_scanned_again(tmp_path, monkeypatch):
    path = tmp_path / "c.tfrecord"
    write_records(path, [b"abc"] * 10)
    _index(path)
    scans = _scans(monkeypatch)
    with open(path, "ab") as f:
        f.write(encode_frame(b"more"))
    assert len(_index(path)[0]) == 11
    stat = os.stat(path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # same size, new mtime
    _index(path)
    assert len(scans) == 2


def test_a_damaged_entry_is_ignored_and_rebuilt(tmp_path, monkeypatch, cache):
    path = tmp_path / "e.tfrecord"
    write_records(path, [b"abc"] * 10)
    _index(path)
    (entry,) = cache.glob("*" + index_cache.SUFFIX)
    whole = entry.read_bytes()
    flipped = bytearray(whole)
    flipped[-20] ^= 1  # one bit of an array
    scans = _scans(monkeypatch)
    for damaged in (whole[:100], bytes(flipped)):
        entry.write_bytes(damaged)
        assert len(_index(path)[0]) == 10
    assert len(scans) == 2


def test_no_cache_and_the_size_floor(tmp_path, monkeypatch, cache):
    path = tmp_path / "n.tfrecord"
    write_records(path, [b"abc"] * 10)
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    _index(path)
    monkeypatch.delenv("TFR_VIEWER_NO_CACHE")
    monkeypatch.setenv("TFR_VIEWER_CACHE_MIN_BYTES", str(1 << 20))
    _index(path)
    assert not cache.exists() or not list(cache.iterdir())


def test_the_cache_stays_under_its_cap(tmp_path, monkeypatch, cache):
    for i in range(4):
        path = tmp_path / f"s{i}.tfrecord"
        write_records(path, [b"x" * 100] * 2000)
        _index(path)
    sizes = [p.stat().st_size for p in cache.glob("*" + index_cache.SUFFIX)]
    assert len(sizes) == 4
    index_cache.trim(sum(sizes) - 1)
    assert len(list(cache.glob("*" + index_cache.SUFFIX))) == 3


def test_a_write_killed_half_way_leaves_nothing_for_long(tmp_path, cache):
    """The temporary of a cache write whose process died is removed by the next write;
    one of a living process is kept."""
    import os
    import subprocess

    from tfr_viewer.core.write.output import TMP_SUFFIX

    cache.mkdir(parents=True, exist_ok=True)
    child = subprocess.Popen(["true"])
    child.wait()  # a pid that is gone
    stale = cache / f".entry.{child.pid}.0a1b2c3d4e5f{TMP_SUFFIX}"
    stale.write_bytes(b"x" * 1000)
    living = cache / f".entry.{os.getppid()}.0a1b2c3d4e5f{TMP_SUFFIX}"
    living.write_bytes(b"y")
    path = tmp_path / "a.tfrecord"
    write_records(path, [b"x" * 100] * 2000)
    _index(path)
    assert not stale.exists() and living.exists()
    assert len(list(cache.glob("*" + index_cache.SUFFIX))) == 1


def test_an_entry_that_claims_too_few_records_is_not_believed(tmp_path, cache):
    """A well-formed entry of the file's identity that describes only its first ten
    frames (its scan said to have reached the end): count reads the file again."""
    from tests.program import program
    from tests.tf_oracle import tf_read

    big, small = tmp_path / "big.tfrecord", tmp_path / "small.tfrecord"
    write_records(big, [b"%05d" % i for i in range(9000)])
    write_records(small, [b"%05d" % i for i in range(10)])  # the same first ten frames
    with Dataset([str(small)]) as ds:
        ds.index(verify=False)
        forged = ds.files[0].index
        forged.position = os.path.getsize(big)  # "the scan reached the end"
        assert index_cache.store(str(big), forged, os.path.getsize(big)) is not None
    done = program("count", str(big), env={"TFR_VIEWER_CACHE_DIR": str(cache)})
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == len(tf_read(big)) == 9000


def test_a_cache_folder_another_user_left_is_passed_by(tmp_path, monkeypatch, cache, capsys):
    """A cache folder made by an earlier ``sudo tfr-viewer``: this user may not look
    into it. Every command carries on without the cache (the tests run as any user, so
    the refusal is made as the system makes it: PermissionError on every look)."""
    from tfr_viewer.cli import main

    path = tmp_path / "a.tfrecord"
    write_records(path, [b"x" * 100] * 20)
    cache.mkdir()
    real_stat = os.stat

    def refused(target, *args, **kwargs):
        if str(target).startswith(str(cache)):
            raise PermissionError(13, "Permission denied", str(target))
        return real_stat(target, *args, **kwargs)

    monkeypatch.setattr(os, "stat", refused)
    for command in (["index", str(path)], ["count", str(path)], ["verify", str(path)]):
        assert main(command) == 0, command
        out = capsys.readouterr()
        assert "Traceback" not in out.err and "Permission" not in out.err, out.err
    assert "not cached" in main_output(main, ["index", str(path)], capsys)


def main_output(main, args, capsys) -> str:
    assert main(args) == 0
    return capsys.readouterr().out
