"""A filter pass runs block by block in bounded memory, whatever the record count."""

from __future__ import annotations

import resource

from tfr_viewer.core.io import Dataset
from tfr_viewer.core.io.framing import encode_frame
from tfr_viewer.core.query import compile_filter, matches_of, matching
from tfr_viewer.core.write import build_example


def test_a_filter_pass_does_not_grow_with_the_records(tmp_path):
    path = tmp_path / "many.tfrecord"
    frames = [encode_frame(build_example({"label": [i % 7]})) for i in range(7)]
    path.write_bytes(b"".join(frames) * 100_000)  # 700,000 records
    with Dataset([str(path)]) as ds:
        ds.index()
        flt = compile_filter("label == 3")
        list(matching(ds, compile_filter("label == 1"), verified=False))  # warm up the allocator
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        matches = sum(len(m.keep) for m in matching(ds, flt, verified=False))
        grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert matches == 100_000
    assert grown_mb < 20, f"the filter pass grew the process by {grown_mb:.0f} MB"


def test_edited_payloads_are_filtered_and_sorted_instead_of_the_files(tmp_path):
    import numpy as np

    from tfr_viewer.core.query import sort_records

    path = tmp_path / "e.tfrecord"
    frames = [encode_frame(build_example({"label": i})) for i in range(6)]
    damaged = bytearray(frames[4])
    damaged[14] ^= 0xFF  # a bad payload CRC: unreadable, but its edit is read
    path.write_bytes(b"".join(frames[:4]) + bytes(damaged) + frames[5])
    edited = {1: build_example({"label": 40}), 4: build_example({"label": 50})}
    with Dataset([str(path)]) as ds:
        ds.index(verify=True)
        hits = matches_of(matching(ds, compile_filter("label >= 5"), edited=edited))
        assert hits.tolist() == [1, 4, 5]
        order = sort_records(ds, np.arange(6), "label", descending=True, edited=edited)
        assert order.tolist() == [4, 1, 5, 3, 2, 0]


def _png(width: int, height: int) -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height)).save(out, "PNG")
    return out.getvalue()


def test_image_sizes_filter_by_their_headers(tmp_path):
    sizes = [(30, 20), (300, 20), (30, 200), (5, 5)]
    path = tmp_path / "sizes.tfrecord"
    payloads = [build_example({"img": _png(w, h), "n": i}) for i, (w, h) in enumerate(sizes)]
    payloads.append(build_example({"img": b"not an image at all", "n": 9}))
    path.write_bytes(b"".join(encode_frame(p) for p in payloads))
    with Dataset([str(path)]) as ds:
        ds.index()

        def hits(text: str) -> list[int]:
            return matches_of(matching(ds, compile_filter(text), verified=False)).tolist()

        assert hits("width(img) > 100") == [1]
        assert hits("height(img) >= 20 and width(img) < 100") == [0, 2]
        assert hits("not width(img) > 0") == [4]  # not an image: no size matches
