"""Folders of shards: TFRecord files are found by name or by content."""

from __future__ import annotations

from tests.tf_oracle import tf_write
from tfr_viewer.core.io.paths import expand


def test_folder_finds_record_files_by_content(tmp_path):
    tf_write(tmp_path / "a.record", [b"x"])
    tf_write(tmp_path / "train-00000-of-00002", [b"y"])
    tf_write(tmp_path / "plain_name", [b"z"], "gzip")
    tf_write(tmp_path / "zz_name", [b"z"], "zlib")
    (tmp_path / "README.txt").write_text("not a record at all, just words")
    (tmp_path / "labels.json").write_text('{"0": "cat"}')
    names = [p.rsplit("/", 1)[1] for p in expand([str(tmp_path)])]
    assert names == ["a.record", "plain_name", "train-00000-of-00002", "zz_name"]
