"""``verify`` is one operation: the command line's ``--json`` (here, and with
``--jobs 2``) and the Python API's report are the same JSON, on TensorFlow-written shards
with a flipped payload byte, a GZIP shard and a cut one."""

from __future__ import annotations

import pytest

import tfr_viewer as tfv
from tests.app.cli import cli_json
from tests.tf_oracle import tf_read, tf_write


@pytest.fixture(scope="module")
def shards(tmp_path_factory) -> list[str]:
    from tests.planted_faults import example_of

    folder = tmp_path_factory.mktemp("verify")
    paths = []
    for k in range(3):
        path = folder / f"part-{k:05d}-of-00003"
        records = [example_of({"i": [100 * k + i], "b": [b"x" * (300 + i)]}) for i in range(50)]
        tf_write(path, records, "gzip" if k == 2 else "none")
        paths.append(path)
    data = bytearray(paths[0].read_bytes())
    data[16 + 40] ^= 0x08  # a payload byte of the first record
    paths[0].write_bytes(bytes(data))
    paths[1].write_bytes(paths[1].read_bytes()[:-7])  # the last record cut short
    return [str(p) for p in paths]


def test_the_command_line_and_the_api_give_one_report(shards):
    code, cli = cli_json("verify", "--json", *shards)
    _, jobs = cli_json("verify", "--json", "--jobs", "2", *shards)
    report = tfv.open(shards).verify()
    assert code == 1 and report.failed
    assert report.to_json() == cli == jobs
    kinds = sorted(p["kind"] for p in cli["problems"])
    assert kinds == ["bad_data_crc", "truncated"]
    # the records TensorFlow reads before the damage stops it, file by file
    assert [f["records"] for f in cli["files"]][2] == len(tf_read(shards[2], "gzip"))
    assert report.to_pandas()["kind"].tolist() == [p["kind"] for p in cli["problems"]]


def test_a_view_reports_its_own_records(shards):
    ds = tfv.open(shards)
    view = ds.filter("i >= 100")  # a damaged record matches no filter
    report = view.verify()
    assert isinstance(report, tfv.Problems)
    assert report.records == len(view) == 99  # 49 whole records of the cut file, 50
    assert len(ds.verify()) == 2 and len(report) == 0
