"""``info`` is one operation: the command line's ``--json`` and the Python API's report
are the same JSON, for a shard set with a GZIP shard and a cut one, and for a TFDS folder
(its splits as ``dataset_info.json`` describes them, written by tensorflow_datasets)."""

from __future__ import annotations

from pathlib import Path

import tfr_viewer as tfv
from tests.app.cli import cli_json
from tests.tf_oracle import tf_read, tf_write

TFDS = Path(__file__).resolve().parents[1] / "data" / "tfds" / "shapes" / "1.0.0"


def test_the_command_line_and_the_api_give_one_report(tmp_path):
    paths = []
    for k in range(3):
        path = tmp_path / f"part-{k:05d}-of-00003"
        tf_write(path, [bytes([k, i]) * 50 for i in range(20)], "gzip" if k == 1 else "none")
        paths.append(str(path))
    Path(paths[2]).write_bytes(Path(paths[2]).read_bytes()[:-5])
    _, cli = cli_json("info", "--json", *paths)
    report = tfv.open(paths).info()
    assert isinstance(report, tfv.Info) and report.to_json() == cli
    assert [f["records"] for f in cli["files"]] == [20, len(tf_read(paths[1], "gzip")), 19]
    assert cli["problems"] == 1


def test_a_tfds_folder_s_splits_are_the_same(tmp_path):
    _, cli = cli_json("info", "--json", str(TFDS))
    report = tfv.open(str(TFDS)).info()
    assert report.to_json() == cli and cli["tfds"]["name"] == "shapes"
