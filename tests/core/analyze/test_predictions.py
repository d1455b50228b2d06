"""Predictions as hostile files and records hold them: numbers past a float's range,
infinities, NaN labels, bytes where numbers belong. Each is one line naming the file
and the result (or a finding naming the record), never a traceback."""

from __future__ import annotations

import json

import pytest

from tests.program import program
from tests.tf_oracle import tf_write
from tfr_viewer.core.analyze.predictions import finite, whole_class

GOOD = {"image_id": 500, "category_id": 1, "bbox": [1, 2, 3, 4], "score": 0.5}
BIG = "1" + "0" * 400  # a JSON integer past a float's range


@pytest.mark.parametrize(
    ("field", "raw", "said"),
    [
        ("score", BIG, "score is missing or not a finite number"),
        ("bbox", f"[1, 2, {BIG}, 4]", "bbox is not four finite numbers"),
        ("category_id", BIG, "category_id is missing or not a whole number"),
        ("category_id", "1.5", "category_id is missing or not a whole number"),
        ("score", '"0.9"', "score is missing or not a finite number"),
    ],
)
def test_a_results_file_with_numbers_no_float_holds_is_one_line(
    tmp_path, label_data, field, raw, said
):
    entry = json.dumps({k: v for k, v in GOOD.items() if k != field})
    results = tmp_path / "results.json"
    results.write_text(f"[{entry[:-1]}, {json.dumps(field)}: {raw}}}]")
    done = program("check", str(label_data["plain"]), "--predictions", str(results))
    assert done.returncode == 2, done.stderr
    assert f"{results}, result 0: {said}" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_detections_in_records_with_odd_labels_are_findings(tmp_path):
    """Detection labels stored as floats (NaN, infinity, 2.5) or bytes: the record's
    predictions are named as malformed; the run goes on."""
    from tests.planted_faults import example_of

    box = {f"image/detection/bbox/{c}": [0.1] for c in ("xmin", "ymin")} | {
        f"image/detection/bbox/{c}": [0.5] for c in ("xmax", "ymax")
    }
    objects = {f"image/object/bbox/{c}": [0.1] for c in ("xmin", "ymin")} | {
        f"image/object/bbox/{c}": [0.5] for c in ("xmax", "ymax")
    }
    records = []
    for label in ([float("nan")], [float("inf")], [2.5], [b"cat"], [3.0]):
        records.append(
            example_of(
                {
                    **box,
                    **objects,
                    "image/object/class/label": [3],
                    "image/detection/label": label,
                    "image/detection/score": [0.9],
                }
            )
        )
    for side in (float("nan"), float("inf")):  # a box nowhere
        records.append(
            example_of(
                {
                    **box,
                    **objects,
                    "image/detection/bbox/xmin": [side],
                    "image/object/class/label": [3],
                    "image/detection/label": [3],
                    "image/detection/score": [0.9],
                }
            )
        )
    data = tf_write(tmp_path / "odd.tfrecord", records)
    done = program("check", "--json", str(data), "--predictions", "features")
    assert done.returncode in (0, 1), done.stderr
    malformed = [
        f for f in json.loads(done.stdout)["findings"] if f["kind"] == "predictions_malformed"
    ]
    assert sorted(f["record"] for f in malformed) == [0, 1, 2, 3, 5, 6]
    assert "not a finite number (nan, 0.1, 0.5, 0.5, 0.9" in malformed[-2]["message"]
    # the same records as another dataset's predictions: one line naming the first
    done = program("evaluate", str(data), "--predictions", str(data))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert f"{data}, record 0: a detection's class is nan" in done.stderr


def test_numbers_are_read_as_floats_and_class_ids_only_when_they_are():
    assert finite(10**400) is None and finite(float("nan")) is None and finite("1") is None
    assert finite(3) == 3.0 and finite(True) is None
    assert whole_class(3.0) == 3 and whole_class(2.5) is None and whole_class(2**63) is None
    assert whole_class(b"3") is None and whole_class(-(2**63)) == -(2**63)


@pytest.mark.parametrize("damage", ["flipped", "cut"])
def test_damaged_predictions_are_refused_not_used_in_part(tmp_path, label_data, damage):
    """A predictions dataset with a flipped byte or cut short: its lost records would
    silently be images without detections. One line names the damage; nothing is
    weighed."""
    data = bytearray(label_data["by_sha"].read_bytes())
    if damage == "flipped":
        data[len(data) // 2] ^= 0x40
    else:
        data = data[: len(data) - 100]
    bad = tmp_path / "preds.tfrecord"
    bad.write_bytes(bytes(data))
    for command in ("evaluate", "check"):
        done = program(command, str(label_data["plain"]), "--predictions", str(bad))
        assert done.returncode == 2, (command, done.stderr)
        assert f"the predictions {bad} are damaged" in done.stderr and "record" in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


def test_a_prediction_id_that_names_several_records_is_said(tmp_path):
    """Four records with one source id: the results for that id are weighed against
    each of them, and a warning says so, naming them (one process or two)."""
    from tests.planted_faults import example_of

    records = []
    for i in range(6):
        records.append(
            example_of(
                {
                    "image/source_id": [b"7" if i in (1, 2, 4, 5) else str(100 + i).encode()],
                    "image/width": [100],
                    "image/height": [100],
                    **{f"image/object/bbox/{c}": [0.1] for c in ("xmin", "ymin")},
                    **{f"image/object/bbox/{c}": [0.5] for c in ("xmax", "ymax")},
                    "image/object/class/label": [1],
                }
            )
        )
    data = tf_write(tmp_path / "shared.tfrecord", records)
    results = tmp_path / "results.json"
    entries = [
        {"image_id": i, "category_id": 1, "bbox": [10, 10, 40, 40], "score": 0.9}
        for i in (7, 100, 103)
    ]
    results.write_text(json.dumps(entries))
    for jobs in ("1", "2"):
        done = program("check", "--json", str(data), "--predictions", str(results), "--jobs", jobs)
        assert done.returncode == 1, done.stderr
        shared = [
            f for f in json.loads(done.stdout)["findings"] if f["kind"] == "predictions_shared_id"
        ]
        assert len(shared) == 1 and "'7' names records 1, 2, 4, 5" in shared[0]["message"]
        assert shared[0]["severity"] == "warning"
