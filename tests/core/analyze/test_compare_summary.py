"""``compare``'s report read typed: the drift of every shared feature, the keys in one
dataset only, the images in both with their records, and the verdict."""

from __future__ import annotations

import json

from tests.planted_faults import clean_dataset
from tests.planted_labels import labelled_dataset
from tfr_viewer.app.compare import comparison
from tfr_viewer.core.analyze.compare_summary import CompareSummary
from tfr_viewer.core.io.dataset import Dataset


def test_every_figure_of_the_comparison_is_read(tmp_path):
    a = labelled_dataset(tmp_path / "a.tfrecord", True)
    b = tmp_path / "b.tfrecord"
    clean_dataset(b)
    with Dataset([str(a)]) as da, Dataset([str(b), str(a)]) as db:
        report = comparison(da, db, threshold=0.2)
    obj = report.to_json()
    c = report.summary()
    assert [f.key for f in c.features] == list(obj["features"])
    for f in c.features:
        want = obj["features"][f.key]
        assert (f.type, f.linf, f.js, f.drift) == (
            want["type"],
            want["linf"],
            want["js"],
            want["drift"],
        )
        assert (f.distribution is None) == (not want["distribution"])
        if f.distribution is not None:
            assert list(f.distribution.a) == want["distribution"]["a"]
    assert (list(c.only_in_a), list(c.only_in_b)) == (obj["only_in_a"], obj["only_in_b"])
    assert c.exact and len(c.exact) == len(obj["leaks"]["exact"])  # b holds a's images
    for leak, want in zip(c.exact, obj["leaks"]["exact"], strict=True):
        assert (leak.a.record, leak.b.record, leak.b.file) == (
            want["a"]["record"],
            want["b"]["record"],
            want["b"]["file"],
        )
        assert leak.distance is None
    assert (c.failed, list(c.reasons)) == (obj["failed"], obj["reasons"])
    assert c.exceeded == set(obj["exceeded"])
    assert CompareSummary.from_json(json.loads(json.dumps(obj))) == c
