"""``show`` of a file whose index is cached reads the record straight from the cache
entry, without numpy, and prints exactly what the indexed dataset gives."""

from __future__ import annotations

import io
import math
import subprocess
import sys

import pytest
from PIL import Image

from tfr_viewer.cli import main
from tfr_viewer.core.io.framing import encode_frame
from tfr_viewer.core.write.build import build_example, build_sequence_example


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (7, 5), (200, 10, 10)).save(out, "PNG")
    return out.getvalue()


def _tensor() -> bytes:
    from tfr_viewer.core.decode import proto

    msg = proto.TensorProto(dtype=1, float_val=[0.1, 2.5, -3.0])
    msg.tensor_shape.dim.add(size=3)
    return msg.SerializeToString()


FLOATS = [0.1, 1e-5, 123456789.0, -0.0, math.inf, -math.inf, math.nan, 3.4028235e38, 1.4e-45]


def _payloads() -> list[bytes]:
    return [
        build_example({"label": [3, -(2**63), 2**63 - 1], "score": FLOATS, "name": b"cat"}),
        build_example(
            {"image/encoded": _png(), "bbox": [0.25, 0.5], "empty": []}, {"empty": "float"}
        ),
        build_example({"many": [i / 7 for i in range(3000)], "ids": list(range(5000))}),
        build_sequence_example({"id": 7}, {"frames": [[0.5, 1.5], [2.5]]}),
        _tensor(),
        b"plain text, not a protobuf",
        bytes(range(256)),
    ]


@pytest.fixture
def dataset(tmp_path, monkeypatch):
    monkeypatch.setenv("TFR_VIEWER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TFR_VIEWER_CACHE_MIN_BYTES", "0")
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "0")  # restored after --no-cache sets it
    frames = [encode_frame(p) for p in _payloads()]
    bad = bytearray(frames[1])
    bad[-6] ^= 0xFF  # a payload byte: the data CRC fails
    first = tmp_path / "a.tfrecord"
    first.write_bytes(b"".join(frames[:3]) + b"JUNK" + bytes(bad) + b"".join(frames[3:]))
    second = tmp_path / "b.tfrecord"
    second.write_bytes(frames[0] + frames[6])
    return [str(first), str(second)]


def _show(capsys, index: int, paths: list[str], *options: str) -> str:
    assert main(["show", str(index), *paths, *options]) == 0
    return capsys.readouterr().out


def test_cached_show_prints_what_the_dataset_gives(capsys, dataset):
    assert main(["info", *dataset]) == 0  # a header pass fills the cache
    capsys.readouterr()
    for index in range(len(_payloads()) + 3):
        for as_json in (["--json"], []):
            cached = _show(capsys, index, dataset, *as_json)
            scanned = _show(capsys, index, dataset, "--no-cache", *as_json)
            assert cached == scanned, (index, as_json)
    assert '"status": "bad_data_crc"' in _show(capsys, 3, dataset, "--json")
    scores = '"score": {\n      "kind": "float",\n      "values": [\n        0.1,\n        1e-05,\n'
    assert scores in _show(capsys, 0, dataset, "--json")


def test_cached_show_runs_without_numpy(dataset):
    assert main(["info", *dataset]) == 0
    code = (
        "import sys\n"
        "from tfr_viewer.cli import main\n"
        f"assert main(['show', '0', *{dataset!r}, '--json']) == 0\n"
        "assert main(['show', '4', *" + repr(dataset) + "]) == 0\n"
        "print('numpy' in sys.modules, file=sys.stderr)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stderr.strip() == "False"
    assert '"index": 0' in run.stdout and "123456790.0" in run.stdout
