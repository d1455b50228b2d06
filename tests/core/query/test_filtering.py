"""A filter pass runs block by block in bounded memory, whatever the record count."""

from __future__ import annotations

import resource

from tfr_viewer.core.io import Dataset
from tfr_viewer.core.io.framing import encode_frame
from tfr_viewer.core.query import compile_filter, filter_dataset
from tfr_viewer.core.write import build_example


def test_a_filter_pass_does_not_grow_with_the_records(tmp_path):
    path = tmp_path / "many.tfrecord"
    frames = [encode_frame(build_example({"label": [i % 7]})) for i in range(7)]
    path.write_bytes(b"".join(frames) * 100_000)  # 700,000 records
    with Dataset([str(path)]) as ds:
        ds.index()
        flt = compile_filter("label == 3")
        list(filter_dataset(ds, compile_filter("label == 1")))  # warm up the allocator
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        matches = sum(len(hits) for hits in filter_dataset(ds, flt))
        grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert matches == 100_000
    assert grown_mb < 20, f"the filter pass grew the process by {grown_mb:.0f} MB"
