"""A project's own messages read without their schema: fixed fields read as numbers
too, and pictures nested anywhere in them kept whole, judged and shown on all their
bytes (the oracles: the generated module's reading, and TensorFlow's decoder)."""

from __future__ import annotations

import io
import json

import numpy as np

from tests.program import program
from tests.protoc_modules import compile_proto
from tests.tf_oracle import tf, tf_write
from tfr_viewer import open as tfv_open

BED = """
syntax = "proto3";
package genomics;
message BedRecord {
  string reference_name = 1;
  int64 start = 2;
  int64 end = 3;
  double score = 5;
  float thick = 6;
}
"""

FRAME = """
syntax = "proto3";
package driving;
message CameraImage {
  int32 name = 1;
  bytes image = 2;
  double pose = 3;
}
message Frame {
  string context = 1;
  repeated CameraImage images = 2;
}
"""


def test_fixed_fields_read_as_the_numbers_the_schema_means(tmp_path):
    module = compile_proto(BED)
    record = module.BedRecord(reference_name="chr1", start=10, end=20, score=100.0, thick=2044.508)
    path = tf_write(tmp_path / "bed.tfrecord", [record.SerializeToString()])
    shown = json.loads(program("show", "--json", "0", str(path)).stdout)
    fields = {f["number"]: f for f in shown["fields"]}
    assert fields[5]["double"] == record.score == 100.0
    assert fields[5]["value"] == 4636737291354636288  # the integer reading stays
    assert np.float32(fields[6]["float"]) == np.float32(record.thick)
    assert "value" in fields[2] and "double" not in fields[2]  # a varint is no real
    text = program("show", "0", str(path)).stdout
    assert "5: 100.0 (fixed64 4636737291354636288)" in text
    assert "6: 2044.508 (fixed32" in text


def _noisy_jpeg(seed: int, width: int = 640, height: int = 480) -> bytes:
    from PIL import Image

    rng = np.random.default_rng(seed)
    pixels = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="JPEG", quality=95)
    return out.getvalue()


def test_large_nested_pictures_are_judged_and_shown_whole(tmp_path):
    module = compile_proto(FRAME)
    cameras = [_noisy_jpeg(seed, 600 + 20 * seed, 400) for seed in range(5)]
    assert min(len(c) for c in cameras) > 250_000
    frame = module.Frame(context="segment-1")
    for number, jpeg in enumerate(cameras):
        frame.images.add(name=number, image=jpeg, pose=1.5)
    path = tf_write(tmp_path / "frames.tfrecord", [frame.SerializeToString()])
    shapes = [tuple(tf().io.decode_jpeg(c).shape) for c in cameras]  # TensorFlow decodes each

    shown = json.loads(program("show", "--json", "0", str(path)).stdout)
    values = [
        inner["value"]
        for camera in shown["fields"]
        if "fields" in camera
        for inner in camera["fields"]
        if isinstance(inner.get("value"), dict)
    ]
    assert len(values) == 5
    for value, (height, width, _) in zip(values, shapes, strict=True):
        assert "image_error" not in value and "preview_only" not in value
        assert (value["image"]["width"], value["image"]["height"]) == (width, height)
    text = program("show", "0", str(path))
    assert "undecodable" not in text.stdout and text.returncode == 0

    record = tfv_open(str(path))[0]
    pictures = record.images()
    assert [p.data for p in pictures] == cameras
    assert [p.key for p in pictures] == ["#2.#2"] * 5
    assert record.image().size == (shapes[0][1], shapes[0][0])
