"""Examples TensorFlow's parser reads otherwise than protobuf, through the command
line on both paths: a key that is not UTF-8 is read (and named with ``\\x`` escapes) by
``check``, ``stats`` and ``to_pandas`` as ``tf.io.parse_single_example`` reads it, and
told once as ``key_not_utf8``; a key held as two kinds is told by ``stats`` and refused
by ``to_pandas`` with a line, as TensorFlow's parse of the other kind fails."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.tf_oracle import tf, tf_write
from tfr_viewer.core.fast import ENV

BAD = b"k\xff\xc3"
NAME = "k\\xff\\xc3"  # its name: the text, with \x escapes for the bytes that are not UTF-8


def _payloads() -> list[bytes]:
    """Three Examples as protobuf writes them; the second one's key is then given bytes
    that are not UTF-8 (no writer of Examples allows it; TensorFlow's parser reads it)."""
    t = tf()

    def example(**features: list[int]) -> bytes:
        ex = t.train.Example()
        for key, values in features.items():
            ex.features.feature[key].int64_list.value.extend(values)
        return ex.SerializeToString()

    odd = example(kXX=[7, 8], a=[2])
    return [example(a=[1]), odd.replace(b"\x0a\x03kXX", b"\x0a\x03" + BAD), example(a=[3])]


def _tf_column(path: str, key: bytes) -> list[list[int] | None]:
    """Per record, the values TensorFlow's parser reads under ``key`` (None: absent)."""
    t = tf()
    out = []
    for record in t.data.TFRecordDataset(path):
        parsed = t.io.parse_single_example(record, {key: t.io.VarLenFeature(t.int64)})
        values = parsed[key].values.numpy().tolist()
        out.append(values or None)
    return out


def _run(pure: bool, *argv: str) -> subprocess.CompletedProcess:
    """Python with ``argv`` on the compiled or the pure path."""
    env = dict(os.environ, **{ENV: "1" if pure else "0"})
    return subprocess.run(
        [sys.executable, *argv], capture_output=True, text=True, timeout=120, env=env
    )


def _cli(pure: bool, *argv: str) -> subprocess.CompletedProcess:
    return _run(pure, "-m", "tfr_viewer", *argv)


@pytest.fixture(scope="module")
def odd_key(tmp_path_factory) -> str:
    path = str(tmp_path_factory.mktemp("keys") / "odd_key.tfrecord")
    tf_write(path, _payloads())
    return path


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_a_key_that_is_not_utf8_is_one_finding_at_its_record(odd_key, pure) -> None:
    done = _cli(pure, "check", odd_key, "--json")
    assert done.returncode == 1, done.stderr  # a warning fails at --fail-on warning
    findings = json.loads(done.stdout)["findings"]
    told = [f for f in findings if f["kind"] == "key_not_utf8"]
    present = [r for r, v in enumerate(_tf_column(odd_key, BAD)) if v is not None]
    assert [(f["record"], f["feature"]) for f in told] == [(r, NAME) for r in present]
    assert not [f for f in findings if f["kind"] in ("example_unparseable", "empty_record")]


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_statistics_count_the_record_and_its_key_as_tensorflow_reads_them(odd_key, pure):
    done = _cli(pure, "stats", odd_key, "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert (out["examples"], out["other_payloads"]) == (3, 0)
    theirs = _tf_column(odd_key, BAD)
    assert out["features"][NAME]["present"] == sum(v is not None for v in theirs)
    assert out["features"]["a"]["present"] == sum(v is not None for v in _tf_column(odd_key, b"a"))
    text = _cli(pure, "stats", odd_key)
    assert "no Example features" not in text.stdout and NAME in text.stdout


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_to_pandas_keeps_the_record_with_tensorflows_values(odd_key, pure) -> None:
    script = (
        "import json, sys, tfr_viewer as t\n"
        "frame = t.open(sys.argv[1]).to_pandas()\n"
        "def listed(v):\n"
        "    if hasattr(v, '__len__'):\n"
        "        return [int(x) for x in v]\n"
        "    return None if v is None or v != v else [int(v)]\n"
        "rows = [{k: listed(v) for k, v in r.items()} for r in frame.to_dict('records')]\n"
        "print(json.dumps(rows))\n"
    )
    done = _run(pure, "-c", script, odd_key)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert [r[NAME] for r in rows] == _tf_column(odd_key, BAD)
    assert [r["a"] for r in rows] == _tf_column(odd_key, b"a")


@pytest.fixture(scope="module")
def two_kinds(tmp_path_factory) -> str:
    """A key written as int64 in two records and as float in one, by TensorFlow, and a
    key ``b`` of one kind."""
    t = tf()
    payloads = []
    for kind, value in (("int64_list", 1), ("float_list", 1.5), ("int64_list", 2)):
        ex = t.train.Example()
        getattr(ex.features.feature["a"], kind).value.append(value)
        ex.features.feature["b"].int64_list.value.append(7 * len(payloads))
        payloads.append(ex.SerializeToString())
    path = str(tmp_path_factory.mktemp("kinds") / "two_kinds.tfrecord")
    tf_write(path, payloads)
    return path


def _tf_fails_on(path: str, dtype: str) -> list[int]:
    t = tf()
    failed = []
    for n, record in enumerate(t.data.TFRecordDataset(path)):
        try:
            t.io.parse_single_example(record, {"a": t.io.VarLenFeature(getattr(t, dtype))})
        except t.errors.InvalidArgumentError:
            failed.append(n)
    return failed


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_a_key_of_two_kinds_is_told_where_tensorflow_fails(two_kinds, pure) -> None:
    assert _tf_fails_on(two_kinds, "int64") == [1]  # the spec of most records
    check = _cli(pure, "check", two_kinds, "--json")
    assert check.returncode == 1
    conflicts = [f["record"] for f in json.loads(check.stdout)["findings"]]
    assert conflicts == _tf_fails_on(two_kinds, "int64")
    stats = _cli(pure, "stats", two_kinds)
    assert stats.returncode == 0
    assert "'a' has several kinds (float in 1, int64 in 2)" in stats.stdout
    script = (
        "import sys, tfr_viewer as t\n"
        "try:\n"
        "    t.open(sys.argv[1]).to_pandas()\n"
        "except t.UserError as exc:\n"
        "    sys.exit(f'refused: {exc}')\n"
    )
    done = _run(pure, "-c", script, two_kinds)
    assert done.returncode == 1 and done.stderr.startswith("refused: ")
    assert "'a' has several kinds (float in 1, int64 in 2)" in done.stderr
    script = (
        "import sys, tfr_viewer as t\nprint(t.open(sys.argv[1]).to_pandas(['b'])['b'].tolist())"
    )
    done = _run(pure, "-c", script, two_kinds)
    assert done.returncode == 0, done.stderr  # the other keys are there to take
    t = tf()
    theirs = [
        int(t.io.parse_single_example(r, {"b": t.io.FixedLenFeature([], t.int64)})["b"])
        for r in t.data.TFRecordDataset(two_kinds)
    ]
    assert json.loads(done.stdout) == theirs
