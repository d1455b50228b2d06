"""``evaluate``: COCO-style AP and recall, checked against pycocotools run directly on
the records as TensorFlow parses them; the same from every source of predictions; and
one line, exit 2, without pycocotools."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys

import pytest

from tests.planted_labels import coco_results, labelled_dataset
from tests.tf_oracle import tf, tf_read


def _evaluate(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "evaluate", *args],
        capture_output=True,
        text=True,
        env=env,
    )


def _direct(path, detected=None) -> tuple[object, dict[int, object]]:
    """COCOeval over the records TensorFlow parses: the whole run, and one per class;
    with ``detected``, only those records' detections are given (the others have
    none)."""
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    t = tf()
    floats = {
        f"image/{w}/bbox/{s}": t.io.VarLenFeature(t.float32)
        for w in ("object", "detection")
        for s in ("xmin", "ymin", "xmax", "ymax")
    }
    spec = {
        **floats,
        "image/object/class/label": t.io.VarLenFeature(t.int64),
        "image/detection/label": t.io.VarLenFeature(t.int64),
        "image/detection/score": t.io.VarLenFeature(t.float32),
        "image/width": t.io.FixedLenFeature([], t.int64),
        "image/height": t.io.FixedLenFeature([], t.int64),
    }
    images, gts, dts = [], [], []
    for n, record in enumerate(tf_read(path)):
        p = {
            k: (v.values.numpy() if hasattr(v, "values") else v.numpy())
            for k, v in t.io.parse_single_example(record, spec).items()
        }
        w, h = int(p["image/width"]), int(p["image/height"])
        images.append({"id": n, "width": w, "height": h})
        for who, out in (("object", gts), ("detection", dts)):
            x0, y0, x1, y1 = (p[f"image/{who}/bbox/{s}"] for s in ("xmin", "ymin", "xmax", "ymax"))
            labels = p["image/object/class/label" if who == "object" else "image/detection/label"]
            if who == "detection" and detected is not None and n not in detected:
                continue
            for i in range(len(x0)):
                box = [
                    float(x0[i]) * w,
                    float(y0[i]) * h,
                    float(x1[i] - x0[i]) * w,
                    float(y1[i] - y0[i]) * h,
                ]
                entry = {"image_id": n, "category_id": int(labels[i]), "bbox": box}
                if who == "object":
                    entry |= {"id": len(gts) + 1, "area": box[2] * box[3], "iscrowd": 0}
                else:
                    entry["score"] = float(p["image/detection/score"][i])
                out.append(entry)
    classes = sorted({g["category_id"] for g in gts} | {d["category_id"] for d in dts})
    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO()
        gt.dataset = {
            "images": images,
            "annotations": gts,
            "categories": [{"id": c} for c in classes],
        }
        gt.createIndex()
        dt = gt.loadRes(dts)
        runs = {}
        for only in [None, *classes]:
            run = COCOeval(gt, dt, "bbox")
            if only is not None:
                run.params.catIds = [only]
            run.evaluate()
            run.accumulate()
            run.summarize()
            runs[only] = run
    return runs.pop(None), runs


def test_the_metrics_are_those_of_pycocotools(tmp_path):
    path = labelled_dataset(tmp_path / "with.tfrecord", with_predictions=True)
    done = _evaluate(str(path), "--predictions", "features", "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    whole, per_class = _direct(path)
    assert doc["ap"] == pytest.approx(whole.stats[0], abs=1e-5)
    assert doc["ap50"] == pytest.approx(whole.stats[1], abs=1e-5)
    recall = whole.eval["recall"][0, :, 0, 2]
    assert doc["recall50"] == pytest.approx(float(recall[recall > -1].mean()), abs=1e-5)
    assert doc["images"] == doc["records"] == 24
    for c in doc["classes"]:
        run = per_class[c["class"]]
        assert c["ap"] == pytest.approx(run.stats[0], abs=1e-5), c
        assert c["ap50"] == pytest.approx(run.stats[1], abs=1e-5), c
        assert c["recall50"] == pytest.approx(float(run.eval["recall"][0, 0, 0, 2]), abs=1e-5), c
    assert {c["text"] for c in doc["classes"]} == {"cat", "dog", "bird"}
    assert 0 < doc["ap"] < doc["ap50"] < 1  # planted errors cost something

    text = _evaluate(str(path), "--predictions", "features")
    assert text.returncode == 0 and text.stdout.splitlines()[0].split()[:3] == [
        "class",
        "AP",
        "AP@0.5",
    ]
    assert f"{doc['ap']:.3f}" in text.stdout.splitlines()[-2]  # the "all" row


def test_images_without_results_count_their_objects_as_missed(tmp_path):
    """A detector writes nothing for an image where it finds nothing: results for half
    of the images weigh every image, as COCOeval does."""
    inside = labelled_dataset(tmp_path / "with.tfrecord", with_predictions=True)
    plain = labelled_dataset(tmp_path / "plain.tfrecord")
    results = coco_results(tmp_path / "results.json")
    kept = [r for r in json.loads(results.read_text()) if r["image_id"] < 512]
    results.write_text(json.dumps(kept))
    done = _evaluate(str(plain), "--predictions", str(results), "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    whole, _ = _direct(inside, detected=set(range(12)))
    assert doc["images"] == doc["records"] == 24
    assert doc["ap"] == pytest.approx(whole.stats[0], abs=1e-4)
    assert doc["ap50"] == pytest.approx(whole.stats[1], abs=1e-4)
    recall = whole.eval["recall"][0, :, 0, 2]
    assert doc["recall50"] == pytest.approx(float(recall[recall > -1].mean()), abs=1e-4)
    full = json.loads(_evaluate(str(inside), "--predictions", "features", "--json").stdout)
    assert doc["recall50"] < full["recall50"]


def test_every_source_gives_the_same_metrics(tmp_path):
    inside = labelled_dataset(tmp_path / "with.tfrecord", with_predictions=True)
    plain = labelled_dataset(tmp_path / "plain.tfrecord")
    results = coco_results(tmp_path / "results.json")
    a = json.loads(_evaluate(str(inside), "--predictions", "features", "--json").stdout)
    b = json.loads(_evaluate(str(plain), "--predictions", str(results), "--json").stdout)
    for key in ("ap", "ap50", "recall50"):
        assert a[key] == pytest.approx(b[key], abs=1e-4)  # pixels and back, in float32


def test_without_pycocotools_evaluate_says_how_to_get_it(tmp_path):
    path = labelled_dataset(tmp_path / "with.tfrecord", with_predictions=True)
    blocked = tmp_path / "blocked" / "pycocotools"
    blocked.mkdir(parents=True)
    (blocked / "__init__.py").write_text("raise ImportError('not installed here')\n")
    import os

    env = dict(os.environ, PYTHONPATH=str(blocked.parent))
    done = _evaluate(str(path), "--predictions", "features", env=env)
    assert done.returncode == 2 and "pip install 'tfr-viewer[eval]'" in done.stderr
    assert "Traceback" not in done.stderr
    missing = _evaluate(str(path))
    assert missing.returncode == 2 and "--predictions" in missing.stderr
    nothing = _evaluate(
        str(labelled_dataset(tmp_path / "plain.tfrecord")), "--predictions", "features"
    )
    assert nothing.returncode == 2 and "no record" in nothing.stderr
