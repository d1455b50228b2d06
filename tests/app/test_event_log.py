"""One read of event files, read on: a log read from the first part of a log folder's
index (as the window reads a file still being indexed) and then read on from where it
stopped holds what one read of the whole holds, every scalar point, histogram,
summary, tag and kind of event; a cancelled read says how far it got."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest

from tests.summary_files import write_summaries, write_tf1_summaries
from tfr_viewer.app.event_log import read_log
from tfr_viewer.app.event_runs import runs_of
from tfr_viewer.app.task_state import Step, TaskState
from tfr_viewer.core.io import Dataset


@pytest.fixture(scope="module")
def logdir(tmp_path_factory):
    root = tmp_path_factory.mktemp("logs")
    write_summaries(root / "train", steps=40)
    write_tf1_summaries(root / "old" / "events.out.tfevents.1.host", steps=30)
    return root


def _facts(log):
    scalars = log.scalars.peek()
    return (
        runs_of(log).to_json(),
        [(h.run, h.tag, h.step, h.record, h.buckets.tolist()) for h in log.histograms],
        log.summaries,
        log.hparams,
        {k: (scalars.runs[r], scalars.tags[t], *rest) for k, (r, t, *rest) in enumerate(zip(
            scalars.run.tolist(), scalars.tag.tolist(), scalars.step.tolist(),
            scalars.value.tolist(), scalars.record.tolist(), strict=True))},
    )  # fmt: skip


@pytest.mark.parametrize("part", [1, 7, 40, 80])
def test_a_part_read_then_read_on_is_the_whole(logdir, part):
    with Dataset.open([str(logdir)]) as ds:
        ds.index(verify=True)
        whole = read_log(ds)
        paths, columns = [f.path for f in ds.files], ds.columns()
    # the index as it stood when its first ``part`` records were known
    cut, left = [], part
    for offsets, lengths, statuses in columns:
        n = min(left, len(offsets))
        cut.append((offsets[:n], lengths[:n], statuses[:n]))
        left -= n
    with Dataset.from_arrays(paths, cut) as first:
        begun = read_log(first)
    assert begun.end == part
    with Dataset.from_arrays(paths, columns) as ds:
        on = read_log(ds, log=begun.log, start=begun.end)
    assert on.end == len(ds) and on.damaged == 0
    assert _facts(on.log) == _facts(whole.log)


class _StopAfter(TaskState):
    """Cancelled once the reading has told of ``blocks`` blocks read."""

    def __init__(self, blocks: int) -> None:
        self.blocks = blocks

    @property
    def cancelled(self) -> bool:
        return self.blocks <= 0

    @contextmanager
    def phase(self, label: str, total: int, unit: str = "records") -> Iterator[Step]:
        def step(done: int, told: int | None = None) -> None:
            self.blocks -= 1

        yield step


def test_a_cancelled_read_says_how_far_it_got(logdir, monkeypatch):
    from tfr_viewer.core.io import dataset_blocks

    real = dataset_blocks.iter_blocks
    monkeypatch.setattr(  # blocks of five records
        dataset_blocks, "iter_blocks", lambda *a, **k: real(*a, **{**k, "size": 5})
    )
    with Dataset.open([str(logdir)]) as ds:
        ds.index(verify=True)
        read = read_log(ds, _StopAfter(2))
        assert read.end == 10
        assert np.all(read.log.scalars.peek().record < 10)


def _frames(path) -> list[tuple[int, int]]:
    """Each frame's offset and payload length."""
    with Dataset([str(path)]) as ds:
        ds.index(verify=False)
        index = ds.files[0].index
        return list(zip(index.offsets().tolist(), index.lengths().tolist(), strict=True))


def _scalar_points(log) -> list[tuple[str, int, float]]:
    c = log.scalars.peek()
    return [
        (c.tags[t], s, v)
        for t, s, v in zip(c.tag.tolist(), c.step.tolist(), c.value.tolist(), strict=True)
    ]


class _Heard(TaskState):
    def __init__(self) -> None:
        self.said: list[str] = []

    def warn(self, text: str) -> None:
        self.said.append(text)


@pytest.mark.parametrize("which", ["one", "all", "no crcs"])
def test_records_whose_crc_is_wrong_are_read_and_flagged(tmp_path, which):
    """Another writer's CRCs: one wrong, all zero, or a writer that writes none (both
    CRCs zero); the payloads are whole, and every point is read as TensorBoard reads
    the file with its CRCs right."""
    from tests.summary_files import tensorboard_tensors

    good = write_tf1_summaries(tmp_path / "good" / "events.out.tfevents.1.host", steps=7)
    frames = _frames(good)
    data = bytearray(good.read_bytes())
    spoiled = [3] if which == "one" else list(range(len(frames)))
    for r in spoiled:
        offset, length = frames[r]
        data[offset + 12 + length : offset + 16 + length] = bytes(4)  # the payload's CRC
        if which == "no crcs":
            data[offset + 8 : offset + 12] = bytes(4)  # the length's
    bad = tmp_path / "bad" / "events.out.tfevents.1.host"
    bad.parent.mkdir()
    bad.write_bytes(bytes(data))
    heard = _Heard()
    with Dataset([str(bad)]) as ds:
        read = read_log(ds, heard)
    with Dataset([str(good)]) as ds:
        whole = read_log(ds)
    assert read.flagged == tuple(spoiled) and read.damaged == 0
    assert _scalar_points(read.log) == _scalar_points(whole.log)
    theirs = tensorboard_tensors(tmp_path / "good", "scalars")
    assert len(_scalar_points(read.log)) == sum(len(v) for v in theirs.values())
    (said,) = heard.said
    assert f"{len(spoiled)} record" in said and "CRC is wrong" in said
    assert f"record {spoiled[0]} at byte {frames[spoiled[0]][0]:,}" in said
    assert runs_of(read.log, read.damaged, len(read.flagged)).to_json()["flagged"] == len(spoiled)


def test_a_length_crc_of_zero_is_read_and_flagged(tmp_path):
    path = write_tf1_summaries(tmp_path / "events.out.tfevents.1.host", steps=5)
    frames = _frames(path)
    data = bytearray(path.read_bytes())
    offset, _ = frames[2]
    data[offset + 8 : offset + 12] = bytes(4)  # the length's CRC
    path.write_bytes(bytes(data))
    with Dataset([str(path)]) as ds:
        read = read_log(ds)
    assert read.flagged == (2,)
    assert [s for tag, s, _ in _scalar_points(read.log) if tag == "lr"] == list(range(5))


def test_a_record_cut_short_at_the_end_is_named(tmp_path):
    """A file still being written: its last record is cut short."""
    path = write_tf1_summaries(tmp_path / "events.out.tfevents.1.host", steps=6)
    frames = _frames(path)
    offset, length = frames[-2]  # the last summary, then the session log
    path.write_bytes(path.read_bytes()[: offset + 12 + length // 2])
    heard = _Heard()
    with Dataset([str(path)]) as ds:
        read = read_log(ds, heard)
        assert read.end == len(ds)
    assert read.damaged == 1 and read.flagged == ()
    assert [s for tag, s, _ in _scalar_points(read.log) if tag == "lr"] == list(range(5))
    (said,) = heard.said
    assert f"cut short at byte {offset:,}" in said and "still" in said
