"""``stats``' report read typed: every figure of the JSON is an attribute, a saved
report reads the same as one computed now, and a JSON that is no report is refused."""

from __future__ import annotations

import json

import pytest

from tests.planted_labels import labelled_dataset
from tfr_viewer.app.stats import statistics
from tfr_viewer.core.analyze.stats_summary import StatsSummary
from tfr_viewer.core.io.dataset import Dataset


def _numeric(summary, obj) -> None:
    assert summary.count == obj["count"]
    assert (summary.min, summary.max, summary.mean) == (obj["min"], obj["max"], obj["mean"])
    assert summary.histogram.counts == tuple(obj["histogram"]["counts"])
    assert dict(summary.quantiles) == obj["quantiles"]


def test_every_feature_and_class_is_read(tmp_path):
    path = labelled_dataset(tmp_path / "labelled.tfrecord")
    with Dataset([str(path)]) as ds:
        report = statistics(ds)
    obj = report.to_json()
    summary = report.summary()
    assert (summary.records, summary.files, summary.damaged) == (
        obj["records"],
        obj["files"],
        obj["damaged"],
    )
    assert [k for k, _ in summary.features] == list(obj["features"])
    for key, f in summary.features:
        want = obj["features"][key]
        assert (f.kind, f.present, f.missing) == (want["kind"], want["present"], want["missing"])
        assert {str(k): n for k, n in f.per_record} == want["value_counts"]["per_record"]
        _numeric(f.value_counts, want["value_counts"])
        assert (f.numeric is None) == ("numeric" not in want)
        if f.numeric is not None:
            _numeric(f.numeric, want["numeric"])
            assert [list(v) for v in f.values] == want["numeric"].get("values", [])
        assert (f.images is None) == ("images" not in want)
        if f.images is not None:
            _numeric(f.images.width, want["images"]["width"])
            assert dict(f.images.formats) == want["images"]["formats"]
        assert (f.bytes is None) == ("bytes" not in want)
        if f.bytes is not None:
            assert [list(t) for t in f.bytes.top] == want["bytes"]["top"]
    found = summary.class_counts
    assert found is not None
    want_classes = (obj.get("object_classes") or obj["classes"])["classes"]
    assert [(c.id, c.text, c.count) for c in found.classes] == [
        (c["id"], c["text"], c["count"]) for c in want_classes
    ]
    assert summary.to_json() == obj


def test_a_saved_report_reads_as_the_computed_one(tmp_path):
    path = labelled_dataset(tmp_path / "labelled.tfrecord")
    with Dataset([str(path)]) as ds:
        report = statistics(ds)
    saved = json.loads(json.dumps(report.to_json()))
    assert StatsSummary.from_json(saved) == report.summary()


COUNTS = {"records": 1, "files": 1, "damaged": 0, "examples": 1, "sequence_examples": 0}
HEAD = {**COUNTS, "other_payloads": 0, "roles": {}}


@pytest.mark.parametrize(
    "broken",
    [
        {"records": 1, "features": {}},
        {**HEAD, "features": {"k": {"kind": "int64"}}},
        {**HEAD, "features": {"k": []}},
        {**HEAD, "records": "many", "features": {}},
    ],
)
def test_a_json_that_is_no_report_is_refused(broken):
    with pytest.raises((KeyError, TypeError, ValueError, AttributeError)):
        StatsSummary.from_json(broken)
