"""Summary cell texts for many records in one extractor pass (the table's columns)."""

from __future__ import annotations

import numpy as np

from tfr_viewer.core.io import Dataset
from tfr_viewer.core.io.framing import encode_frame
from tfr_viewer.core.query.summaries import summarise, summary_texts
from tfr_viewer.core.write.build import build_example, build_sequence_example


def test_summarise():
    assert summarise([b"cat"], "bytes") == "cat"
    assert summarise([b"\xff\x00"], "bytes") == "<2 bytes>"
    assert summarise(np.array([0.25], np.float32), "float") == "0.25"
    assert summarise(np.arange(10), "int64") == "0, 1, 2, 3, 4, 5, 6, 7, 8, 9"
    many = summarise(np.arange(100), "int64")
    assert many.startswith("0, 1, 2, ") and many.endswith(", … (100 values)") and len(many) < 50
    assert summarise([b"circle", b"square", b"square"], "bytes") == "circle, square, square"
    assert summarise([b"\xff", b"a"], "bytes") == "[2 values]"
    assert summarise([], "int64") == ""


def test_texts_of_many_records_in_any_order_with_edits_and_damage(tmp_path):
    path = tmp_path / "s.tfrecord"
    payloads = [
        build_example({"label": [i], "name": [f"n{i}".encode()], "score": [i / 4]})
        for i in range(6)
    ]
    payloads[2] = build_sequence_example({"label": [20]}, {"steps": [[1], [2]]})
    payloads[3] = b"not a protobuf \xff"
    frames = [encode_frame(p) for p in payloads]
    bad = bytearray(frames[4])
    bad[-1] ^= 1  # the payload CRC
    frames[4] = bytes(bad)
    path.write_bytes(b"".join(frames))
    with Dataset([str(path)]) as ds:
        ds.index(verify=True)
        edited = {5: build_example({"label": [50, 51]})}
        texts = summary_texts(ds, [5, 0, 3, 2, 4, 1], ["label", "name", "score"], edited)
    assert set(texts) == {0, 1, 2, 3, 4, 5}
    assert texts[0] == {"label": "0", "name": "n0", "score": "0.0"}
    assert texts[1] == {"label": "1", "name": "n1", "score": "0.25"}
    assert texts[2] == {"label": "20", "name": "", "score": ""}  # the context
    assert texts[3] == dict.fromkeys(["label", "name", "score"], "")  # not an Example
    assert texts[4] == dict.fromkeys(["label", "name", "score"], "")  # damaged
    assert texts[5] == {"label": "50, 51", "name": "", "score": ""}  # the edit
