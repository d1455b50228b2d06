"""What a new user types on the command line, run as a subprocess: exit codes, stdout
and stderr of show in both orders, head, count, schema and info on files that are not
Examples or not TFRecords, recover with nothing to recover, typos and overwriting."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tf_oracle import tf, tf_write

SAMPLES = Path(__file__).resolve().parents[2] / "resources" / "samples"
ODAPI = str(SAMPLES / "shapes_odapi.tfrecord")


def cli(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def test_show_takes_the_index_first_or_last():
    first = cli("show", "3", ODAPI, "--json")
    last = cli("show", ODAPI, "3", "--json")
    assert first.returncode == last.returncode == 0, first.stderr + last.stderr
    assert json.loads(first.stdout) == json.loads(last.stdout)
    assert json.loads(first.stdout)["index"] == 3
    neither = cli("show", ODAPI)
    assert neither.returncode == 2 and "record number" in neither.stderr


def test_head_gives_the_first_records_as_show_does():
    run = cli("head", "-n", "3", "--json", ODAPI)
    assert run.returncode == 0, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert [r["index"] for r in rows] == [0, 1, 2]
    assert rows[2] == json.loads(cli("show", "2", ODAPI, "--json").stdout)
    text = cli("head", "-n", "1", ODAPI)
    assert text.returncode == 0 and text.stdout.startswith("record 0 ")


def test_count_with_and_without_a_filter(tmp_path):
    labels = [i % 3 for i in range(20)]
    t = tf().train
    path = tf_write(
        tmp_path / "c.tfrecord",
        [
            t.Example(
                features=t.Features(feature={"label": t.Feature(int64_list=t.Int64List(value=[v]))})
            ).SerializeToString()
            for v in labels
        ],
    )
    plain = cli("count", str(path))
    assert plain.returncode == 0 and plain.stdout.strip() == "20"
    matched = cli("count", str(path), "--filter", "label == 2", "--json")
    assert matched.returncode == 0, matched.stderr
    assert json.loads(matched.stdout)["count"] == labels.count(2)


def test_schema_of_records_that_are_not_examples_says_so(tmp_path):
    tensors = [tf().io.serialize_tensor(tf().constant([i, i + 1])).numpy() for i in range(5)]
    path = tf_write(tmp_path / "t.tfrecord", tensors)
    for flag in ((), ("--json",)):
        run = cli("schema", str(path), *flag)
        assert run.returncode == 2
        assert run.stdout == ""
        assert "no Example schema" in run.stderr and "5 tensor" in run.stderr


def test_info_on_a_file_that_is_not_a_tfrecord(tmp_path):
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"a": [1, 2, 3], "b": "not a record"}))
    run = cli("info", str(data))
    assert run.returncode == 2
    assert "not a TFRecord file: it is JSON text" in run.stderr
    as_json = cli("info", "--json", str(data))
    assert as_json.returncode == 2
    assert "not a TFRecord file" in json.loads(as_json.stdout)["files"][0]["error"]
    empty = tmp_path / "empty.tfrecord"
    empty.write_bytes(b"")
    ok = cli("info", str(empty))
    assert ok.returncode == 0 and "is empty" in ok.stderr


def test_recover_with_nothing_intact_writes_nothing(tmp_path):
    good = tf_write(tmp_path / "in.tfrecord", [b"x" * 3000], "gzip")
    cut = tmp_path / "cut.tfrecord.gz"
    cut.write_bytes(Path(good).read_bytes()[:30])
    out = tmp_path / "out.tfrecord"
    run = cli("recover", str(cut), "-o", str(out))
    assert run.returncode == 1
    assert not out.exists()
    assert "nothing was written" in run.stderr


def test_recover_counts_agree(tmp_path):
    from tfr_viewer.core.io.framing import encode_frame

    frames = [encode_frame(bytes([65 + i]) * 30) for i in range(6)]
    bad = bytearray(frames[2])
    bad[20] ^= 1
    frames[2] = bytes(bad)
    src = tmp_path / "d.tfrecord"
    src.write_bytes(b"".join(frames[:4]) + b"\x00junk\x00" * 3 + b"".join(frames[4:]))
    run = cli("recover", str(src), "-o", str(tmp_path / "r.tfrecord"))
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("lost: ") == 2
    assert "1 damaged record skipped" in run.stdout
    assert "left out: 1 damaged record and 1 region" in run.stdout
    assert "(2 problems listed above)" in run.stdout


@pytest.mark.parametrize(
    ("argv", "usage", "hint"),
    [
        (("lsit", "x"), "usage: tfr-viewer", "did you mean list?"),
        (("list", "--limt", "3", ODAPI), "usage: tfr-viewer list", "did you mean --limit?"),
        (("verify", "--jsno", ODAPI), "usage: tfr-viewer verify", "did you mean --json?"),
    ],
)
def test_typos_get_the_command_usage_and_a_suggestion(argv, usage, hint):
    run = cli(*argv)
    assert run.returncode == 2
    assert run.stderr.startswith(usage)
    assert hint in run.stderr


def test_export_refuses_to_overwrite_unless_asked(tmp_path):
    out = tmp_path / "out.tfrecord"
    out.write_bytes(b"precious")
    run = cli("export", ODAPI, "-o", str(out))
    assert run.returncode == 2 and "exists already" in run.stderr and "--overwrite" in run.stderr
    assert out.read_bytes() == b"precious"
    csv_out = tmp_path / "rows.csv"
    csv_out.write_text("keep")
    refused = cli("export", ODAPI, "-o", str(csv_out), "--format", "csv")
    assert refused.returncode == 2 and csv_out.read_text() == "keep"
    again = cli("export", ODAPI, "-o", str(out), "--overwrite")
    assert again.returncode == 0, again.stderr
    assert out.read_bytes() == Path(ODAPI).read_bytes()
