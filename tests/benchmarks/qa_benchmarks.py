"""Benchmarks of the data-QA commands (stats, check), against TensorFlow in the same run.

Usage: ``python tests/benchmarks/qa_benchmarks.py [--data DIR] [--only NAME ...]``.
Our side is the whole ``tfr-viewer`` process; TensorFlow's is an in-process loop after
warm-up that computes the same figures (parse every record, then numpy on the columns),
or for the checks the part TensorFlow can do at all: decoding every image.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from columnar_benchmarks import cli, small_file  # noqa: E402
from run_benchmarks import ensure, row, run_cli, tf, timed, write_tf  # noqa: E402

IMAGES = 5000


def photo_examples(n: int, seed: int, detections: bool = False):
    """Examples of a 640×480 JPEG (gradients under noise, as dense as a photo) with
    Object Detection API keys and 1 to 3 boxes, built by TensorFlow; with
    ``detections``, also a model's 10 predictions (its boxes a little off, and weak
    strays) under ``image/detection/*``, as the API's inference writes them."""
    from PIL import Image

    t = tf().train
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:480, 0:640]
    for i in range(n):
        base = np.stack([(xx * (0.2 + k * 0.1) + yy * 0.3 + i * 7) % 256 for k in range(3)], -1)
        img = (base + rng.normal(0, 25, base.shape)).clip(0, 255).astype(np.uint8)
        out = io.BytesIO()
        Image.fromarray(img).save(out, "JPEG", quality=85)
        boxes = int(rng.integers(1, 4))
        x0, y0 = rng.uniform(0, 0.5, boxes), rng.uniform(0, 0.5, boxes)
        label = rng.integers(1, 4, boxes)

        def floats(v):
            return t.Feature(float_list=t.FloatList(value=list(v)))

        feature = {
            "image/encoded": t.Feature(bytes_list=t.BytesList(value=[out.getvalue()])),
            "image/format": t.Feature(bytes_list=t.BytesList(value=[b"jpeg"])),
            "image/height": t.Feature(int64_list=t.Int64List(value=[480])),
            "image/width": t.Feature(int64_list=t.Int64List(value=[640])),
            "image/object/bbox/xmin": floats(x0),
            "image/object/bbox/ymin": floats(y0),
            "image/object/bbox/xmax": floats(x0 + 0.3),
            "image/object/bbox/ymax": floats(y0 + 0.3),
            "image/object/class/label": t.Feature(int64_list=t.Int64List(value=list(label))),
            "image/source_id": t.Feature(bytes_list=t.BytesList(value=[str(i).encode()])),
        }
        if detections:
            feature.update(detection_features(rng, x0, y0, label, floats))
        yield t.Example(features=t.Features(feature=feature)).SerializeToString()


def predicted(rng: np.random.Generator, x0, y0, label) -> list[tuple]:
    """A model's 10 predictions of an image: its boxes a little off, then weak strays."""
    out = []
    for x, y, c in zip(x0, y0, label, strict=True):
        dx, dy = rng.uniform(-0.01, 0.01, 2)
        out.append((x + dx, y + dy, x + dx + 0.3, y + dy + 0.3, int(c), rng.uniform(0.6, 0.99)))
    while len(out) < 10:
        x, y = rng.uniform(0, 0.8, 2)
        out.append((x, y, x + 0.1, y + 0.1, int(rng.integers(1, 4)), rng.uniform(0.01, 0.3)))
    return out


def detection_features(rng, x0, y0, label, floats) -> dict:
    t = tf().train
    found = predicted(rng, x0, y0, label)
    out = {
        f"image/detection/bbox/{s}": floats([p[k] for p in found])
        for k, s in enumerate(("xmin", "ymin", "xmax", "ymax"))
    }
    out["image/detection/label"] = t.Feature(int64_list=t.Int64List(value=[p[4] for p in found]))
    out["image/detection/score"] = floats([p[5] for p in found])
    return out


def photos_file(data: Path) -> Path:
    return ensure(data / "photos_5000.tfrecord", lambda p: write_tf(p, photo_examples(IMAGES, 5)))


def _figures(values: np.ndarray) -> dict:
    return {
        "min": values.min(),
        "max": values.max(),
        "mean": values.mean(),
        "std": values.std(),
        "zeros": int((values == 0).sum()),
        "quantiles": np.quantile(values, [0, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 1]),
        "histogram": np.histogram(values, 20),
    }


def tf_small_stats(path: Path | list[str]) -> dict:
    """The same per-feature figures with TensorFlow: batched parse_example of every key,
    then numpy on the columns (of one file, or of a list of shards)."""
    t = tf()
    spec = {
        "feature0": t.io.VarLenFeature(t.int64),
        "feature1": t.io.VarLenFeature(t.int64),
        "feature2": t.io.VarLenFeature(t.string),
        "feature3": t.io.VarLenFeature(t.float32),
    }
    files = path if isinstance(path, list) else str(path)
    ds = t.data.TFRecordDataset(files).batch(8192).map(lambda b: t.io.parse_example(b, spec))
    parts: dict[str, list] = {k: [] for k in spec}
    counts: dict[str, list] = {k: [] for k in spec}
    for batch in ds:
        for key, sparse in batch.items():
            parts[key].append(sparse.values.numpy())
            counts[key].append(
                np.bincount(sparse.indices.numpy()[:, 0], minlength=sparse.dense_shape[0])
            )
    out = {}
    for key in spec:
        values = np.concatenate(parts[key])
        per_record = np.concatenate(counts[key])
        out[key] = {"present": int((per_record > 0).sum()), "value_counts": np.bincount(per_record)}
        if values.dtype.kind in "if":
            out[key].update(_figures(values.astype(np.float64)))
        else:
            uniq, times = np.unique(values, return_counts=True)
            out[key]["top"] = sorted(zip(times.tolist(), uniq.tolist(), strict=True), reverse=True)[
                :20
            ]
    return out


def tf_image_stats(path: Path) -> dict:
    """Image widths and heights from the JPEG headers with TensorFlow, and the box figures."""
    t = tf()
    spec = {
        "image/encoded": t.io.FixedLenFeature([], t.string),
        "image/object/bbox/xmin": t.io.VarLenFeature(t.float32),
    }

    def shape(b):
        parsed = t.io.parse_example(b, spec)
        sizes = t.map_fn(
            t.io.extract_jpeg_shape, parsed["image/encoded"], fn_output_signature=t.int32
        )
        return sizes, parsed["image/object/bbox/xmin"].values

    sizes, boxes = [], []
    for s, b in t.data.TFRecordDataset(str(path)).batch(256).map(shape):
        sizes.append(s.numpy())
        boxes.append(b.numpy())
    hw = np.concatenate(sizes)
    return {
        "height": _figures(hw[:, 0].astype(float)),
        "width": _figures(hw[:, 1].astype(float)),
        "boxes": len(np.concatenate(boxes)),
    }


def tf_decode_all(path: Path) -> int:
    """Decode every image with ``tf.io.decode_image`` (what any TensorFlow check of the
    images needs first, and the verdict the tool's own is tested against), 2 threads."""
    t = tf()
    spec = {"image/encoded": t.io.FixedLenFeature([], t.string)}

    def decoded(r):
        image = t.io.parse_single_example(r, spec)["image/encoded"]
        return t.reduce_mean(t.cast(t.io.decode_image(image, expand_animations=False), t.float32))

    ds = t.data.TFRecordDataset(str(path)).map(decoded, num_parallel_calls=2)
    return sum(1 for _ in ds)


def bench_stats(data: Path) -> None:
    print("stats over 1,000,000 small Examples, whole process")
    path = small_file(data)
    tf_small_stats(path)  # warm-up
    theirs, _ = timed(lambda: tf_small_stats(path), repeat=2)
    ours, out = cli(["stats", "--json", "--no-cache", str(path)], repeat=3)
    doc = json.loads(out)
    assert doc["records"] == 1_000_000 and set(doc["features"]) == {f"feature{i}" for i in range(4)}
    row(
        "stats --json, 1M small Examples, whole process vs TF parse_example + numpy",
        ours,
        theirs,
        "< 3 s",
    )


def bench_image_stats(data: Path) -> None:
    print(f"stats over {IMAGES:,} 640×480 JPEG Examples (every image decoded), whole process")
    path = photos_file(data)
    tf_image_stats(path)
    tf_decode_all(path)
    header, _ = timed(lambda: tf_image_stats(path), repeat=2)
    decode, _ = timed(lambda: tf_decode_all(path), repeat=1)
    ours, out = cli(["stats", "--json", "--no-cache", str(path)], repeat=3)
    doc = json.loads(out)
    assert doc["features"]["image/encoded"]["images"]["formats"] == {"jpeg": IMAGES}
    row(
        f"stats --json, {IMAGES:,} 640×480 JPEGs (each decoded for its verdict), whole "
        "process vs TF extract_jpeg_shape + decode_image of every image",
        ours,
        header + decode,
        "at most 1.5x TF's time",
    )


def bench_checks(data: Path) -> None:
    print(f"check over {IMAGES:,} 640×480 JPEG Examples (quality scores and hashes), whole process")
    path = photos_file(data)
    tf_decode_all(path)
    theirs, n = timed(lambda: tf_decode_all(path), repeat=1)
    assert n == IMAGES
    ours, out = cli(["check", "--json", "--no-cache", str(path)], repeat=2)
    doc = json.loads(out)
    assert doc["records"] == IMAGES
    row(
        f"check --json, {IMAGES:,} 640×480 JPEGs (every check, each image decoded for its "
        "verdict, quality scores, perceptual hashes), whole process vs TF decode_image of "
        "every image (2 threads), no checks",
        ours,
        theirs,
        "at most 1.5x TF's time",
    )


def predicted_photos(data: Path) -> tuple[Path, Path]:
    """The photos with predictions in their records, and the same predictions as a COCO
    results file (matched by ``image/source_id``)."""
    path = ensure(
        data / "photos_predicted_5000.tfrecord",
        lambda p: write_tf(p, photo_examples(IMAGES, 5, detections=True)),
    )

    def results(out: Path) -> None:
        t = tf()
        spec = {
            f"image/detection/{k}": t.io.VarLenFeature(t.int64 if k == "label" else t.float32)
            for k in ("bbox/xmin", "bbox/ymin", "bbox/xmax", "bbox/ymax", "label", "score")
        }
        spec["image/source_id"] = t.io.FixedLenFeature([], t.string)
        entries = []
        for record in t.data.TFRecordDataset(str(path)):
            p = {
                k: (v.values.numpy() if hasattr(v, "values") else v.numpy())
                for k, v in t.io.parse_single_example(record, spec).items()
            }
            for j in range(len(p["image/detection/score"])):
                x0, y0 = (
                    p["image/detection/bbox/xmin"][j] * 640,
                    p["image/detection/bbox/ymin"][j] * 480,
                )
                x1, y1 = (
                    p["image/detection/bbox/xmax"][j] * 640,
                    p["image/detection/bbox/ymax"][j] * 480,
                )
                entries.append(
                    {
                        "image_id": int(p["image/source_id"]),
                        "category_id": int(p["image/detection/label"][j]),
                        "bbox": [float(x0), float(y0), float(x1 - x0), float(y1 - y0)],
                        "score": float(p["image/detection/score"][j]),
                    }
                )
        out.write_text(json.dumps(entries))

    return path, ensure(data / "photos_predicted_5000.json", results)


def bench_predictions(data: Path) -> None:
    print(f"check --predictions over {IMAGES:,} 640×480 JPEG Examples, whole process")
    path, results = predicted_photos(data)
    alone, out = cli(["check", "--json", "--no-cache", str(path)], repeat=2)
    assert json.loads(out)["records"] == IMAGES
    for source, spec in (("in the records", "features"), ("a COCO results file", str(results))):
        ours, out = cli(
            ["check", "--json", "--no-cache", str(path), "--predictions", spec], repeat=2
        )
        kinds = {f["kind"] for f in json.loads(out)["findings"]}
        assert not kinds & {"predictions_unmatched", "predictions_malformed"}, kinds
        row(
            f"check --json --predictions ({source}: 10 an image, 50,000 in all) vs check "
            "--json alone on the same file (the ratio is alone / with)",
            ours,
            alone,
            "within 10% of check alone",
        )


BENCHES = {
    "stats": bench_stats,
    "image_stats": bench_image_stats,
    "checks": bench_checks,
    "predictions": bench_predictions,
}


def main() -> None:
    run_cli(__doc__, BENCHES)


if __name__ == "__main__":
    main()
