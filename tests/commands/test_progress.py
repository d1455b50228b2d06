"""Advice that works: a file that is not a TFRecord is called that by every command, in
one line with exit 2, and no message recommends a command that would do nothing."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.tf_oracle import tf, tf_write
from tfr_viewer.core.io.framing import encode_frame


def _cli(*argv, env_streams: str | None = None):
    env = dict(os.environ)
    if env_streams is not None:  # one stream: a verifying scan, never parts
        env["TFR_VIEWER_LOCAL_STREAMS"] = env_streams
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", *map(str, argv)],
        capture_output=True,
        text=True,
        env=env,
    )


@pytest.fixture
def text_file(tmp_path):
    path = tmp_path / "passwd"
    path.write_text("root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534::/:/bin/false\n")
    return path


@pytest.mark.parametrize(
    "argv",
    [
        ["info"],
        ["verify"],
        ["verify", "--json"],
        ["count"],
        ["list"],
        ["head"],
        ["show", "0"],
        ["schema"],
        ["stats"],
        ["check"],
        ["index"],
        ["export", "-o", "{out}"],
        ["recover", "-o", "{out}"],
    ],
)
def test_every_command_calls_a_text_file_not_a_tfrecord(text_file, tmp_path, argv):
    out = tmp_path / "out.tfrecord"
    words = [w.format(out=out) for w in argv]
    done = _cli(*words[:1], text_file, *words[1:])
    assert done.returncode == 2, (argv, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "not a TFRecord file" in lines[0], done.stderr
    assert "recover -o" not in done.stderr
    assert not out.exists()
    with pytest.raises(Exception, match="corrupted record|truncated"):  # TensorFlow agrees
        list(tf().data.TFRecordDataset(str(text_file)))


def test_no_message_recommends_recover_where_nothing_is_intact(tmp_path):
    frames = [bytearray(encode_frame(b"payload %d" % i)) for i in range(3)]
    for frame in frames:
        frame[-6] ^= 0xFF
    allbad = tmp_path / "allbad.tfrecord"
    allbad.write_bytes(b"".join(map(bytes, frames)))
    verify = _cli("verify", allbad)
    assert verify.returncode == 1
    assert "recover" not in verify.stdout
    assert verify.stdout.count("nothing can be saved from it") == 3
    recover = _cli("recover", allbad, "-o", tmp_path / "r.tfrecord")
    assert recover.returncode == 1
    assert "recover" not in recover.stdout and "nothing was written" in recover.stderr
    mixed = tf_write(tmp_path / "mixed.tfrecord", [b"good"])
    mixed.write_bytes(mixed.read_bytes() + b"".join(map(bytes, frames)))
    verify = _cli("verify", mixed)
    assert verify.returncode == 1
    assert "run `tfr-viewer recover -o OUT`" in verify.stdout  # here it saves a record
    recover = _cli("recover", mixed, "-o", tmp_path / "r.tfrecord", "--json")
    assert recover.returncode == 0
    assert "recover -o" not in recover.stdout  # the lost records are listed, not advised on


def test_verify_checks_one_file_of_large_records_in_parts_as_tensorflow_reads_it(tmp_path):
    """``verify --json`` of one file of large records (a header pass, then parts read
    side by side) finds the damaged record where TensorFlow's reader stops, and gives
    the JSON of a verifying scan of the same file."""
    import json

    from tfr_viewer.core.io.dataset import Dataset

    path = tf_write(tmp_path / "big.tfrecord", [bytes([i]) * (70 << 10) for i in range(60)])
    with Dataset([str(path)]) as ds:
        assert ds.verifies_in_parts()
        ds.index()
        at = ds.ref(41).offset
    data = bytearray(path.read_bytes())
    data[at + 12 + 500] ^= 1
    path.write_bytes(bytes(data))
    done = _cli("verify", "--json", "--no-cache", path)
    assert done.returncode == 1, done.stderr
    out = json.loads(done.stdout)
    assert out["records"] == 60 and [p["record"] for p in out["problems"]] == [41]
    read = 0
    with pytest.raises(tf().errors.DataLossError):
        for _ in tf().data.TFRecordDataset(str(path)):
            read += 1
    assert read == 41
    scanned = _cli("verify", "--json", "--no-cache", path, env_streams="1")
    assert json.loads(scanned.stdout) == out


@pytest.mark.parametrize(
    ("command", "expression"),
    [
        ("list", "length > 100"),  # a bare name: a feature's, or the record's length
        ("list", 'has("label")'),  # reads features
        ("list", "record.length > 100"),  # the record's alone: streamed as it is read
        ("count", "length > 100"),
    ],
)
def test_a_filtered_command_reads_the_data_in_one_verifying_pass(
    tmp_path, monkeypatch, capsys, command, expression
):
    """A filter is judged (its names, its keys) on the index the command needs next:
    one verifying pass over the data, never a header pass first; the output is
    TensorFlow's reading of the records."""
    from tfr_viewer.cli import main
    from tfr_viewer.core.io.dataset import Dataset
    from tfr_viewer.core.write.build import build_example

    payloads = [build_example({"label": i, "text": b"x" * (40 * i)}) for i in range(8)]
    path = tf_write(tmp_path / "data.tfrecord", payloads)
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    passes: list[bool] = []
    real = Dataset.scan

    def scan(self, *, verify=True, cancel=None):
        passes.append(verify)
        return real(self, verify=verify, cancel=cancel)

    monkeypatch.setattr(Dataset, "scan", scan)
    assert main([command, "--filter", expression, str(path)]) == 0
    assert passes == [True]
    out = capsys.readouterr().out.split()
    lengths = [len(p) for p in tf().data.TFRecordDataset(str(path)).as_numpy_iterator()]
    wanted = [i for i, n in enumerate(lengths) if n > 100 or "has" in expression]
    if command == "count":
        assert out == [str(len(wanted))]
    else:
        assert [int(line) for line in out[::5]] == wanted
