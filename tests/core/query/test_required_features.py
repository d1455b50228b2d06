"""A filter that reads a key no record has is refused (exit 2, with a suggestion), on
every path: export (also in parts), count, list and the Python API. A key that only the
last record holds, and the record's own columns, are filters like any other."""

from __future__ import annotations

import pytest

from tests.program import program
from tests.tf_oracle import tf, tf_write
from tfr_viewer.core.user_error import UserError


def _data(tmp_path):
    t = tf()
    payloads = []
    for i in range(300):
        feature = {"label": t.train.Feature(int64_list=t.train.Int64List(value=[i % 3]))}
        if i == 299:  # a key only the last record has
            feature["rare"] = t.train.Feature(int64_list=t.train.Int64List(value=[1]))
        payloads.append(t.train.Example(features=t.train.Features(feature=feature)))
    return tf_write(tmp_path / "data.tfrecord", [p.SerializeToString() for p in payloads])


@pytest.mark.parametrize(
    "argv",
    [
        ["export", "-o", "OUT"],
        ["export", "-o", "OUT", "--jobs", "2"],
        ["count"],
        ["list"],
    ],
)
def test_a_key_no_record_has_is_refused(tmp_path, argv):
    path = _data(tmp_path)
    out = tmp_path / "out.tfrecord"
    argv = [str(out) if a == "OUT" else a for a in argv]
    done = program(*argv, "--filter", "lable == 1", str(path))
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.strip().splitlines()
    assert "no record has a feature 'lable'" in line and "did you mean `label`?" in line
    assert not out.exists()


def test_keys_some_record_has_and_record_columns_are_filters(tmp_path):
    path = _data(tmp_path)
    rare = program("count", "--filter", "rare == 1", str(path))
    assert (rare.returncode, rare.stdout.strip()) == (0, "1")
    length = program("count", "--filter", "length > 0", str(path))
    assert (length.returncode, length.stdout.strip()) == (0, "300")
    out = tmp_path / "out.tfrecord"
    export = program("export", "-o", str(out), "--filter", "label == 1", str(path))
    assert export.returncode == 0 and out.exists()


def test_the_python_api_refuses_it_too(tmp_path):
    import tfr_viewer as tfv

    view = tfv.open(str(_data(tmp_path)))
    with pytest.raises(UserError, match="no record has a feature 'lable'"):
        view.filter("lable == 1")
    assert len(view.filter("rare == 1")) == 1
