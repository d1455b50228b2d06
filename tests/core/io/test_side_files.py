"""The small files a user names beside a dataset are read only when they are regular
files of a size their role allows: a FIFO, a link to one, a folder or a file too large
is one line and exit 2, never a wait."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tfr_viewer.core.io.side_files import SideFileError, read_side_file

SAMPLE = "resources/samples/shapes_odapi.tfrecord"


def test_only_regular_files_of_their_size_are_read(tmp_path):
    good = tmp_path / "map.pbtxt"
    good.write_bytes(b"item { id: 1 name: 'a' }")
    assert read_side_file(str(good), "label map") == good.read_bytes()
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "link"
    link.symlink_to(fifo)
    cases = {
        str(fifo): "FIFO",
        str(link): "FIFO",
        str(tmp_path): "folder",
        str(tmp_path / "missing"): "cannot read",
    }
    for path, said in cases.items():
        with pytest.raises(SideFileError, match=said):
            read_side_file(path, "label map")
    with pytest.raises(SideFileError, match="more than a label map"):
        read_side_file(str(good), "label map", limit=4)


@pytest.mark.parametrize(
    ("option", "name"),
    [("--label-map", "map.pbtxt"), ("--schema", "schema.json"), ("--predictions", "results.json")],
)
def test_a_fifo_named_as_a_side_file_is_refused_at_once(tmp_path, option, name):
    fifo = tmp_path / name
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "check", SAMPLE, option, str(fifo)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "FIFO" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("option", "what"),
    [("--schema", "schema"), ("--predictions", "results file")],
)
@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"a": ' + "9" * 4400 + "}", "Exceeds the limit (4300 digits)"),
        ("[1, 2", "is not JSON: Expecting ',' delimiter at line 1"),
        ("[" * 100_000 + "]" * 100_000, "nests too deeply"),
        ("\xff\xfe", None),
    ],
)
def test_a_json_side_file_that_is_no_json_is_one_line(tmp_path, option, what, text, why):
    """Whatever a hand-made or hostile JSON file holds, it is one line and exit 2."""
    from tests.program import program
    from tests.tf_oracle import tf_write

    data = tf_write(tmp_path / "data.tfrecord", [b""])
    side = tmp_path / "side.json"
    side.write_bytes(text.encode("latin-1") if why is None else text.encode())
    done = program("check", option, str(side), str(data))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert f"the {what} {side}" in line
    assert why is None or why in line
