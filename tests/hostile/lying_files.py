"""Side files and datasets that lie, as the third campaign built them: model results with
numbers no float holds, TFDS descriptions that lead out of their folder or list two
million shards, label maps and schemas of nonsense, index lines of 5,000 digits, keys
that are not UTF-8, a key of two kinds, a box of 3.4e38, ArrayRecord in disguise and a
shard set of 10^8 files. Each is a file (or a name) the hostile run hands to every
command, as the dataset, the predictions, the label map, the schema or the index."""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

from tfr_viewer.core.io import write_records
from tfr_viewer.core.write import build_example

DATA = Path(__file__).resolve().parents[1] / "data"
TFDS = DATA / "tfds" / "shapes" / "1.0.0"
ARRAY_RECORD = DATA / "tfds_array_record" / "shapes" / "1.0.0"
HUGE = "1" + "0" * 400  # an integer no float holds
SIDES = ("xmin", "ymin", "xmax", "ymax")


def _jpeg() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (16, 12), "blue").save(buf, "JPEG")
    return buf.getvalue()


def _odapi(boxes: list[float], labels: list, name: bytes = b"shape_1_0000.jpg") -> bytes:
    return build_example(
        {
            "image/encoded": [_jpeg()],
            "image/filename": [name],
            "image/format": [b"jpeg"],
            "image/height": [12],
            "image/width": [16],
            "image/object/bbox/xmin": boxes,
            "image/object/bbox/ymin": boxes,
            "image/object/bbox/xmax": [-b for b in boxes],
            "image/object/bbox/ymax": [-b for b in boxes],
            "image/object/class/label": labels,
        },
        {f"image/object/bbox/{k}": "float" for k in SIDES},
    )


def _odd_keys() -> list[bytes]:
    """A key that is not UTF-8 in one record, and ``a`` as int64 and as float."""
    first = build_example({"a": [1], "kXX": [2]}).replace(b"\x0a\x03kXX", b"\x0a\x03k\xff\xc3")
    return [first, build_example({"a": [1.5]}, {"a": "float"}), build_example({"a": [2]})]


def _tfds(folder: Path) -> Path:
    """A TFDS folder whose description lies: shard lengths of "²", Arabic-Indic digits
    and 5,000 digits, two million test shards, feature keys that are absolute or hold
    ``..``, and a ``filepathTemplate`` that climbs out of the folder."""
    copy = folder / "lying_tfds" / "shapes" / "1.0.0"
    shutil.copytree(TFDS, copy)
    info = json.loads((copy / "dataset_info.json").read_text())
    info["splits"][0]["shardLengths"] = ["²", "\u0661\u0662", "9" * 5000]
    info["splits"][1]["shardLengths"] = ["1"] * 2_000_000
    info["splits"][1]["filepathTemplate"] = "../../../{DATASET}-{SPLIT}-{SHARD_INDEX}"
    (copy / "dataset_info.json").write_text(json.dumps(info))
    features = json.loads((copy / "features.json").read_text())
    top = features["featuresDict"]["features"]
    top["/etc/passwd"] = top["label"]
    top["../../../outside"] = top.pop("label")
    (copy / "features.json").write_text(json.dumps(features))
    (folder / "outside.labels.txt").write_text("secret\n")
    return copy


def lying_inputs(folder: Path) -> Iterator[tuple[str, str]]:
    """``(name, path)`` of each lying file."""
    results = folder / "results.json"
    results.write_text(
        "[{"
        f'"image_id": 1, "category_id": {HUGE}, "bbox": [1, 2, 3, 4], "score": 0.9'
        '}, {"image_id": "shape_1_0000.jpg", "category_id": NaN, "bbox": [Infinity, 0, -1, '
        f'{HUGE}], "score": NaN}}, {{"image_id": [], "category_id": "cat", "bbox": "x"}}]'
    )
    yield "model results with 1e400 as an integer, NaN and Infinity", str(results)
    labels = folder / "nonsense.pbtxt"
    labels.write_text(f'item {{ id: {HUGE} name: "$x^2$" }}\n' + "item { " * 3000)
    yield "a label map of nonsense, nested 3,000 deep", str(labels)
    schema = folder / "nonsense.schema.json"
    schema.write_text(json.dumps({"features": {"a": {"kind": "bogus", "count": [1e308] * 3}}}))
    yield "a schema of nonsense", str(schema)
    index = folder / "lying.tfindex"
    index.write_text("0 " + "9" * 5000 + "\n" + "\u0661 \u0662\n" + "²\n")
    yield "an index of 5,000-digit lines", str(index)
    odd = folder / "odd_keys.tfrecord"
    write_records(odd, _odd_keys())
    yield "a key that is not UTF-8 and a key of two kinds", str(odd)
    boxes = folder / "huge_box.tfrecord"
    write_records(boxes, [_odapi([3.4e38], [1]), _odapi([0.1, 0.2], [1])])
    yield "a box of 3.4e38 and lists of unequal length", str(boxes)
    predictions = folder / "lying_predictions.tfrecord"
    detections = [
        build_example(
            {
                "image/filename": [name],
                "image/detection/bbox/xmin": [float("nan")],
                "image/detection/bbox/ymin": [0.1],
                "image/detection/bbox/xmax": [float("inf")],
                "image/detection/bbox/ymax": [0.5],
                "image/detection/label": [b"cat"],
                "image/detection/score": [float("nan")],
            },
            {f"image/detection/{k}": "float" for k in ("score", *(f"bbox/{s}" for s in SIDES))},
        )
        for name in (b"shape_1_0000.jpg", b"shape_1_0001.jpg")
    ]
    write_records(predictions, detections)
    yield "predictions with a bytes label, NaN and Infinity", str(predictions)
    damaged = folder / "damaged_predictions.tfrecord"
    data = bytearray(predictions.read_bytes())
    data[-3] ^= 0x40  # the second record's payload is damaged
    damaged.write_bytes(bytes(data))
    yield "predictions with a damaged record", str(damaged)
    yield "a lying TFDS folder", str(_tfds(folder))
    disguised = folder / "disguised.tfrecord"
    shutil.copy(next(ARRAY_RECORD.glob("shapes-train.array_record-*")), disguised)
    yield "an ArrayRecord file named .tfrecord", str(disguised)
    yield "a shard set of 10^8 files", str(folder / "od.tfrecord@99999999")
