"""Folders of shards: TFRecord files are found by name or by content."""

from __future__ import annotations

import os

import pytest

from tests.tf_oracle import tf_write
from tfr_viewer.core.io.paths import PathError, expand


def test_folder_finds_record_files_by_content(tmp_path):
    tf_write(tmp_path / "a.record", [b"x"])
    tf_write(tmp_path / "train-00000-of-00002", [b"y"])
    tf_write(tmp_path / "plain_name", [b"z"], "gzip")
    tf_write(tmp_path / "zz_name", [b"z"], "zlib")
    (tmp_path / "README.txt").write_text("not a record at all, just words")
    (tmp_path / "labels.json").write_text('{"0": "cat"}')
    names = [p.rsplit("/", 1)[1] for p in expand([str(tmp_path)])]
    assert names == ["a.record", "plain_name", "train-00000-of-00002", "zz_name"]


def _shards(folder, n=3, per=5):
    from tfr_viewer.core.write import build_example

    for s in range(n):
        payloads = [build_example({"label": [s * per + i]}) for i in range(per)]
        tf_write(folder / f"train-{s:05d}-of-{n:05d}", payloads)


def _cli(*argv, cwd=None):
    import subprocess
    import sys

    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", *argv], capture_output=True, text=True, cwd=cwd
    )


def test_sidecars_beside_shards_are_not_shards(tmp_path):
    """After `index FOLDER --tfindex`, the `.tfindex` files (named like shards) and the
    other sidecars are left out: `info` and `verify` see exactly what tf.data reads."""
    import json

    from tests.tf_oracle import tf_read

    data = tmp_path / "data"
    data.mkdir()
    _shards(data)
    (data / "label_map.pbtxt").write_text('item { id: 1 name: "cat" }\n')
    (data / "dataset_info.json").write_text("{}")
    (data / "train-00000-of-00003.idx").write_bytes(b"0 20\n")
    made = _cli("index", str(data), "--tfindex")
    assert made.returncode == 0, made.stderr
    assert len(list(data.glob("*.tfindex"))) == 3
    expected = len(tf_read(sorted(str(p) for p in data.glob("train-*-of-00003"))))
    for spec in (str(data), str(data / "train-*"), str(data / "train*")):
        info = _cli("info", spec, "--json")
        assert info.returncode == 0, info.stderr
        out = json.loads(info.stdout)
        assert out["records"] == expected == 15
        assert [f["path"].rsplit("/", 1)[1] for f in out["files"]] == [
            f"train-{s:05d}-of-00003" for s in range(3)
        ]
        assert out["warnings"] == []
        verify = _cli("verify", spec, "--json")
        assert verify.returncode == 0, verify.stdout
        assert json.loads(verify.stdout)["problems"] == []


def test_a_file_that_is_neither_record_nor_sidecar_is_named_once(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    _shards(data, n=2)
    (data / "NOTES").write_text("collected in 2024; see the wiki")
    (data / "checksums.sha256").write_text("abc  train-00000-of-00002\n")
    info = _cli("info", str(data))
    assert info.returncode == 0, info.stderr
    lines = [line for line in info.stderr.splitlines() if "NOTES" in line]
    assert len(lines) == 1, info.stderr
    assert "left out 1 file that is not TFRecord (NOTES)" in lines[0]
    assert "checksums" not in info.stderr


def test_a_sidecar_named_on_its_own_is_read_and_refused(tmp_path):
    """Naming the file itself is a request to read it: it is read, and refused as what
    it is, with exit 2 (never left out silently)."""
    side = tmp_path / "train-00000-of-00001.tfindex"
    side.write_text("0 25\n25 25\n50 25\n75 25\n")
    info = _cli("info", str(side))
    assert info.returncode == 2
    assert "not a TFRecord" in info.stderr


def test_a_link_loop_and_a_broken_link_are_called_so(tmp_path):
    loop = tmp_path / "loop.tfrecord"
    os.symlink(loop, loop)
    broken = tmp_path / "broken.tfrecord"
    os.symlink(tmp_path / "gone.tfrecord", broken)
    for link in (loop, broken):
        with pytest.raises(PathError, match="a link that leads nowhere"):
            expand([str(link)])
    with pytest.raises(PathError, match="no such file or folder"):
        expand([str(tmp_path / "missing.tfrecord")])


def test_natural_order_of_names_holding_long_or_odd_digit_runs():
    from tfr_viewer.core.io.paths import natural_key

    names = ["a10", "a2", "a" + "9" * 5000, "a\u0663", "a02", "b1"]
    ordered = sorted(names, key=natural_key)
    assert ordered[:3] == ["a2", "a02", "a10"] or ordered[:3] == ["a02", "a2", "a10"]
    assert ordered.index("a" + "9" * 5000) == 3 and ordered[-1] == "b1"
