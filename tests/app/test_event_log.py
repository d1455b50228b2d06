"""One read of event files, read on: a log read from the first part of a log folder's
index (as the window reads a file still being indexed) and then read on from where it
stopped holds what one read of the whole holds, every scalar point, histogram,
summary, tag and kind of event; a cancelled read says how far it got."""

from __future__ import annotations

import numpy as np
import pytest

from tests.summary_files import write_summaries, write_tf1_summaries
from tfr_viewer.app.event_log import read_log
from tfr_viewer.app.event_runs import runs_of
from tfr_viewer.app.task_state import TaskState
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
    def __init__(self, blocks: int) -> None:
        self.blocks = blocks

    @property
    def cancelled(self) -> bool:
        self.blocks -= 1
        return self.blocks < 0


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
