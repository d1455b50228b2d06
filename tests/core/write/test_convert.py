"""Images to TFRecords: every layout parses in TensorFlow with the spec `schema --python`
prints, image bytes and labels match the sources, bad files are skipped with a reason,
and splits and shards hold every image once."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.tf_oracle import tf, tf_read
from tfr_viewer.core.write import ExportOptions
from tfr_viewer.core.write.convert import ConvertOptions, convert
from tfr_viewer.core.write.convert_sources import (
    class_folders,
    csv_labels,
    flat_folder,
    skip_counts,
)

CLASSES = ("cat", "dog", "fish")


def _image(seed: int, fmt: str = "JPEG") -> bytes:
    from PIL import Image

    rng = np.random.default_rng(seed)
    out = io.BytesIO()
    Image.fromarray(rng.integers(0, 255, (30 + seed % 7, 40, 3), dtype=np.uint8)).save(out, fmt)
    return out.getvalue()


@pytest.fixture
def pets(tmp_path) -> tuple[Path, dict[str, tuple[str, bytes]]]:
    """Class folders with 4 images each (JPEG and PNG), and bad files beside them."""
    root = tmp_path / "pets"
    sources = {}
    for c, name in enumerate(CLASSES):
        (root / name).mkdir(parents=True)
        for i in range(4):
            fmt, suffix = ("PNG", "png") if i == 3 else ("JPEG", "jpg")
            data = _image(c * 10 + i, fmt)
            (root / name / f"{i}.{suffix}").write_bytes(data)
            sources[f"{name}/{i}.{suffix}"] = (name, data)
    (root / "cat" / "notes.jpg").write_text("not an image at all")
    (root / "dog" / "empty.jpg").write_bytes(b"")
    cut = _image(99)
    (root / "dog" / "cut.jpg").write_bytes(cut[: len(cut) // 2])
    os.symlink("loop.jpg", root / "fish" / "loop.jpg")
    return root, sources


def _spec(paths: list[str]) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "schema", "--python", *paths],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    scope: dict = {}
    exec(out.stdout, scope)
    return scope["feature_description"]


def _parsed(paths: list[str]) -> list[dict]:
    spec = _spec(paths)
    t = tf()
    rows = []
    for record in tf_read(paths):
        parsed = t.io.parse_single_example(record, spec)
        rows.append({k: (v.numpy() if hasattr(v, "numpy") else v) for k, v in parsed.items()})
    return rows


@pytest.mark.parametrize(
    ("layout", "image_key", "label_key", "shift"),
    [
        ("tutorial", "image_raw", "label", 0),
        ("odapi", "image/encoded", "image/class/label", 1),
        ("tfds", "image", "label", 0),
    ],
)
def test_class_folders_in_every_layout(pets, tmp_path, layout, image_key, label_key, shift):
    root, sources = pets
    out = tmp_path / "out" / "pets.tfrecord"
    summary = convert(class_folders(str(root)), ConvertOptions(ExportOptions(str(out)), layout))
    assert summary.records == len(sources)
    rows = _parsed(list(summary.files))
    by_bytes = {data: name for name, data in sources.values()}
    assert sorted(r[image_key] for r in rows) == sorted(by_bytes)
    for r in rows:
        assert int(r[label_key]) == CLASSES.index(by_bytes[r[image_key]]) + shift
    if layout == "tutorial":
        from PIL import Image

        for r in rows:
            img = Image.open(io.BytesIO(r["image_raw"]))
            assert (r["height"], r["width"], r["depth"]) == (img.height, img.width, 3)
    if layout == "odapi":
        assert {r["image/class/text"].decode() for r in rows} == set(CLASSES)
        assert (out.parent / "label_map.pbtxt").read_text().count("item {") == 3
        assert (out.parent / "labels.txt").read_text().split() == list(CLASSES)


def test_bad_files_are_skipped_with_their_reason(pets, tmp_path):
    root, sources = pets
    out = tmp_path / "out.tfrecord"
    summary = convert(class_folders(str(root)), ConvertOptions(ExportOptions(str(out))))
    reasons = {Path(s.path).name: s.reason for s in summary.skipped}
    assert set(reasons) == {"notes.jpg", "empty.jpg", "cut.jpg", "loop.jpg"}
    assert "not an image" in reasons["notes.jpg"]
    assert reasons["empty.jpg"] == "an empty file"
    assert "JPEG ends after" in reasons["cut.jpg"]
    assert "symbolic links" in reasons["loop.jpg"] or "loop" in reasons["loop.jpg"]
    assert summary.records == len(sources)
    kinds = {Path(s.path).name: s.kind for s in summary.skipped}
    assert kinds == {
        "notes.jpg": "undecodable",
        "empty.jpg": "empty",
        "cut.jpg": "undecodable",
        "loop.jpg": "link",
    }
    assert skip_counts(summary.skipped) == {"empty": 1, "undecodable": 2, "link": 1}


def test_images_tensorflow_cannot_decode_are_skipped_and_named(tmp_path):
    """Cut PNG, BMP and GIF files, a BMP whose header claims 60000×60000 pixels in 54
    bytes, and a TIFF: each is named and skipped; every image written decodes in
    TensorFlow; with re-encoding, the TIFF is kept as a JPEG."""
    import struct

    from PIL import Image

    from tfr_viewer.core.write.convert_encode import Reencode

    folder = tmp_path / "shapes" / "a"
    folder.mkdir(parents=True)
    pixels = (np.random.default_rng(1).random((40, 50, 3)) * 255).astype(np.uint8)
    whole = {}
    for fmt in ("PNG", "BMP", "GIF", "TIFF", "JPEG"):
        buf = io.BytesIO()
        Image.fromarray(pixels[::-1] if fmt == "TIFF" else pixels).save(buf, fmt)
        whole[fmt] = buf.getvalue()
    files = {
        "cut.png": whole["PNG"][:-20],
        "cut.bmp": whole["BMP"][: len(whole["BMP"]) // 2],
        "cut.gif": whole["GIF"][: len(whole["GIF"]) // 2],
        "huge.bmp": b"BM"
        + struct.pack("<IHHI", 54, 0, 0, 54)
        + struct.pack("<IiiHHIIiiII", 40, 60000, 60000, 1, 24, 0, 0, 2835, 2835, 0, 0),
        "scan.tiff": whole["TIFF"],
        "good.jpg": whole["JPEG"],
        "good.png": whole["PNG"],
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    out = tmp_path / "out.tfrecord"
    summary = convert(class_folders(str(folder.parent)), ConvertOptions(ExportOptions(str(out))))
    reasons = {Path(s.path).name: s.reason for s in summary.skipped}
    assert set(reasons) == {"cut.png", "cut.bmp", "cut.gif", "huge.bmp", "scan.tiff"}
    assert reasons["cut.png"].startswith("PNG ends after")
    assert reasons["huge.bmp"] == (
        "BMP ends after 54 of the 10,800,000,054 bytes its header promises"
    )
    assert "cannot decode TIFF" in reasons["scan.tiff"]
    assert summary.records == 2
    for row in _parsed(list(summary.files)):
        tf().io.decode_image(row["image_raw"])  # raises on an image TensorFlow refuses
    again = tmp_path / "again" / "again.tfrecord"
    reencoded = convert(
        class_folders(str(folder.parent)),
        ConvertOptions(ExportOptions(str(again)), reencode=Reencode(90)),
    )
    assert "scan.tiff" not in {Path(s.path).name for s in reencoded.skipped}
    assert reencoded.records == 3


def test_splits_and_shards_hold_every_image_once(pets, tmp_path):
    root, sources = pets
    out = tmp_path / "split" / "pets.tfrecord"
    options = ExportOptions(
        str(out), shards=2, shuffle_seed=3, split=(("train", 0.75), ("val", 0.25))
    )
    summary = convert(class_folders(str(root)), ConvertOptions(options, "tfds"))
    assert len(summary.files) == 4
    seen: dict[bytes, str] = {}
    for path in summary.files:
        split = "train" if "-train" in path else "val"
        for row in _parsed([path]):
            assert row["image"] not in seen, "an image in two places"
            seen[row["image"]] = split
    assert sorted(seen) == sorted(data for _, data in sources.values())
    assert list(seen.values()).count("val") == 3


def test_a_csv_of_file_names_and_labels(tmp_path):
    images = tmp_path / "imgs"
    images.mkdir()
    rows = []
    for i in range(6):
        (images / f"{i}.jpg").write_bytes(_image(i))
        rows.append(f"imgs/{i}.jpg\t{['b', 'a'][i % 2]}\t{i * 0.5}")
    (tmp_path / "labels.tsv").write_text("path\tclass\tscore\n" + "\n".join(rows) + "\n")
    listing = csv_labels(str(tmp_path / "labels.tsv"), "path", "class")
    assert listing.classes == {0: "a", 1: "b"}
    summary = convert(listing, ConvertOptions(ExportOptions(str(tmp_path / "c.tfrecord"))))
    assert [int(r["label"]) for r in _parsed(list(summary.files))] == [1, 0, 1, 0, 1, 0]
    scores = csv_labels(str(tmp_path / "labels.tsv"), "path", "score")
    summary = convert(
        scores, ConvertOptions(ExportOptions(str(tmp_path / "s.tfrecord")), "tfds", {"label": "y"})
    )
    assert [float(r["y"]) for r in _parsed(list(summary.files))] == [i * 0.5 for i in range(6)]
    with pytest.raises(ValueError, match="no column 'file'"):
        csv_labels(str(tmp_path / "labels.tsv"), "file", "class")


def test_a_flat_folder_has_no_labels(pets, tmp_path):
    root, sources = pets
    summary = convert(
        flat_folder(str(root / "cat")), ConvertOptions(ExportOptions(str(tmp_path / "f.tfrecord")))
    )
    rows = _parsed(list(summary.files))
    assert len(rows) == 4 and "label" not in rows[0]


def test_convert_from_the_command_line(pets, tmp_path):
    root, sources = pets
    out = tmp_path / "cli" / "pets.tfrecord"
    run = [sys.executable, "-m", "tfr_viewer", "convert", str(root), "-o", str(out)]
    done = subprocess.run([*run, "--layout", "odapi", "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["records"] == len(sources) and len(doc["skipped"]) == 4
    assert doc["skipped_by_kind"] == {"empty": 1, "undecodable": 2, "link": 1}
    assert {s["kind"] for s in doc["skipped"]} == {"empty", "undecodable", "link"}
    text = subprocess.run([*run, "--overwrite"], capture_output=True, text=True)
    assert "4 files skipped (1 empty, 2 undecodable, 1 link)" in text.stdout, text.stdout
    assert doc["classes"] == {"1": "cat", "2": "dog", "3": "fish"}
    again = subprocess.run(run, capture_output=True, text=True)
    assert again.returncode == 2 and "--overwrite" in again.stderr
    bad = subprocess.run(
        [*run, "--overwrite", "--rename", "nope=x"], capture_output=True, text=True
    )
    assert bad.returncode == 2 and "no key 'nope'" in bad.stderr


def test_re_encoding_to_jpeg_within_a_stated_tolerance(tmp_path):
    """Quality 90 and a largest side of 40 px on smooth 160×120 PNGs: every image is a
    JPEG no larger than that, within 3 grey levels on average of the source shrunk the
    same way."""
    from PIL import Image

    from tfr_viewer.core.write.convert_encode import Reencode

    folder = tmp_path / "smooth" / "a"
    folder.mkdir(parents=True)
    yy, xx = np.mgrid[0:120, 0:160]
    originals = []
    for i in range(4):
        pixels = np.stack([(xx + 20 * i) % 256, (yy * 2) % 256, (xx + yy) // 2 % 256], -1)
        img = Image.fromarray(pixels.astype(np.uint8))
        img.save(folder / f"{i}.png")
        small = img.copy()
        small.thumbnail((40, 40))
        originals.append(np.asarray(small, dtype=np.float64))
    options = ConvertOptions(
        ExportOptions(str(tmp_path / "r.tfrecord")), "tutorial", {}, Reencode(90, 40)
    )
    summary = convert(class_folders(str(tmp_path / "smooth")), options)
    rows = _parsed(list(summary.files))
    assert len(rows) == 4
    for row, original in zip(rows, originals, strict=True):
        img = Image.open(io.BytesIO(row["image_raw"]))
        assert img.format == "JPEG" and img.size == (40, 30)
        assert (row["width"], row["height"]) == img.size
        pixels = np.asarray(img.convert("RGB"), dtype=np.float64)
        assert np.abs(pixels - original).mean() < 3


def test_files_a_csv_names_that_are_no_images_are_skipped_without_being_read(tmp_path, monkeypatch):
    """A FIFO (reading it would block forever), a device that never ends (a twin of
    /dev/zero made here), a file past the size cap and a text file: each is skipped with
    the reason, and no byte of any of them is quoted."""
    import os

    images = tmp_path / "imgs"
    images.mkdir()
    (images / "good.jpg").write_bytes(_image(1))
    os.mkfifo(images / "pipe.jpg")
    (images / "big.jpg").write_bytes(_image(2) + b"\0" * (2 << 20))
    (images / "secret.jpg").write_bytes(b"PASSWORD=hunter2\n")
    names = ["good.jpg", "pipe.jpg", "big.jpg", "secret.jpg"]
    if os.geteuid() == 0:
        os.mknod(images / "zero.jpg", 0o666 | __import__("stat").S_IFCHR, os.makedev(1, 5))
        names.append("zero.jpg")
    monkeypatch.setenv("TFR_VIEWER_MAX_IMAGE_MB", "1")
    (tmp_path / "labels.csv").write_text(
        "filename,label\n" + "".join(f"imgs/{n},cat\n" for n in names)
    )
    listing = csv_labels(str(tmp_path / "labels.csv"), "filename", "label")
    summary = convert(listing, ConvertOptions(ExportOptions(str(tmp_path / "out.tfrecord"))))
    assert len(_parsed(list(summary.files))) == 1
    reasons = {Path(s.path).name: s.reason for s in summary.skipped}
    assert set(reasons) == set(names) - {"good.jpg"}
    assert "FIFO" in reasons["pipe.jpg"] and "larger than 1 MB" in reasons["big.jpg"]
    assert "not an image" in reasons["secret.jpg"]
    if "zero.jpg" in reasons:
        assert "character device" in reasons["zero.jpg"]
    kinds = {Path(s.path).name: s.kind for s in summary.skipped}
    assert kinds.pop("big.jpg") == "too_large" and kinds.pop("secret.jpg") == "undecodable"
    assert set(kinds.values()) == {"not_a_regular_file"}
    assert not any("PASSWORD" in r or "hunter" in r for r in reasons.values())


def test_files_named_outside_the_source_are_skipped_unless_allowed(tmp_path):
    """A CSV naming ../, an absolute path, /proc/self/environ and a link that leads out:
    none is read (nothing of theirs is embedded or quoted) unless --allow-outside."""
    import json
    import os
    import subprocess
    import sys

    source = tmp_path / "source"
    (source / "imgs").mkdir(parents=True)
    (source / "imgs" / "in.jpg").write_bytes(_image(1))
    (tmp_path / "outside.jpg").write_bytes(_image(2))
    os.symlink(tmp_path / "outside.jpg", source / "imgs" / "link.jpg")
    rows = ["imgs/in.jpg", "../outside.jpg", str(tmp_path / "outside.jpg"), "/proc/self/environ"]
    rows.append("imgs/link.jpg")
    (source / "labels.csv").write_text("filename,label\n" + "".join(f"{r},cat\n" for r in rows))

    def run(*extra: str) -> dict:
        out = tmp_path / f"out{len(extra)}" / "out.tfrecord"
        done = subprocess.run(
            [sys.executable, "-m", "tfr_viewer", "convert", str(source / "labels.csv")]
            + ["-o", str(out), "--json", *extra],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    confined = run()
    assert confined["records"] == 1
    reasons = [s["reason"] for s in confined["skipped"]]
    assert len(reasons) == 4 and all("--allow-outside reads it" in r for r in reasons)
    assert not any("PATH=" in r or "HOME=" in r for r in reasons)
    assert confined["skipped_by_kind"] == {"outside_source": 4}
    allowed = run("--allow-outside")
    assert allowed["records"] == 2  # in.jpg and the outside image (its copies are the same bytes)
    read = {Path(s["path"]).name for s in allowed["skipped"]}
    assert "environ" in read  # read, and refused as not an image: nothing of it quoted
    assert not any("PATH=" in s["reason"] for s in allowed["skipped"])
    assert allowed["skipped_by_kind"] == {"undecodable": 1, "duplicate": 2}


def test_a_folder_link_that_leads_up_is_not_followed(tmp_path):
    """cat/loop -> .. would label the dog's images as cats."""
    import os

    root = tmp_path / "pets"
    for name in ("cat", "dog"):
        (root / name).mkdir(parents=True)
        (root / name / f"{name}.jpg").write_bytes(_image(len(name) + (name == "dog")))
    os.symlink("..", root / "cat" / "loop")
    listing = class_folders(str(root))
    labelled = sorted((Path(i.path).name, listing.classes[i.label]) for i in listing.items)
    assert labelled == [("cat.jpg", "cat"), ("dog.jpg", "dog")]
    assert any("holds it" in s.reason for s in listing.skipped)


def test_two_sources_that_re_encode_alike_are_both_kept(tmp_path):
    """Copies are the same source bytes: two pictures that differ by one pixel shrink to
    the same JPEG, and both are still records."""
    import json
    import subprocess
    import sys

    from PIL import Image

    folder = tmp_path / "grey" / "cat"
    folder.mkdir(parents=True)
    first = Image.new("RGB", (64, 64), (100, 100, 100))
    second = first.copy()
    second.putpixel((5, 5), (101, 100, 100))
    first.save(folder / "a.png")
    second.save(folder / "b.png")
    out = tmp_path / "out" / "grey.tfrecord"
    done = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "convert", str(tmp_path / "grey"), "-o", str(out)]
        + ["--jpeg-quality", "50", "--max-side", "1", "--json"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["records"] == 2
    encoded = [
        r["image/encoded"] if "image/encoded" in r else r["image_raw"] for r in _parsed([str(out)])
    ]
    assert len(encoded) == 2


def test_file_names_and_source_ids_are_the_images_own(pets, tmp_path, monkeypatch):
    """``image/filename`` is the file's name and ``image/source_id`` its path inside the
    source's folder, whatever the output's folder, the working folder or the spelling of
    the source's path."""
    root, sources = pets
    written = []
    for k, (source, out, cwd) in enumerate(
        [
            (str(root), tmp_path / "deep" / "er" / "a.tfrecord", tmp_path),
            ("./pets/../pets/", tmp_path / "b" / "b.tfrecord", tmp_path),
            (str(root) + "/", tmp_path / "c" / "c.tfrecord", root / "cat"),
        ]
    ):
        monkeypatch.chdir(cwd)
        options = ConvertOptions(ExportOptions(str(out)), "odapi", check=False)
        summary = convert(class_folders(source), options)
        rows = _parsed(list(summary.files))
        written.append(
            sorted((r["image/filename"].decode(), r["image/source_id"].decode()) for r in rows)
        )
        assert k == 0 or written[k] == written[0]
    assert written[0] == sorted((p.rsplit("/", 1)[1], p) for p in sources)


def test_images_that_come_class_by_class_are_written_with_a_warning(pets, tmp_path):
    root, _ = pets
    out = tmp_path / "order" / "pets.tfrecord"
    run = [sys.executable, "-m", "tfr_viewer", "convert", str(root), "-o", str(out), "--json"]
    plain = subprocess.run(run, capture_output=True, text=True)
    assert plain.returncode == 0, plain.stderr
    warnings = [line for line in plain.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "'cat'" in warnings[0] and "--shuffle" in warnings[0]
    shuffled = subprocess.run(
        [*run, "--overwrite", "--shuffle", "3"], capture_output=True, text=True
    )
    assert shuffled.returncode == 0 and "warning:" not in shuffled.stderr
    labels = [int(r["label"]) for r in _parsed([str(out)])]
    runs = 1 + sum(a != b for a, b in zip(labels, labels[1:], strict=False))
    assert runs > len(set(labels)), labels  # mixed, not one class after another


def test_a_csv_of_mixed_labels_gets_no_order_warning(tmp_path):
    from tfr_viewer.core.write.convert import class_order

    for name, label in [("a.jpg", 0), ("b.jpg", 1), ("c.jpg", 0)]:
        (tmp_path / name).write_bytes(_image(label))
    rows = "filename,label\na.jpg,0\nb.jpg,1\nc.jpg,0\n"
    (tmp_path / "labels.csv").write_text(rows)
    assert class_order(csv_labels(str(tmp_path / "labels.csv"))) is None
    (tmp_path / "sorted.csv").write_text("filename,label\na.jpg,0\nc.jpg,0\nb.jpg,1\n")
    assert "the first 2 are all '0'" in (
        class_order(csv_labels(str(tmp_path / "sorted.csv"))) or ""
    )
