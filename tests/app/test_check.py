"""``check`` is one operation: the command line's ``--json`` (here, and with
``--jobs 2``) and the Python API's report are the same JSON, with a label map, over the
planted-fault dataset (every kind of finding at its record) and an empty shard."""

from __future__ import annotations

import pytest

import tfr_viewer as tfv
from tests.app.cli import cli_json
from tests.planted_faults import planted_dataset


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("check")
    faulty = folder / "faulty-00000-of-00002.tfrecord"
    planted_dataset(faulty)
    (folder / "faulty-00001-of-00002.tfrecord").write_bytes(b"")
    labels = folder / "labels.pbtxt"
    labels.write_text('item { id: 1 name: "circle" }\nitem { id: 2 name: "square" }\n')
    return [str(faulty), str(folder / "faulty-00001-of-00002.tfrecord")], str(labels)


@pytest.mark.parametrize("fail_on", ["warning", "error"])
def test_the_command_line_and_the_api_give_one_report(planted, fail_on):
    paths, labels = planted
    args = ["check", "--json", "--fail-on", fail_on, "--label-map", labels, *paths]
    code, cli = cli_json(*args)
    _, jobs = cli_json(*args, "--jobs", "2")
    report = tfv.open(paths).check(fail_on=fail_on, label_map=labels)
    assert report.to_json() == cli == jobs
    assert code == (1 if report.failed else 0) and cli["fail_on"] == fail_on
    assert {f["kind"] for f in cli["findings"]} >= {"damaged_record", "empty_shard"}
    assert report.to_pandas().shape[0] == len(report) == len(cli["findings"])


def test_a_mistaken_fail_on_is_one_user_error(planted):
    with pytest.raises(tfv.UserError, match="fail_on is one of error, warning, info"):
        tfv.open(planted[0]).check(fail_on="severe")


def test_image_quality_limits_are_taken(planted):
    from tfr_viewer.core.analyze.image_quality import Thresholds

    strict = tfv.open(planted[0]).check(limits=Thresholds(dark=250.0))
    assert any(f.kind == "image_dark" for f in strict)
