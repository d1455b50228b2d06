"""``schema`` is one operation: the command line's ``--json`` (of every record and of a
sample) and the Python API's report are the same JSON, and the spec it prints parses the
records as TensorFlow does; a dataset of no Example is one UserError naming what it is."""

from __future__ import annotations

import pytest

import tfr_viewer as tfv
from tests.app.cli import cli_json
from tests.planted_labels import labelled_dataset
from tests.tf_oracle import tf, tf_read, tf_write


def test_the_command_line_and_the_api_give_one_report(tmp_path):
    data = str(labelled_dataset(tmp_path / "labels.tfrecord", True))
    ds = tfv.open(data)
    for extra, sample in (([], None), (["--sample", "5"], 5)):
        _, cli = cli_json("schema", "--json", data, *extra)
        assert ds.schema(sample=sample).to_json() == cli
    spec: dict = {}
    t = tf()
    exec(ds.schema().python(), {"tf": t}, spec)  # the spec as printed, run as Python
    features = next(v for v in spec.values() if isinstance(v, dict))
    for payload in tf_read(data):
        t.io.parse_single_example(payload, features)  # every record parses with it


def test_a_dataset_of_no_example_is_one_user_error(tmp_path):
    path = tmp_path / "text.tfrecord"
    tf_write(path, [b"just some text" for _ in range(4)])
    with pytest.raises(tfv.UserError, match="no record is a tf.train.Example"):
        tfv.open(str(path)).schema()
