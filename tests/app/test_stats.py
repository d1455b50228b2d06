"""``stats`` is one operation: the command line's ``--json`` (here, and with
``--jobs 2``) and the Python API's report are the same JSON, over TensorFlow-written
labelled shards; a view's statistics count its own records."""

from __future__ import annotations

import tfr_viewer as tfv
from tests.app.cli import cli_json
from tests.planted_labels import labelled_dataset


def test_the_command_line_and_the_api_give_one_report(tmp_path):
    first = labelled_dataset(tmp_path / "labels-00000-of-00002.tfrecord", True)
    second = tmp_path / "labels-00001-of-00002.tfrecord"
    second.write_bytes(first.read_bytes())
    paths = [str(first), str(second)]
    _, cli = cli_json("stats", "--json", *paths)
    _, jobs = cli_json("stats", "--json", "--jobs", "2", *paths)
    report = tfv.open(paths).stats()
    assert report.to_json() == cli == jobs
    assert cli["records"] == 2 * len(tfv.open(str(first)))
    assert report.to_pandas().shape[0] == len(cli["features"])
    view = tfv.open(paths).filter("index < 5")
    assert view.stats().to_json()["records"] == 5
