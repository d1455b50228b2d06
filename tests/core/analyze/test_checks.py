"""An Object Detection API dataset with one planted fault of each kind reports each
fault exactly at its record, and its clean twin reports nothing."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import numpy as np
import pytest

from tests.tf_oracle import tf, tf_write
from tfr_viewer.core.analyze.checks import check_dataset
from tfr_viewer.core.analyze.findings import KINDS
from tfr_viewer.core.analyze.label_map import LabelMapError, parse_label_map
from tfr_viewer.core.io.dataset import Dataset

RECORDS = 40
NAMES = {1: "circle", 2: "square", 3: "triangle"}


def _size(i: int) -> tuple[int, int]:
    return 56 + i % 9 * 2, 44 + i % 5 * 2


def _pixels(i: int, size: tuple[int, int] | None = None, grey: bool = False) -> np.ndarray:
    """Random 8×8 blocks of colour: sharp, varied, different in every record."""
    w, h = size or _size(i)
    rng = np.random.default_rng(i)
    small = rng.integers(0, 256, (h // 8 + 1, w // 8 + 1, 1 if grey else 3))
    big = np.repeat(np.repeat(small, 8, 0), 8, 1)[:h, :w].astype(np.uint8)
    return big[..., 0] if grey else big


def _jpeg(pixels, quality: int = 90, **options) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "JPEG", quality=quality, **options)
    return out.getvalue()


def _record(i: int) -> dict:
    label = 1 + i % 3
    w, h = _size(i)
    return {
        "image/encoded": [_jpeg(_pixels(i))],
        "image/format": [b"jpeg"],
        "image/filename": [f"img{i}.jpg".encode()],
        "image/height": [h],
        "image/width": [w],
        "image/object/bbox/xmin": [0.1],
        "image/object/bbox/ymin": [0.2],
        "image/object/bbox/xmax": [0.6],
        "image/object/bbox/ymax": [0.7],
        "image/object/class/label": [label],
        "image/object/class/text": [NAMES[label].encode()],
    }


def _plant(records: list[dict]) -> dict[tuple[str, int], str | None]:
    """Plant one fault per record; returns ``{(kind, record): feature}``."""
    from PIL import Image, ImageFilter

    r = records
    r[1]["image/encoded"] = [b"\xff\xd8\xff\xe0" + bytes(range(60))]
    r[2]["image/height"] = [100]
    r[3]["image/format"] = [b"png"]
    r[4]["image/encoded"] = list(r[0]["image/encoded"])
    r[5]["image/object/bbox/xmin"] = [0.1, 0.3]
    r[6]["image/object/bbox/xmin"], r[6]["image/object/bbox/xmax"] = [0.8], [0.2]
    r[7]["image/object/bbox/xmax"] = [1.2]
    for side, v in (("xmin", 10.0), ("ymin", 5.0), ("xmax", 50.0), ("ymax", 40.0)):
        r[8][f"image/object/bbox/{side}"] = [v]
    r[9]["image/object/bbox/xmax"] = [0.1]
    r[10]["image/object/class/label"], r[10]["image/object/class/text"] = [], []
    r[11]["image/object/class/label"] = [0]
    r[11]["image/object/class/text"] = [b"background"]
    r[12]["image/object/class/label"], r[12]["image/object/class/text"] = [7], [b"circle"]
    for side in ("xmin", "ymin", "xmax", "ymax"):
        r[13][f"image/object/bbox/{side}"] = []
    r[13]["image/object/class/label"], r[13]["image/object/class/text"] = [], []
    r[14].clear()
    r[15]["image/height"] = [float(r[15]["image/height"][0])]
    del r[16]["image/filename"]
    r[17]["image/width"] = r[17]["image/width"] * 2
    r[4]["image/width"], r[4]["image/height"] = r[0]["image/width"], r[0]["image/height"]
    # dark and light, but sharp and varied (dim images are blurry by cleanvision's measure)
    r[19]["image/encoded"] = [_jpeg(((_pixels(19) > 127) * 78).astype(np.uint8))]
    r[20]["image/encoded"] = [_jpeg(_pixels(0), quality=70)]  # record 0, re-encoded
    r[20]["image/width"], r[20]["image/height"] = r[0]["image/width"], r[0]["image/height"]
    exif = Image.Exif()
    exif[0x0112] = 6  # turned 90 degrees clockwise
    r[21]["image/encoded"] = [_jpeg(_pixels(21), exif=exif)]
    r[22]["image/encoded"] = [_jpeg(_pixels(22, grey=True))]
    r[23]["image/encoded"] = [_jpeg(_pixels(23, (400, 300)))]
    r[23]["image/width"], r[23]["image/height"] = [400], [300]
    r[24]["image/encoded"] = [_jpeg((243 + _pixels(24) // 64 * 4).astype(np.uint8))]
    r[25]["image/encoded"] = [_jpeg(_pixels(25, (200, 20)))]
    r[25]["image/width"], r[25]["image/height"] = [200], [20]
    r[26]["image/encoded"] = [_jpeg(np.full(_size(26)[::-1] + (3,), (200, 120, 60), np.uint8))]
    blurred = Image.fromarray(_pixels(27)).filter(ImageFilter.GaussianBlur(3))
    r[27]["image/encoded"] = [_jpeg(np.asarray(blurred))]
    return {
        ("image_undecodable", 1): "image/encoded",
        ("image_size_mismatch", 2): "image/height",
        ("image_format_mismatch", 3): "image/format",
        ("duplicate_image", 4): "image/encoded",
        ("bbox_length_mismatch", 5): "image/object/bbox/xmin",
        ("box_inverted", 6): "image/object/bbox/xmin",
        ("box_out_of_range", 7): "image/object/bbox/xmin",
        ("box_pixel_coordinates", 8): "image/object/bbox/xmin",
        ("box_zero_area", 9): "image/object/bbox/xmin",
        ("box_without_class", 10): "image/object/class/label",
        ("class_id_zero", 11): "image/object/class/label",
        ("class_text_ids", 12): None,
        ("image_without_boxes", 13): None,
        ("empty_record", 14): None,
        ("kind_conflict", 15): "image/height",
        ("feature_missing", 16): "image/filename",
        ("value_count_differs", 17): "image/width",
        ("damaged_record", 18): None,
        ("image_dark", 19): "image/encoded",
        ("near_duplicate_image", 20): "image/encoded",
        ("exif_rotation", 21): "image/encoded",
        ("image_grayscale", 22): "image/encoded",
        ("image_odd_size", 23): "image/encoded",
        # all of a light image lies in the top 5% of brightness: too little contrast for
        # edges, so it is blurry by cleanvision's measure too
        ("image_light", 24): "image/encoded",
        ("image_blurry", 24): "image/encoded",
        ("image_odd_aspect_ratio", 25): "image/encoded",
        # a uniform image has no edges either: cleanvision's blur score flags it too
        ("image_low_information", 26): "image/encoded",
        ("image_blurry", 26): "image/encoded",
        ("image_blurry", 27): "image/encoded",
    }


def _example(features: dict) -> bytes:
    t = tf().train
    out = {}
    for key, values in features.items():
        if (
            values
            and isinstance(values[0], bytes)
            or key.endswith(("format", "text", "encoded", "filename"))
        ):
            out[key] = t.Feature(bytes_list=t.BytesList(value=values))
        elif values and isinstance(values[0], float) or "bbox" in key:
            out[key] = t.Feature(float_list=t.FloatList(value=values))
        else:
            out[key] = t.Feature(int64_list=t.Int64List(value=values))
    return t.Example(features=t.Features(feature=out)).SerializeToString()


def _damage(path, record: int) -> None:
    with Dataset([str(path)]) as ds:
        ds.index()
        offset = ds.ref(record).offset
    data = bytearray(path.read_bytes())
    data[offset + 12 + 5] ^= 0xFF  # a payload byte: the data CRC no longer matches
    path.write_bytes(bytes(data))


@pytest.fixture(scope="module")
def datasets(tmp_path_factory):
    folder = tmp_path_factory.mktemp("checks")
    clean = folder / "clean.tfrecord"
    tf_write(clean, [_example(_record(i)) for i in range(RECORDS)])
    records = [_record(i) for i in range(RECORDS)]
    planted = _plant(records)
    faulty = folder / "faulty-00000-of-00002"
    tf_write(faulty, [_example(r) for r in records])
    _damage(faulty, 18)
    empty = folder / "faulty-00001-of-00002"
    empty.write_bytes(b"")
    return clean, faulty, empty, planted


def _check(paths, **kw):
    with Dataset([str(p) for p in paths]) as ds:
        ds.index()
        return check_dataset(ds, **kw)


def test_the_clean_twin_reports_nothing(datasets):
    clean, *_ = datasets
    assert _check([clean]) == []


def test_every_planted_fault_is_reported_at_its_record(datasets):
    _, faulty, empty, planted = datasets
    findings = _check([faulty, empty])
    got = {(f.kind, f.record): f.feature for f in findings if f.record is not None}
    assert got == planted
    shards = [f for f in findings if f.record is None]
    assert [(f.kind, f.file) for f in shards] == [("empty_shard", str(empty))]
    # every kind but those that need a label map or a schema (tested on their own)
    elsewhere = {"label_not_in_map"} | {k for k in KINDS if k.startswith("schema_")}
    assert {kind for kind, _ in planted} | {"empty_shard"} == set(KINDS) - elsewhere
    with Dataset([str(faulty)]) as ds:
        ds.index()
        for f in findings:
            if f.record is not None:
                assert f.file == str(faulty) and f.offset == ds.ref(f.record).offset
                assert f.message and f.hint
    by_kind = {f.kind: f for f in findings}
    assert by_kind["box_out_of_range"].box == 0
    assert "100" in by_kind["image_size_mismatch"].message
    assert "record 0" in by_kind["duplicate_image"].message


def test_labels_outside_a_label_map(datasets):
    clean, *_ = datasets
    label_map = parse_label_map(
        "item { id: 1 name: 'circle' }\nitem {\n id: 2\n name: \"square\"\n}"
    )
    found = _check([clean], label_map=label_map)
    assert {f.record for f in found} == {i for i in range(RECORDS) if i % 3 == 2}
    assert all(f.kind == "label_not_in_map" and "3 ('triangle')" in f.message for f in found)
    renamed = parse_label_map(
        "item { id: 1 name: 'disc' } item { id: 2 name: 'square' } item { id: 3 name: 'triangle' }"
    )
    found = _check([clean], label_map=renamed)
    assert {f.record for f in found} == {i for i in range(RECORDS) if i % 3 == 0}


def test_a_label_map_without_items_is_refused():
    with pytest.raises(LabelMapError, match="no `item"):
        parse_label_map("# nothing here")


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "check", *map(str, args)],
        capture_output=True,
        text=True,
    )


def test_check_guards_a_pipeline_by_its_exit_code(datasets, tmp_path):
    clean, faulty, _, planted = datasets
    out = _cli(clean)
    assert out.returncode == 0, out.stderr
    assert "no findings; passed" in out.stdout
    out = _cli("--json", faulty)
    assert out.returncode == 1, out.stderr
    doc = json.loads(out.stdout)
    assert len(doc["findings"]) == len(planted) and doc["failed"]
    first = doc["findings"][0]
    assert set(first) >= {
        "severity",
        "kind",
        "record",
        "file",
        "offset",
        "feature",
        "message",
        "hint",
    }
    # only an info finding: fails at --fail-on info, passes at the default
    only_info = _record(0)
    for side in ("xmin", "ymin", "xmax", "ymax"):
        only_info[f"image/object/bbox/{side}"] = []
    only_info["image/object/class/label"] = only_info["image/object/class/text"] = []
    path = tf_write(tmp_path / "negatives.tfrecord", [_example(_record(1)), _example(only_info)])
    assert _cli(path).returncode == 0
    assert _cli("--fail-on", "info", path).returncode == 1
    bad_map = tmp_path / "map.pbtxt"
    bad_map.write_text("nothing")
    out = _cli("--label-map", bad_map, clean)
    assert out.returncode == 2 and "no `item" in out.stderr
