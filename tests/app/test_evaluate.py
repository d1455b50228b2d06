"""``evaluate`` is one operation: the command line's ``--json`` and the Python API's
report are the same JSON, with predictions in the records or in a COCO results file
and a label map naming the classes."""

from __future__ import annotations

import pytest

import tfr_viewer as tfv
from tests.app.cli import cli_json
from tests.planted_labels import coco_results, labelled_dataset

pytest.importorskip("pycocotools")


def test_the_command_line_and_the_api_give_one_report(tmp_path):
    data = labelled_dataset(tmp_path / "labels.tfrecord", True)
    results = coco_results(tmp_path / "results.json", skip=3)
    names = tmp_path / "names.pbtxt"
    names.write_text('item { id: 1 name: "circle" }\nitem { id: 2 name: "square" }\n')
    ds = tfv.open(str(data))
    for source in ("features", str(results)):
        _, cli = cli_json(
            "evaluate", "--json", str(data), "--predictions", source, "--label-map", str(names)
        )
        report = ds.evaluate(source, label_map=str(names))
        assert report.to_json() == cli
        assert report.to_pandas().shape[0] == len(cli["classes"])
    assert any(c["text"] == "circle" for c in cli["classes"])


def test_nothing_to_evaluate_is_one_user_error(tmp_path):
    data = labelled_dataset(tmp_path / "labels.tfrecord")
    with pytest.raises(tfv.UserError, match="has both box lists and predictions"):
        tfv.open(str(data)).evaluate("features")
