"""``export``'s arguments are checked at the boundary: a combination that does not fit
is refused in one line, exit 2, before any input is opened (a FIFO that would block
any reader shows it)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--format", "csv", "--boxes", "voc"], "--boxes goes with --format images"),
        (["--format", "jsonl", "--raw-cells"], "--raw-cells goes with --format csv"),
        (["--format", "csv", "--runner", "direct"], "--runner writes TFRecord files"),
        (["--shards", "0"], "--shards and --max-shard-mb must be above 0"),
        (["--compression", "lz4"], "lz4"),
        (["--split", "train=2"], "add up to 2, not 1"),
    ],
)
def test_a_misfit_is_refused_before_any_input_is_read(tmp_path, extra, said):
    fifo = tmp_path / "input.tfrecord"
    os.mkfifo(fifo)  # opening it to read would wait for a writer forever
    out = tmp_path / "out"
    run = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "export", str(fifo), "-o", str(out), *extra],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2
    assert said in run.stderr and run.stderr.count("\n") == 1
    assert not out.exists()


def test_the_request_keeps_what_was_asked():
    from tfr_viewer.cli import build_parser
    from tfr_viewer.commands.export_request import ExportRequest

    parser, _ = build_parser("export")
    args = parser.parse_args(
        ["export", "a.tfrecord", "b.tfrecord", "-o", "out-%05d.tar", "--format", "webdataset"]
        + ["--shard-records", "7", "--filter", "label == 1", "--json", "--jobs", "2"]
    )
    request = ExportRequest.of(args)
    assert request.paths == ("a.tfrecord", "b.tfrecord")
    assert request.output.out == "out-%05d.tar" and request.format == "webdataset"
    assert request.format_options == {"per_shard": 7}
    assert request.filter == "label == 1" and request.as_json and request.runs.jobs == 2
