"""The child-process jobs, run here in-process over a real pipe."""

from __future__ import annotations

import numpy as np

from tests.child_jobs import collect
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.io.framing import encode_frame
from tfr_viewer.core.task_messages import (
    Done,
    Failed,
    Hits,
)
from tfr_viewer.core.tasks import filter_task


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
