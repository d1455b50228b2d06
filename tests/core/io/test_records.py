"""One record number: every message names a record by its global number (the table's
`#`, `verify --json`'s `record`), and in a dataset of several files adds its number
within its file in the same words, in the CLI's text and JSON and the Problems list."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.tf_oracle import tf_write
from tfr_viewer.core.io.framing import encode_frame
from tfr_viewer.core.io.records import record_words
from tfr_viewer.core.write import build_example


def damaged_pair(tmp_path):
    """a.tfrecord with 100 good records; b.tfrecord whose record 20 has a bad payload
    CRC and 3 stray bytes before its record 30."""
    a = tf_write(tmp_path / "a.tfrecord", [build_example({"i": [i]}) for i in range(100)])
    frames = [bytearray(encode_frame(build_example({"i": [i]}))) for i in range(40)]
    frames[20][-6] ^= 0xFF
    b = tmp_path / "b.tfrecord"
    b.write_bytes(b"".join(bytes(f) for f in frames[:30]) + b"xyz" + b"".join(frames[30:]))
    return a, b


def _verify(*paths):
    done = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "verify", *map(str, paths), "--json"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stderr
    return json.loads(done.stdout)["problems"]


def test_verify_names_the_global_record_and_its_place_in_its_file(tmp_path):
    a, b = damaged_pair(tmp_path)
    bad, stray = _verify(a, b)
    assert (bad["record"], bad["file_record"]) == (120, 20)
    assert "record 120 (record 20 of b.tfrecord) at byte" in bad["message"]
    assert " record 20 " not in bad["message"].replace("(record 20 of", "")
    assert stray["kind"] == "garbage"
    assert "between record 129 and record 130 (record 30 of b.tfrecord)" in stray["message"]
    alone = _verify(b)[0]  # one file: the global number is the number in the file
    assert alone["record"] == 20
    assert "b.tfrecord: record 20 at byte" in alone["message"]
    assert "(record" not in alone["message"]


def test_record_words():
    assert record_words(7, 7, "x.tfrecord", False) == "record 7"
    assert record_words(119, 20, "gs://b/train-00001-of-00004", True) == (
        "record 119 (record 20 of train-00001-of-00004)"
    )
