"""``check --predictions``: a TensorFlow-written detection dataset with four planted
label errors, and predictions from its clean labels in each of the three forms; every
planted error is reported at its record and box with its kind, the clean records with
none, whatever the source, the matching id or the number of jobs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.planted_labels import (
    PLANTED,
    RECORDS,
    coco_results,
)
from tfr_viewer.core.analyze.findings import LABEL_ERROR_KINDS

LABEL_KINDS = set(LABEL_ERROR_KINDS)


def _check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "check", *args], capture_output=True, text=True
    )


def _label_findings(done: subprocess.CompletedProcess) -> dict[int, tuple[str, int | None]]:
    assert done.returncode in (0, 1), done.stderr
    doc = json.loads(done.stdout)
    found = [f for f in doc["findings"] if f["kind"] in LABEL_KINDS]
    by_record = {f["record"]: (f["kind"], f["box"]) for f in found}
    assert len(by_record) == len(found), found  # one finding a record
    for f in found:
        assert 0 <= f["evidence"]["rank"] <= 1 and f["file"] and f["offset"] is not None
        if f["kind"] != "label_spurious":  # the model's class named as the labels name it
            assert f["evidence"]["predicted_text"] in {"cat", "dog", "bird"}, f
            assert repr(f["evidence"]["predicted_text"]) in f["message"]
    ranks = [f["evidence"]["rank"] for f in found]
    assert ranks == sorted(ranks, reverse=True)  # strongest evidence first
    return by_record


def test_predictions_in_the_records(label_data):
    found = _label_findings(_check(str(label_data["with"]), "--predictions", "features", "--json"))
    assert found == PLANTED


def test_a_coco_results_file_matched_by_source_id(label_data):
    found = _label_findings(
        _check(str(label_data["plain"]), "--predictions", str(label_data["coco"]), "--json")
    )
    assert found == PLANTED


@pytest.mark.parametrize(("key", "match"), [("by_sha", None), ("by_name", "filename")])
def test_a_second_dataset_matched_by_its_id(label_data, key, match):
    extra = ["--match", match] if match else []
    done = _check(str(label_data["plain"]), "--predictions", str(label_data[key]), "--json", *extra)
    assert _label_findings(done) == PLANTED


def test_ids_that_match_no_record_are_named(label_data):
    results = coco_results(label_data["root"] / "partial.json", skip=3, extra="9999")
    done = _check(str(label_data["plain"]), "--predictions", str(results), "--json")
    found = _label_findings(done)
    assert found == {r: v for r, v in PLANTED.items() if r != 3}  # record 3 has none now
    (unmatched,) = [
        f for f in json.loads(done.stdout)["findings"] if f["kind"] == "predictions_unmatched"
    ]
    assert "1 of the 24 image ids" in unmatched["message"] and "9999" in unmatched["message"]
    assert "image/source_id" in unmatched["message"] and unmatched["record"] is None
    (lacking,) = [
        f for f in json.loads(done.stdout)["findings"] if f["kind"] == "records_without_predictions"
    ]
    assert lacking["message"].startswith("1 record has no prediction") and lacking[
        "message"
    ].endswith(": 3")
    text = _check(str(label_data["plain"]), "--predictions", str(results))
    assert "predictions_unmatched" in text.stdout and "label_class: 1 finding" in text.stdout


def test_the_findings_are_the_same_with_jobs_and_thresholds_matter(label_data):
    one = _check(str(label_data["with"]), "--predictions", "features", "--json", "--jobs", "1")
    two = _check(str(label_data["with"]), "--predictions", "features", "--json", "--jobs", "2")
    assert json.loads(one.stdout) == json.loads(two.stdout)
    strict = _check(
        str(label_data["with"]), "--predictions", "features", "--json", "--score-threshold", "0.999"
    )
    assert _label_findings(strict) == {}  # no prediction is that sure: nothing is weighed
    loose = _check(
        str(label_data["with"]), "--predictions", "features", "--json", "--iou-threshold", "0.25"
    )
    assert 11 not in _label_findings(loose)  # the shifted box pairs at IoU 0.30


def test_bad_predictions_are_one_line_and_exit_2(label_data, tmp_path):
    plain = str(label_data["plain"])
    bad = tmp_path / "bad.json"
    cases = {
        "missing.json": "cannot read",
        str(bad): "result 1: bbox",
        str(label_data["plain"]): "holds no predictions",
    }
    bad.write_text(
        json.dumps(
            [
                {"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, 4], "score": 0.5},
                {"image_id": 1, "category_id": 1, "bbox": [1, 2, "x", 4], "score": 0.5},
            ]
        )
    )
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    cases[str(deep)] = "not JSON"
    nan = tmp_path / "nan.json"
    nan.write_text('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, 4], "score": NaN}]')
    cases[str(nan)] = "result 0: score"
    huge = tmp_path / "huge.json"
    huge.write_text('[{"image_id": 1, "category_id": 1e400, "bbox": [1, 2, 3, 4], "score": 1}]')
    cases[str(huge)] = "category_id"
    listless = tmp_path / "object.json"
    listless.write_text('{"results": []}')
    cases[str(listless)] = "a list of results"
    for spec, said in cases.items():
        done = _check(plain, "--predictions", spec)
        assert done.returncode == 2 and said in done.stderr, (spec, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    for args, said in (
        (["--match", "sha256"], "--match goes with --predictions"),
        (["--predictions", "features", "--score-threshold", "2"], "score threshold"),
        (["--predictions", "features", "--detection-key", "nope=x"], "ROLE=KEY"),
    ):
        done = _check(plain, *args)
        assert done.returncode == 2 and said in done.stderr, done.stderr


def test_clean_predictions_against_clean_labels_find_nothing(label_data, tmp_path):
    from tests.planted_faults import example_of
    from tests.planted_labels import _features, clean_boxes
    from tests.tf_oracle import tf_write

    payloads = []
    for i in range(RECORDS):
        features = _features(i, with_predictions=True)
        boxes = clean_boxes(i)
        for s, side in enumerate(("xmin", "ymin", "xmax", "ymax")):
            features[f"image/object/bbox/{side}"] = [float(c[s]) for c, _ in boxes]
        features["image/object/class/label"] = [label for _, label in boxes]
        features["image/object/class/text"] = [b"x"] * len(boxes)
        payloads.append(example_of(features))
    clean = tf_write(tmp_path / "clean.tfrecord", payloads)
    assert _label_findings(_check(str(clean), "--predictions", "features", "--json")) == {}


def test_prediction_lists_that_disagree_are_named_at_their_record(tmp_path):
    from tests.planted_faults import example_of
    from tests.planted_labels import _features
    from tests.tf_oracle import tf_write

    payloads = [example_of(_features(i, with_predictions=True)) for i in range(4)]
    odd = _features(2, with_predictions=True)
    odd["image/detection/score"] = odd["image/detection/score"][:-1]  # one score short
    payloads[2] = example_of(odd)
    path = tf_write(tmp_path / "odd.tfrecord", payloads)
    done = _check(str(path), "--predictions", "features", "--json")
    findings = json.loads(done.stdout)["findings"]
    (bad,) = [f for f in findings if f["kind"] == "predictions_malformed"]
    assert bad["record"] == 2 and "differ in length" in bad["message"]
    assert bad["feature"] == "image/detection/bbox/xmin"
    assert not any(f["record"] == 2 and f["kind"].startswith("label_") for f in findings)
