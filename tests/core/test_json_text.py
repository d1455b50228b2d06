"""Every JSON the program writes is strict JSON: non-finite floats become the strings
"NaN", "Infinity" and "-Infinity" (protobuf's JSON mapping), so JSON.parse and jq read
them; the numbers themselves are what TensorFlow parses from the records."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from tests.tf_oracle import tf, tf_write
from tfr_viewer.core.json_text import NON_FINITE, dumps, loads
from tfr_viewer.core.write import build_example

SPECIAL = [math.nan, math.inf, -math.inf, 0.5, -0.0]


def _values(parsed: list) -> list[float]:
    return [NON_FINITE[v] if isinstance(v, str) else v for v in parsed]


def _same(ours: list[float], theirs: list[float]) -> bool:
    return all(
        (math.isnan(a) and math.isnan(b)) or a == b for a, b in zip(ours, theirs, strict=True)
    )


@pytest.fixture
def special(tmp_path):
    box = [0.1, math.nan]
    payloads = [
        build_example(
            {
                "score": SPECIAL,
                "image/encoded": [_jpeg()],
                "image/format": [b"jpeg"],
                "image/height": [8],
                "image/width": [8],
                "image/object/bbox/xmin": box,
                "image/object/bbox/ymin": box,
                "image/object/bbox/xmax": [0.5, math.inf],
                "image/object/bbox/ymax": [0.5, 0.9],
                "image/object/class/label": [1, 2],
                "image/object/class/text": [b"cat", b"dog"],
            }
        )
    ]
    return tf_write(tmp_path / "special.tfrecord", payloads)


def _jpeg() -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (8, 8), (1, 2, 3)).save(out, "JPEG")
    return out.getvalue()


def _cli(*argv):
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", *argv], capture_output=True, text=True
    )


def _tf_floats(path, key) -> list[float]:
    raw = next(iter(tf().data.TFRecordDataset(str(path)))).numpy()
    return list(tf().train.Example.FromString(raw).features.feature[key].float_list.value)


def test_show_json_is_strict_and_holds_what_tensorflow_parses(special):
    done = _cli("show", "0", str(special), "--json")
    assert done.returncode == 0, done.stderr
    record = loads(done.stdout)  # refuses bare NaN / Infinity
    ours = _values(record["features"]["score"]["values"])
    assert _same(ours, _tf_floats(special, "score"))
    assert record["features"]["score"]["values"][:3] == ["NaN", "Infinity", "-Infinity"]


def test_jsonl_csv_and_coco_exports_are_strict(special, tmp_path):
    jsonl = tmp_path / "rows.jsonl"
    assert _cli("export", str(special), "-o", str(jsonl), "--format", "jsonl").returncode == 0
    row = loads(jsonl.read_text().splitlines()[0])
    assert _same(_values(row["features"]["score"]["values"]), _tf_floats(special, "score"))
    csv_out = tmp_path / "rows.csv"
    assert _cli("export", str(special), "-o", str(csv_out), "--format", "csv").returncode == 0
    import csv

    cells = next(csv.DictReader(csv_out.open()))
    assert _same(_values(loads(cells["score"])), _tf_floats(special, "score"))
    images = tmp_path / "images"
    done = _cli("export", str(special), "-o", str(images), "--format", "images", "--boxes", "coco")
    assert done.returncode == 0, done.stderr
    annotations = list(images.rglob("*.json"))
    assert annotations
    for path in annotations:
        doc = loads(path.read_text())  # strict JSON, and a box with a NaN is left out
        assert "NaN" not in json.dumps(doc)
    assert "not a finite number" in done.stderr


def test_stats_and_check_json_are_strict(special):
    for command in ("stats", "check", "info", "verify", "schema"):
        done = _cli(command, str(special), "--json")
        assert done.returncode in (0, 1), (command, done.stderr)
        loads(done.stdout)


def test_numpy_and_python_values_are_written_alike():
    values = np.array(SPECIAL, dtype=np.float32)
    assert dumps(values) == dumps(values.tolist()) == '["NaN", "Infinity", "-Infinity", 0.5, -0.0]'
    assert dumps({"m": np.float64("nan"), "n": np.int64(3)}) == '{"m": "NaN", "n": 3}'
    assert json.loads(dumps({"a": [1.5, 2]}, indent=2)) == {"a": [1.5, 2]}
    with pytest.raises(ValueError, match="NaN is not JSON"):
        loads('{"x": NaN}')


def test_finite_plain_values_are_written_as_json_dumps_writes_them():
    """Everything but non-finite floats and numpy values is the text ``json.dumps``
    gives, indented or not, sorted or not, ASCII or not; a long text reaches the file in
    a few large pieces, not a write per value."""
    from tfr_viewer.core.json_text import PIECE, write_json

    findings = [
        {
            "kind": "duplicate_image",
            "record": n,
            "box": None,
            "flag": n % 2 == 0,
            "score": n / 7,
            "message": f"record {n} – “quoted” \\ \n",
            "nested": {"empty": [], "none": {}, "list": [True, False, None, -n, 1e300]},
        }
        for n in range(3000)
    ]
    doc = {"findings": findings, "counts": {"b": 2, "a": 1}, "ok": False}
    for indent in (None, 2):
        for sort_keys in (False, True):
            for ascii_only in (True, False):
                want = json.dumps(doc, indent=indent, sort_keys=sort_keys, ensure_ascii=ascii_only)
                assert dumps(doc, indent, sort_keys=sort_keys, ensure_ascii=ascii_only) == want
    pieces: list[str] = []
    write_json(doc, pieces.append, 2)
    assert "".join(pieces) == json.dumps(doc, indent=2)
    assert len(pieces) <= len("".join(pieces)) // PIECE + 1
