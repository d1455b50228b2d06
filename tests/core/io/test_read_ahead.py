"""Shards indexed side by side give the index of shards indexed one after another:
local shards verified a few at a time, and header-only passes over shards of large
records, with damage in some of them."""

from __future__ import annotations

import random

import pytest

from tfr_viewer.core.io import Dataset
from tfr_viewer.core.io.framing import encode_frame


def _shards(folder, sizes: list[int]) -> list[str]:
    rng = random.Random(2)
    paths = []
    for k in range(6):
        frames = [encode_frame(rng.randbytes(rng.choice(sizes))) for _ in range(20)]
        data = bytearray(b"".join(frames))
        if k == 2:
            data[len(frames[0]) + 40] ^= 0xFF  # a payload byte of record 1
        if k == 4:
            data[len(frames[0]) + len(frames[1]) + 3] ^= 0x01  # record 2's length
        if k == 5:
            del data[len(data) - 100 :]  # the last record cut
        path = folder / f"s-{k:05d}-of-00006"
        path.write_bytes(bytes(data))
        paths.append(str(path))
    return paths


def _index(paths: list[str], verify: bool) -> list[tuple]:
    with Dataset(paths) as ds:
        ds.index(verify=verify)
        return [
            (f.index.offsets().tolist(), f.index.lengths().tolist(), f.index.statuses().tolist())
            for f in ds.files
        ] + [[(p.kind, p.record, p.offset) for p in ds.problems()]]


@pytest.mark.parametrize("sizes", [[100, 3000], [70_000, 200_000]])
@pytest.mark.parametrize("verify", [True, False])
def test_side_by_side_is_one_after_another(tmp_path, monkeypatch, sizes, verify):
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    paths = _shards(tmp_path, sizes)
    monkeypatch.setenv("TFR_VIEWER_LOCAL_STREAMS", "1")
    monkeypatch.setenv("TFR_VIEWER_LOCAL_WORKERS", "1")
    alone = _index(paths, verify)
    monkeypatch.setenv("TFR_VIEWER_LOCAL_STREAMS", "3")
    monkeypatch.setenv("TFR_VIEWER_LOCAL_WORKERS", "32")
    assert _index(paths, verify) == alone
    assert alone[-1], "the damage was seen"


def test_a_file_scanned_alone_reads_ahead_and_files_read_together_do_not(tmp_path, monkeypatch):
    """A verifying scan reads a plain file's next bytes on a thread only when no other
    file is read at the same time (then the disk has enough to do); the indexes are
    the same either way."""
    from tfr_viewer.core.io import index as index_mod
    from tfr_viewer.core.io.plain_source import PlainSource

    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    monkeypatch.setenv("TFR_VIEWER_LOCAL_STREAMS", "3")
    monkeypatch.setattr(PlainSource, "window_bytes", 4096)
    monkeypatch.setattr(index_mod, "_MAX_WINDOW", 8192)
    started: list[int] = []
    real = index_mod._Ahead

    def counting(*args):  # noqa: ANN002, ANN202
        started.append(1)
        return real(*args)

    monkeypatch.setattr(index_mod, "_Ahead", counting)
    paths = _shards(tmp_path, [300, 900, 2500])
    with Dataset(paths) as together:
        together.index(verify=True)
        want = [f.index.statuses().tolist() for f in together.files]
    assert started == []
    for path, statuses in zip(paths, want, strict=True):
        with Dataset([path]) as alone:
            alone.index(verify=True)
            assert alone.files[0].index.statuses().tolist() == statuses
    assert started
