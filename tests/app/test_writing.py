"""The window's writes as requests, run in a child as the window runs them: records
with an edit written as TFRecord (TensorFlow reads back what was asked), the rows as
JSON Lines, images converted; a write that cannot be made is one ``Failed``."""

from __future__ import annotations

import io
import json
import os

import numpy as np
from PIL import Image

from tests.child_jobs import collect
from tests.tf_oracle import tf_read
from tfr_viewer.app.jobs import operation_task, standalone_task
from tfr_viewer.app.writing import ConvertRequest, ExportRecordsRequest, FormatExportRequest
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.io.framing import encode_frame
from tfr_viewer.core.task_messages import Done, Failed, Progress
from tfr_viewer.core.write import ExportOptions
from tfr_viewer.core.write.build import build_example
from tfr_viewer.core.write.convert import ConvertOptions, list_source


def _dataset(tmp_path):
    path = tmp_path / "in.tfrecord"
    payloads = [build_example({"label": i}) for i in range(10)]
    path.write_bytes(b"".join(encode_frame(p) for p in payloads))
    with Dataset([str(path)]) as ds:
        ds.index(verify=True)
        return [str(path)], ds.columns(), payloads


def test_chosen_records_with_an_edit_are_what_tensorflow_reads_back(tmp_path):
    paths, columns, payloads = _dataset(tmp_path)
    edit = build_example({"label": 99})
    out = tmp_path / "out.tfrecord"
    request = ExportRecordsRequest([7, 2, 5], ExportOptions(str(out)), {2: edit})
    messages = collect(operation_task, (paths, columns, request, None))
    assert isinstance(messages[-1], Done) and messages[-1].result.records == 3
    assert any(isinstance(m, Progress) for m in messages)
    assert tf_read(out) == [payloads[7], edit, payloads[5]]


def test_rows_as_json_lines_and_a_refused_output(tmp_path):
    paths, columns, _ = _dataset(tmp_path)
    out = tmp_path / "rows.jsonl"
    done = collect(
        operation_task, (paths, columns, FormatExportRequest([1, 3], "jsonl", str(out)), None)
    )
    assert isinstance(done[-1], Done) and done[-1].result == 2
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 2 and "label" in json.dumps(rows[1])
    refused = collect(
        operation_task, (paths, columns, FormatExportRequest([1], "jsonl", paths[0]), None)
    )
    assert isinstance(refused[-1], Failed) and refused[-1].kind == "input"
    assert tf_read(paths[0])  # the input is whole


def test_images_are_converted_in_a_standalone_child(tmp_path):
    root = tmp_path / "pets"
    for c, name in enumerate(("cat", "dog")):
        (root / name).mkdir(parents=True)
        for i in range(2):
            pixels = np.random.default_rng(10 * c + i).integers(0, 255, (8, 8, 3), dtype=np.uint8)
            buffer = io.BytesIO()
            Image.fromarray(pixels).save(buffer, "PNG")
            (root / name / f"{i}.png").write_bytes(buffer.getvalue())
    out = tmp_path / "pets.tfrecord"
    options = ConvertOptions(ExportOptions(str(out)))
    messages = collect(standalone_task, ConvertRequest(list_source(str(root)), options))
    assert isinstance(messages[-1], Done) and messages[-1].result.records == 4
    assert len(tf_read(out)) == 4
    # the command line's report is the same JSON (its output's path and seconds aside)
    from tests.app.cli import cli_json

    (tmp_path / "cli").mkdir()
    cli_out = tmp_path / "cli" / "pets.tfrecord"
    _, cli = cli_json("convert", str(root), "-o", str(cli_out), "--json")
    window = messages[-1].result.to_json()
    for report, path in ((cli, cli_out), (window, out)):
        assert report.pop("files") == [str(path)] and report.pop("seconds") >= 0
        names = [os.path.relpath(f, path.parent) for f in report.pop("label_files")]
        assert names == ["label_map.pbtxt", "labels.txt"]
    assert cli == window and cli["classes"] == {"0": "cat", "1": "dog"}


def test_the_command_line_the_api_and_the_window_report_one_export(tmp_path):
    """``export --json`` and the API's export report are the same JSON (their output
    paths and seconds aside), and the window's request reports the same records;
    TensorFlow reads back the records the filter chose."""
    import tfr_viewer as tfv
    from tests.app.cli import cli_json

    paths, columns, payloads = _dataset(tmp_path)
    out_cli, out_api, out_win = (tmp_path / f"{n}.tfrecord" for n in ("cli", "api", "win"))
    _, cli = cli_json("export", paths[0], "--filter", "label >= 6", "-o", str(out_cli), "--json")
    api = tfv.open(paths[0]).filter("label >= 6").export(str(out_api)).to_json()

    def same(report, out):
        shown = {k: v for k, v in report.items() if k not in ("files", "seconds", "per_file")}
        return shown, report["files"] == [str(out)], list(report["per_file"].values())

    assert same(cli, out_cli) == same(api, out_api)
    assert cli["records"] == 4 and cli["warnings"] == []
    assert tf_read(out_cli) == payloads[6:]
    request = ExportRecordsRequest([6, 7, 8, 9], ExportOptions(str(out_win)), filter="label >= 6")
    done = collect(operation_task, (paths, columns, request, None))
    assert isinstance(done[-1], Done)
    assert same(done[-1].result.to_json(), out_win) == same(cli, out_cli)
    nothing = tfv.open(paths[0]).filter("label > 99").export(str(tmp_path / "none.tfrecord"))
    assert nothing.to_json()["warnings"] == [
        "no intact record matches the filter, so the output holds none"
    ]
