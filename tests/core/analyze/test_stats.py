"""Statistics agree with numpy on the generated values; per-shard statistics merge to
what one pass over every shard gives, however they are grouped."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from tests.tf_oracle import tf, tf_write
from tfr_viewer.core.analyze import sketch
from tfr_viewer.core.analyze.stats import dataset_stats, file_stats
from tfr_viewer.core.io.dataset import Dataset

SHARDS = 3
PER_SHARD = 300


def _jpeg(width: int, height: int) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), (width % 255, 90, 30)).save(out, "JPEG")
    return out.getvalue()


def _values(shard: int, i: int, rng: np.random.Generator) -> dict:
    n = shard * PER_SHARD + i
    return {
        "score": np.float32(rng.normal(2.0, 3.0)),
        "label": n % 5,
        "name": ["cat", "dog", "bird"][n % 3],
        "tags": [int(x) for x in rng.integers(0, 100, n % 4)],
        "image": _jpeg(16 + n % 7, 8 + n % 3) if n % 10 == 0 else None,
    }


def _example(v: dict) -> bytes:
    t = tf().train
    feature = {
        "score": t.Feature(float_list=t.FloatList(value=[v["score"]])),
        "label": t.Feature(int64_list=t.Int64List(value=[v["label"]])),
        "name": t.Feature(bytes_list=t.BytesList(value=[v["name"].encode()])),
        "tags": t.Feature(int64_list=t.Int64List(value=v["tags"])),
    }
    if v["image"] is not None:
        feature["image/encoded"] = t.Feature(bytes_list=t.BytesList(value=[v["image"]]))
    return t.Example(features=t.Features(feature=feature)).SerializeToString()


@pytest.fixture(scope="module")
def shards(tmp_path_factory):
    """Three shards written by TensorFlow, and the values they hold."""
    folder = tmp_path_factory.mktemp("stats")
    rng = np.random.default_rng(7)
    values, paths = [], []
    for s in range(SHARDS):
        rows = [_values(s, i, rng) for i in range(PER_SHARD)]
        path = folder / f"data-{s:05d}-of-{SHARDS:05d}"
        tf_write(path, [_example(v) for v in rows])
        values += rows
        paths.append(str(path))
    return paths, values


def _stats(paths: list[str]):
    with Dataset(paths) as ds:
        ds.index()
        return dataset_stats(ds)


def test_numeric_figures_agree_with_numpy(shards):
    paths, values = shards
    out = _stats(paths).to_json()
    assert out["records"] == out["examples"] == SHARDS * PER_SHARD
    score = np.array([v["score"] for v in values], dtype=np.float32).astype(np.float64)
    s = out["features"]["score"]["numeric"]
    assert s["count"] == len(score)
    assert s["min"] == score.min() and s["max"] == score.max()
    assert math.isclose(s["mean"], score.mean(), rel_tol=1e-12)
    assert math.isclose(s["std"], score.std(), rel_tol=1e-9)
    for q, got in s["quantiles"].items():
        assert got == pytest.approx(np.quantile(score, float(q)), abs=1e-12)
    edges = np.array(s["histogram"]["edges"])
    assert s["histogram"]["counts"] == np.histogram(score, edges)[0].tolist()

    tags = out["features"]["tags"]
    lengths = Counter(len(v["tags"]) for v in values)
    assert tags["present"] == len(values)  # an empty list is still a present key
    assert tags["value_counts"]["per_record"] == {str(k): n for k, n in sorted(lengths.items())}
    flat = np.concatenate([v["tags"] for v in values])
    assert tags["numeric"]["count"] == len(flat)
    assert tags["numeric"]["zeros"] == int((flat == 0).sum())
    assert tags["numeric"]["mean"] == pytest.approx(flat.mean(), rel=1e-12)

    name = out["features"]["name"]["bytes"]
    assert dict(name["top"]) == Counter(v["name"] for v in values)
    assert name["distinct"] == 3
    assert out["classes"]["classes"] == [
        {"id": i, "text": None, "count": sum(v["label"] == i for v in values)} for i in range(5)
    ]


def test_image_figures_come_from_the_headers(shards):
    paths, values = shards
    img = _stats(paths).to_json()["features"]["image/encoded"]
    images = [v["image"] for v in values if v["image"] is not None]
    assert img["presence"] == pytest.approx(len(images) / len(values))
    widths = [16 + n % 7 for n in range(0, len(values), 10)]
    assert img["images"]["formats"] == {"jpeg": len(images)}
    assert img["images"]["modes"] == {"RGB": len(images)}
    assert img["images"]["width"]["min"] == min(widths)
    assert img["images"]["width"]["mean"] == pytest.approx(np.mean(widths))
    assert img["images"]["undecodable"] == 0


def _same(a: dict, b: dict) -> None:
    """Equal JSON, floats compared to rounding (sums merged in another order)."""
    assert a.keys() == b.keys()
    for k in a:
        if isinstance(a[k], dict):
            _same(a[k], b[k])
        elif isinstance(a[k], float):
            assert a[k] == pytest.approx(b[k], rel=1e-9, abs=1e-12), k
        else:
            assert a[k] == b[k], k


def test_per_shard_statistics_merge_to_one_pass(shards, monkeypatch):
    monkeypatch.setattr(sketch, "SAMPLE_SIZE", 97)  # force sampled quantiles
    paths, _ = shards
    whole = _stats(paths).to_json()
    with Dataset(paths) as ds:
        ds.index()
        parts = [file_stats(ds, n) for n in range(SHARDS)]
    left = parts[0].merge(parts[1]).merge(parts[2])  # ((a b) c)
    with Dataset(paths) as ds:
        ds.index()
        a, b, c = (file_stats(ds, n) for n in range(SHARDS))
    right = a.merge(b.merge(c))  # (a (b c))
    _same(whole, left.to_json())
    _same(whole, right.to_json())
    assert whole["features"]["score"]["numeric"]["histogram"]["sampled"]


def test_sampled_quantiles_stay_close(shards, monkeypatch):
    monkeypatch.setattr(sketch, "SAMPLE_SIZE", 400)
    paths, values = shards
    score = np.array([v["score"] for v in values], dtype=np.float32)
    s = _stats(paths).to_json()["features"]["score"]["numeric"]
    assert s["histogram"]["sampled"]
    assert sum(s["histogram"]["counts"]) == pytest.approx(len(score), rel=0.01)
    assert s["quantiles"]["0.5"] == pytest.approx(np.median(score), abs=0.5)


def test_cli_prints_json_and_a_report(shards):
    paths, _ = shards
    run = [sys.executable, "-m", "tfr_viewer", "stats"]
    out = subprocess.run([*run, "--json", *paths], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["records"] == SHARDS * PER_SHARD and "score" in doc["features"]
    text = subprocess.run([*run, *paths], capture_output=True, text=True)
    assert text.returncode == 0, text.stderr
    assert "900 records in 3 files" in text.stdout
    assert "images: jpeg 90" in text.stdout


def test_damaged_records_are_counted_and_skipped(shards, tmp_path):
    paths, _ = shards
    data = bytearray(open(paths[0], "rb").read())
    data[40] ^= 0xFF  # inside the first record's payload
    bad = tmp_path / "bad.tfrecord"
    bad.write_bytes(bytes(data))
    out = _stats([str(bad)]).to_json()
    assert out["damaged"] == 1 and out["records"] == PER_SHARD
    assert out["features"]["label"]["present"] == PER_SHARD - 1


def test_statistics_of_a_dataset_with_every_fault(tmp_path):
    """Faulty records are counted where they can be and never break the pass: a record
    whose box lists differ in length adds no boxes."""
    from tests.planted_faults import RECORDS, planted_dataset

    path = tmp_path / "faulty.tfrecord"
    planted_dataset(path)
    out = _stats([str(path)]).to_json()
    assert out["records"] == RECORDS and out["damaged"] == 1
    boxes = out["boxes"]["per_image"]
    # damaged (18), empty (14) and unequal box lists (5) have no boxes counted
    assert boxes["count"] == RECORDS - 3 and boxes["max"] == 1
    classes = {(c["id"], c["text"]): c["count"] for c in out["object_classes"]["classes"]}
    assert classes[(0, "background")] == 1 and classes[(7, "circle")] == 1


def test_statistics_are_a_function_of_the_data_only(tmp_path):
    """A feature with more than 65,536 values (sampled for quantiles and histograms):
    the same JSON, byte for byte, for the path spelled relatively, absolutely or from
    its own folder, through a symlink, with --jobs 2, and with the cache cold or warm."""
    import os
    import subprocess
    import sys

    from tests.tf_oracle import tf_write
    from tfr_viewer.core.write import build_example

    data = tmp_path / "data"
    data.mkdir()
    rng = np.random.default_rng(5)
    payloads = [
        build_example({"label": rng.integers(0, 10, 40).tolist(), "score": rng.random(3).tolist()})
        for _ in range(4000)
    ]  # 160,000 labels
    tf_write(data / "big.tfrecord", payloads)
    os.symlink(data / "big.tfrecord", tmp_path / "link.tfrecord")
    env = {**os.environ, "TFR_VIEWER_CACHE_DIR": str(tmp_path / "cache")}
    env["TFR_VIEWER_CACHE_MIN_BYTES"] = "0"

    def stats(spec, cwd, *extra):
        done = subprocess.run(
            [sys.executable, "-m", "tfr_viewer", "stats", spec, "--json", *extra],
            capture_output=True,
            text=True,
            cwd=cwd,
            env={**env, "PYTHONPATH": os.getcwd()},
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    first = stats("data/big.tfrecord", tmp_path, "--no-cache")
    runs = {
        "absolute": stats(str(data / "big.tfrecord"), "/"),
        "own folder": stats("big.tfrecord", data),
        "symlink": stats("link.tfrecord", tmp_path),
        "cached": stats("data/big.tfrecord", tmp_path),
        "jobs 2": stats("./data/../data/big.tfrecord", tmp_path, "--jobs", "2"),
    }
    for how, text in runs.items():
        assert text == first, how
    label = json.loads(first)["features"]["label"]["numeric"]
    assert label["count"] == 160_000


def int_dataset(tmp_path):
    """ids past 2**53, the int64 extremes and Unix times, written by TensorFlow."""
    from tfr_viewer.core.write import build_example

    ids = [2**53 + 1, 2**53 + 3, 2**62 + 7]
    payloads = [
        build_example({"id": [i], "extreme": [-(2**63), 2**63 - 1], "ts": [1357000000 + 240 * n]})
        for n, i in enumerate(ids)
    ]
    return tf_write(tmp_path / "ints.tfrecord", payloads)


def test_int64_statistics_stay_integers(tmp_path):
    """min, max and quantiles are the int64 values TensorFlow parses, never rounded to
    float64; the mean is exact before it is printed; the text has no 1.357e+09."""
    path = int_dataset(tmp_path)
    parsed = [
        tf().train.Example.FromString(r.numpy()).features.feature
        for r in tf().data.TFRecordDataset(str(path))
    ]
    tf_ids = [f["id"].int64_list.value[0] for f in parsed]
    run = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "stats", str(path), "--json", "--no-cache"],
        capture_output=True,
        text=True,
    )
    features = json.loads(run.stdout)["features"]
    ids = features["id"]["numeric"]
    assert (ids["min"], ids["max"]) == (min(tf_ids), max(tf_ids))
    assert all(isinstance(v, int) for v in ids["quantiles"].values())
    assert set(ids["quantiles"].values()) <= set(tf_ids)
    assert ids["quantiles"]["0.5"] == sorted(tf_ids)[1]
    extreme = features["extreme"]["numeric"]
    assert (extreme["min"], extreme["max"], extreme["mean"]) == (-(2**63), 2**63 - 1, -0.5)
    text = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "stats", str(path), "--no-cache"],
        capture_output=True,
        text=True,
    ).stdout
    assert "e+" not in text, text
    assert "min 1357000000  mean 1357000240  max 1357000480" in text
    assert f"min {2**53 + 1}" in text


def test_statistics_of_a_header_indexed_file_check_its_crcs_as_they_read(remote_root, monkeypatch):
    """A header-only index (every payload unverified) gives the statistics of a verified
    one: the CRCs are checked in the bytes read for the figures, the damaged record is
    counted as damaged, and the index ends with the statuses a verifying scan gives."""
    from tfr_viewer.core.analyze.stats import dataset_stats
    from tfr_viewer.core.io import Dataset

    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    paths = [str(remote_root / n) for n in ("damaged.tfrecord", "big.tfrecord")]
    with Dataset(paths) as verified:
        verified.index(verify=True)
        want = json.dumps(dataset_stats(verified).to_json(), sort_keys=True)
        statuses = [f.index.statuses().tolist() for f in verified.files]
    with Dataset(paths) as hopped:
        hopped.index(verify=False)
        assert all(not f.index.verified for f in hopped.files)
        got = json.dumps(dataset_stats(hopped).to_json(), sort_keys=True)
        assert got == want
        assert [f.index.statuses().tolist() for f in hopped.files] == statuses
        assert all(f.index.verified for f in hopped.files)
    assert json.loads(want)["damaged"] >= 1
