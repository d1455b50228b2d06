"""Object-detection sources to TFRecords: boxes from a CSV, Pascal VOC XML or COCO JSON
round-trip through TensorFlow's parser as fractions of the image, within float32."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.core.write.test_convert import _parsed
from tfr_viewer.core.write import ExportOptions
from tfr_viewer.core.write.convert import ConvertOptions, convert
from tfr_viewer.core.write.convert_detection import box_csv, coco_json, voc_folder

W, H = 80, 60
# image name -> [(xmin, ymin, xmax, ymax, class)] in pixels
BOXES = {
    "a.jpg": [(8, 6, 40, 30, "cat"), (50, 10, 79, 59, "dog")],
    "b.jpg": [(0, 0, 80, 60, "dog")],
    "c.jpg": [(10, 10, 90, 20, "cat")],  # past the right edge: skipped
}


def _jpeg(seed: int) -> bytes:
    from PIL import Image

    rng = np.random.default_rng(seed)
    out = io.BytesIO()
    Image.fromarray(rng.integers(0, 255, (H, W, 3), dtype=np.uint8)).save(out, "JPEG")
    return out.getvalue()


@pytest.fixture
def images(tmp_path) -> Path:
    folder = tmp_path / "images"
    folder.mkdir()
    for i, name in enumerate(BOXES):
        (folder / name).write_bytes(_jpeg(i))
    return folder


def _check_rows(paths) -> None:
    rows = {r["image/filename"].decode().rsplit("/", 1)[-1]: r for r in _parsed(list(paths))}
    assert set(rows) == {"a.jpg", "b.jpg"}
    ids = {"cat": 1, "dog": 2}
    for name, row in rows.items():
        want = BOXES[name]
        for side, i, size in (("xmin", 0, W), ("ymin", 1, H), ("xmax", 2, W), ("ymax", 3, H)):
            got = row[f"image/object/bbox/{side}"].values.numpy()
            assert np.allclose(got, [b[i] / size for b in want], atol=1e-7), side
        assert row["image/object/class/label"].values.numpy().tolist() == [ids[b[4]] for b in want]


def test_a_csv_of_boxes(images, tmp_path):
    lines = ["filename,width,height,class,xmin,ymin,xmax,ymax"]
    for name, boxes in BOXES.items():
        lines += [f"images/{name},{W},{H},{c},{x0},{y0},{x1},{y1}" for x0, y0, x1, y1, c in boxes]
    (tmp_path / "boxes.csv").write_text("\n".join(lines) + "\n")
    listing = box_csv(str(tmp_path / "boxes.csv"))
    assert listing.classes == {1: "cat", 2: "dog"}
    out = tmp_path / "out" / "det.tfrecord"
    summary = convert(listing, ConvertOptions(ExportOptions(str(out)), "odapi"))
    assert [Path(s.path).name for s in summary.skipped] == ["c.jpg"]
    assert "outside the 80×60 image" in summary.skipped[0].reason
    _check_rows(summary.files)
    with pytest.raises(ValueError, match="tutorial layout has no boxes"):
        convert(listing, ConvertOptions(ExportOptions(str(tmp_path / "t.tfrecord")), "tutorial"))


def test_pascal_voc_folders(images, tmp_path):
    annotations = tmp_path / "Annotations"
    annotations.mkdir()
    for name, boxes in BOXES.items():
        objects = "".join(
            f"<object><name>{c}</name><bndbox><xmin>{x0}</xmin><ymin>{y0}</ymin>"
            f"<xmax>{x1}</xmax><ymax>{y1}</ymax></bndbox></object>"
            for x0, y0, x1, y1, c in boxes
        )
        xml = (
            f"<annotation><filename>{name}</filename><size><width>{W}</width>"
            f"<height>{H}</height><depth>3</depth></size>{objects}</annotation>"
        )
        (annotations / f"{Path(name).stem}.xml").write_text(xml)
    (annotations / "broken.xml").write_text("<annotation><filename>")
    listing = voc_folder(str(annotations), images=str(images))
    summary = convert(
        listing, ConvertOptions(ExportOptions(str(tmp_path / "voc.tfrecord")), "odapi")
    )
    reasons = sorted(Path(s.path).name for s in summary.skipped)
    assert reasons == ["broken.xml", "c.jpg"]
    _check_rows(summary.files)


def test_coco_json(images, tmp_path):
    doc = {
        "images": [{"id": i, "file_name": n, "width": W, "height": H} for i, n in enumerate(BOXES)],
        "categories": [{"id": 1, "name": "cat"}, {"id": 2, "name": "dog"}],
        "annotations": [
            {
                "id": k,
                "image_id": i,
                "category_id": 1 if c == "cat" else 2,
                "bbox": [x0, y0, x1 - x0, y1 - y0],
            }
            for k, (i, (x0, y0, x1, y1, c)) in enumerate(
                (i, b) for i, boxes in enumerate(BOXES.values()) for b in boxes
            )
        ],
    }
    (images / "coco.json").write_text(json.dumps(doc))
    listing = coco_json(str(images / "coco.json"))
    summary = convert(
        listing, ConvertOptions(ExportOptions(str(tmp_path / "coco.tfrecord")), "odapi")
    )
    _check_rows(summary.files)
    tfds = convert(
        listing, ConvertOptions(ExportOptions(str(tmp_path / "tfds" / "tfds.tfrecord")), "tfds")
    )
    rows = _parsed(list(tfds.files))
    first = rows[0]["objects/bbox"].values.numpy().reshape(-1, 4)
    assert np.allclose(
        first[0], [6 / H, 8 / W, 30 / H, 40 / W], atol=1e-7
    )  # ymin, xmin, ymax, xmax


def test_detection_from_the_command_line(images, tmp_path):
    lines = ["filename,class,xmin,ymin,xmax,ymax", "images/a.jpg,cat,8,6,40,30"]
    (tmp_path / "boxes.csv").write_text("\n".join(lines) + "\n")
    out = tmp_path / "cli" / "boxes.tfrecord"
    run = [
        sys.executable,
        "-m",
        "tfr_viewer",
        "convert",
        str(tmp_path / "boxes.csv"),
        "-o",
        str(out),
    ]
    done = subprocess.run([*run, "--layout", "odapi", "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["records"] == 1
    refused = subprocess.run([*run, "--overwrite"], capture_output=True, text=True)
    assert refused.returncode == 2 and "tutorial layout has no boxes" in refused.stderr


def _coco_doc() -> dict:
    return {
        "images": [{"id": i, "file_name": n, "width": W, "height": H} for i, n in enumerate(BOXES)],
        "categories": [{"id": 1, "name": "cat"}, {"id": 2, "name": "dog"}],
        "annotations": [
            {"id": 1, "image_id": 0, "category_id": 1, "bbox": [8, 6, 32, 24]},
            {"id": 2, "image_id": 1, "category_id": 2, "bbox": [0, 0, 80, 60]},
        ],
    }


def _convert(source: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "convert", str(source), "-o", str(out)]
        + ["--layout", "odapi", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )


NOT_COCO = {
    "annotations an object": lambda d: d.update(annotations={"1": {"image_id": 0}}),
    "images an object": lambda d: d.update(images={"id": 0}),
    "a null category": lambda d: d["categories"].append(None),
    "an infinite image id": lambda d: d["images"].append({"id": float("inf"), "file_name": "x"}),
    "a list": lambda d: d.clear(),
}


@pytest.mark.parametrize("name", sorted(NOT_COCO))
def test_a_file_that_is_not_coco_is_one_line(images, tmp_path, name):
    doc = _coco_doc()
    NOT_COCO[name](doc)
    source = images / "coco.json"
    source.write_text(json.dumps([] if not doc else doc))  # Infinity is written as JSON allows
    run = _convert(source, tmp_path / "out.tfrecord")
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert "is not a COCO JSON file" in run.stderr and len(run.stderr.splitlines()) == 1


def test_a_coco_file_nested_100000_deep_is_one_line(images, tmp_path):
    source = images / "coco.json"
    source.write_text('{"images": ' + "[" * 100_000 + "]" * 100_000 + "}")
    run = _convert(source, tmp_path / "out.tfrecord")
    assert run.returncode == 2 and "nests too deeply" in run.stderr, run.stderr


BAD_ANNOTATIONS = {
    "null": None,
    "bbox a text": {"id": 9, "image_id": 1, "category_id": 2, "bbox": "1234"},
    "bbox NaN": {"id": 9, "image_id": 1, "category_id": 2, "bbox": [float("nan"), 0, 1, 1]},
    "bbox Infinity": {"id": 9, "image_id": 1, "category_id": 2, "bbox": [0, 0, float("inf"), 1]},
    "category Infinity": {
        "id": 9,
        "image_id": 1,
        "category_id": float("inf"),
        "bbox": [0, 0, 1, 1],
    },
    "image id Infinity": {
        "id": 9,
        "image_id": float("inf"),
        "category_id": 2,
        "bbox": [0, 0, 1, 1],
    },
    "three numbers": {"id": 9, "image_id": 1, "category_id": 2, "bbox": [0, 0, 1]},
    "unknown category": {"id": 9, "image_id": 1, "category_id": 7, "bbox": [0, 0, 1, 1]},
}


@pytest.mark.parametrize("name", sorted(BAD_ANNOTATIONS))
def test_a_bad_coco_annotation_skips_its_image_and_says_why(images, tmp_path, name):
    """No NaN, text or made-up box is ever written: the image the bad annotation belongs
    to (b.jpg, where it can be told) is skipped, the others are written as they are."""
    doc = _coco_doc()
    doc["annotations"].append(BAD_ANNOTATIONS[name])
    source = images / "coco.json"
    source.write_text(json.dumps(doc))
    out = tmp_path / "out.tfrecord"
    run = _convert(source, out)
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["skipped"], summary
    rows = {r["image/filename"].decode().rsplit("/", 1)[-1]: r for r in _parsed([str(out)])}
    assert "a.jpg" in rows
    for row in rows.values():
        for side in ("xmin", "ymin", "xmax", "ymax"):
            assert np.isfinite(row[f"image/object/bbox/{side}"].values.numpy()).all()
    attributable = name not in ("null", "image id Infinity")
    assert ("b.jpg" in rows) != attributable


@pytest.mark.parametrize(
    ("corners", "why"),
    [
        ({"ymin": 1, "xmax": 5, "ymax": 5}, "has no xmin"),
        ({"xmin": "nan", "ymin": 1, "xmax": 5, "ymax": 5}, "not a finite number"),
        ({"xmin": 1, "ymin": "inf", "xmax": 5, "ymax": 5}, "not a finite number"),
        ({"xmin": "one", "ymin": 1, "xmax": 5, "ymax": 5}, "not a number"),
        ({"xmin": 9, "ymin": 1, "xmax": 5, "ymax": 5}, "min passes its max"),
    ],
)
def test_a_bad_voc_or_csv_box_is_never_written(images, tmp_path, corners, why):
    box = "".join(f"<{k}>{v}</{k}>" for k, v in corners.items())
    annotations = tmp_path / "Annotations"
    annotations.mkdir()
    (annotations / "a.xml").write_text(
        f"<annotation><filename>a.jpg</filename><object><name>cat</name><bndbox>{box}"
        "</bndbox></object></annotation>"
    )
    listing = voc_folder(str(annotations), images=str(images))
    assert not listing.items and why in listing.skipped[0].reason
    row = ",".join(str(corners.get(c, "")) for c in ("xmin", "ymin", "xmax", "ymax"))
    (tmp_path / "boxes.csv").write_text(
        f"filename,class,xmin,ymin,xmax,ymax\nimages/a.jpg,cat,{row}\n"
    )
    listing = box_csv(str(tmp_path / "boxes.csv"))
    assert not listing.items and why in listing.skipped[0].reason


def test_class_names_with_quotes_braces_and_newlines_survive_the_label_map(images, tmp_path):
    """COCO class names ``it's``, ``a}b`` and one with a newline: convert's own
    label_map.pbtxt reads back as the names, check --label-map finds nothing wrong with
    the records it wrote, and labels.txt holds one class a line."""
    from tfr_viewer.core.analyze.label_map import parse_label_map

    names = ["it's", "a}b", 'two\nlines "quoted"']
    doc = {
        "images": [{"id": i, "file_name": n, "width": W, "height": H} for i, n in enumerate(BOXES)],
        "categories": [{"id": k + 1, "name": name} for k, name in enumerate(names)],
        "annotations": [
            {"id": i, "image_id": i, "category_id": i % 3 + 1, "bbox": [8, 6, 20, 10]}
            for i in range(len(BOXES))
        ],
    }
    (images / "coco.json").write_text(json.dumps(doc))
    out = tmp_path / "out" / "coco.tfrecord"
    made = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "convert", str(images / "coco.json")]
        + ["-o", str(out), "--layout", "odapi", "--json"],
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    label_map = out.parent / "label_map.pbtxt"
    assert parse_label_map(label_map.read_text()) == {k + 1: n for k, n in enumerate(names)}
    assert (out.parent / "labels.txt").read_text().count("\n") == len(names)
    checked = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "check", "--json", "--label-map", str(label_map)]
        + [str(out)],
        capture_output=True,
        text=True,
    )
    assert checked.returncode in (0, 1), checked.stderr
    kinds = {f["kind"] for f in json.loads(checked.stdout)["findings"]}
    assert "label_not_in_map" not in kinds, kinds
    from tests.tf_oracle import tf, tf_read

    texts = {
        t.decode()
        for raw in tf_read([str(out)])
        for t in tf()
        .train.Example.FromString(raw)
        .features.feature["image/object/class/text"]
        .bytes_list.value
    }
    assert texts == set(names)


def test_the_documented_voc_command_on_the_standard_voc_layout(tmp_path):
    """``VOC2012/Annotations`` beside ``VOC2012/JPEGImages``, as VOC's own tools lay it
    out: the images are read (they lie in the dataset's root), and TensorFlow reads the
    boxes written."""
    root = tmp_path / "VOC2012"
    (root / "Annotations").mkdir(parents=True)
    (root / "JPEGImages").mkdir()
    for i, (name, boxes) in enumerate(BOXES.items()):
        (root / "JPEGImages" / name).write_bytes(_jpeg(i))
        objects = "".join(
            f"<object><name>{c}</name><pose>Unspecified</pose><truncated>0</truncated>"
            f"<difficult>0</difficult><bndbox><xmin>{x0}</xmin><ymin>{y0}</ymin>"
            f"<xmax>{x1}</xmax><ymax>{y1}</ymax></bndbox></object>"
            for x0, y0, x1, y1, c in boxes
        )
        (root / "Annotations" / f"{Path(name).stem}.xml").write_text(
            f"<annotation><folder>VOC2012</folder><filename>{name}</filename>"
            f"<source><database>The VOC2012 Database</database></source><size><width>{W}"
            f"</width><height>{H}</height><depth>3</depth></size><segmented>0</segmented>"
            f"{objects}</annotation>"
        )
    out = tmp_path / "out.tfrecord"
    done = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "convert", str(root / "Annotations"), "-o", str(out)]
        + ["--layout", "odapi"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "lies outside VOC2012" not in done.stderr  # c.jpg is skipped for its box alone
    _check_rows([out])
    # an image outside the dataset's root is still refused
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "d.jpg").write_bytes(_jpeg(9))
    (root / "Annotations" / "d.xml").write_text(
        f"<annotation><filename>../../elsewhere/d.jpg</filename><size><width>{W}</width>"
        f"<height>{H}</height><depth>3</depth></size></annotation>"
    )
    again = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "convert", str(root / "Annotations"), "-o", str(out)]
        + ["--layout", "odapi", "--overwrite"],
        capture_output=True,
        text=True,
    )
    assert again.returncode == 0 and "d.jpg: lies outside" in again.stderr
