"""Comparison: a shifted copy exceeds the threshold, an identically distributed one
does not, and images found in both datasets are named."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import numpy as np
import pytest

from tests.tf_oracle import tf, tf_write
from tfr_viewer.core.analyze.compare import compare, js_divergence, linf
from tfr_viewer.core.io.dataset import Dataset

N = 2000


def _jpeg(seed: int, quality: int = 90) -> bytes:
    from PIL import Image

    rng = np.random.default_rng(seed)
    small = rng.integers(0, 256, (7, 9, 3))
    pixels = np.repeat(np.repeat(small, 8, 0), 8, 1).astype(np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "JPEG", quality=quality)
    return out.getvalue()


def _examples(seed: int, shift: float = 0.0, skew: bool = False, images=None, extra=False):
    t = tf().train
    rng = np.random.default_rng(seed)
    images = images or {}
    for i in range(N):
        label = int(rng.integers(0, 2)) if skew else int(rng.integers(0, 5))
        feature = {
            "score": t.Feature(float_list=t.FloatList(value=[rng.normal(shift, 1.0)])),
            "label": t.Feature(int64_list=t.Int64List(value=[label])),
            "name": t.Feature(bytes_list=t.BytesList(value=[[b"a", b"b", b"c"][i % 3]])),
        }
        if i in images:
            feature["image"] = t.Feature(bytes_list=t.BytesList(value=[images[i]]))
        if extra:
            feature["extra"] = t.Feature(int64_list=t.Int64List(value=[1]))
        yield t.Example(features=t.Features(feature=feature)).SerializeToString()


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("compare")
    a_images = {3: _jpeg(3), 7: _jpeg(7), 9: _jpeg(9)}
    b_images = {10: a_images[3], 12: _jpeg(7, quality=60), 14: _jpeg(14)}
    a = tf_write(folder / "a.tfrecord", _examples(1, images=a_images))
    same = tf_write(folder / "same.tfrecord", _examples(2, images=b_images, extra=True))
    shifted = tf_write(folder / "shifted.tfrecord", _examples(3, shift=1.0, skew=True))
    return a, same, shifted


def _compare(a, b, **kw):
    with Dataset([str(a)]) as da, Dataset([str(b)]) as db:
        da.index()
        db.index()
        return compare(da, db, **kw)


def test_distances_on_known_distributions():
    assert linf({"x": 1, "y": 1}, {"x": 3, "y": 1}) == pytest.approx(0.25)
    assert js_divergence([1, 0], [0, 1]) == pytest.approx(1.0)
    assert js_divergence([5, 5], [1, 1]) == 0.0


def test_an_identically_distributed_dataset_passes_when_leaks_are_allowed(files):
    a, same, _ = files
    out = _compare(a, same, allow_leaks=True)
    assert not out["failed"] and out["exceeded"] == [] and out["reasons"] == []
    f = out["features"]
    assert f["label"]["type"] == "categorical" and f["label"]["linf"] < 0.05
    assert f["score"]["type"] == "numeric" and f["score"]["js"] < 0.05
    assert f["name"]["linf"] == 0.0  # the same shares
    assert out["only_in_b"] == ["extra"] and out["only_in_a"] == []


def test_a_shifted_dataset_exceeds_the_threshold(files):
    a, _, shifted = files
    out = _compare(a, shifted)
    assert out["failed"]
    assert set(out["exceeded"]) == {"score", "label"}
    assert out["features"]["label"]["linf"] > 0.25  # 20% per class against 50%
    assert out["classes"]["rows"][0] == {
        "id": 0,
        "text": None,
        "a": pytest.approx(N / 5, rel=0.15),
        "b": pytest.approx(N / 2, rel=0.1),
    }


def test_images_in_both_are_named(files):
    a, same, _ = files
    leaks = _compare(a, same)["leaks"]
    assert [(x["a"]["record"], x["b"]["record"]) for x in leaks["exact"]] == [(3, 10)]
    assert [(x["a"]["record"], x["b"]["record"]) for x in leaks["near"]] == [(7, 12)]
    assert leaks["exact"][0]["b"]["file"] == str(same)


def test_images_in_both_fail_the_comparison(files):
    a, same, _ = files
    out = _compare(a, same)
    assert out["failed"] and out["exceeded"] == []
    assert out["reasons"] == [
        "1 identical and 1 nearly identical image(s) in both datasets: leakage across "
        "splits (--allow-leaks to pass anyway)"
    ]


def test_datasets_that_share_no_feature_fail(tmp_path):
    t = tf().train

    def one(key: str) -> bytes:
        feature = {key: t.Feature(int64_list=t.Int64List(value=[1]))}
        return t.Example(features=t.Features(feature=feature)).SerializeToString()

    a = tf_write(tmp_path / "a.tfrecord", [one("label")] * 10)
    b = tf_write(tmp_path / "b.tfrecord", [one("target")] * 10)
    out = _compare(a, b, allow_leaks=True)
    assert out["failed"] and out["features"] == {}
    assert out["reasons"] == ["the datasets share no feature: they cannot be compared"]
    run = [sys.executable, "-m", "tfr_viewer", "compare", str(a), "--against", str(b)]
    cli = subprocess.run(run, capture_output=True, text=True)
    assert cli.returncode == 1 and "FAILED: the datasets share no feature" in cli.stdout


def test_compare_from_the_command_line(files):
    a, same, shifted = files
    run = [sys.executable, "-m", "tfr_viewer", "compare"]
    leaky = subprocess.run([*run, str(a), "--against", str(same)], capture_output=True, text=True)
    assert leaky.returncode == 1, leaky.stderr
    assert "leak (exact): A record 3 and B record 10" in leaky.stdout
    assert "2 images in both; FAILED: 1 identical and 1 nearly identical" in leaky.stdout
    ok = subprocess.run(
        [*run, str(a), "--against", str(same), "--allow-leaks"], capture_output=True, text=True
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.rstrip().endswith("2 images in both; passed")
    bad = subprocess.run(
        [*run, "--json", str(a), "--against", str(shifted)], capture_output=True, text=True
    )
    assert bad.returncode == 1
    assert set(json.loads(bad.stdout)["exceeded"]) == {"score", "label"}
    loose = subprocess.run(
        [*run, str(a), "--against", str(shifted), "--threshold", "0.9", "--allow-leaks"],
        capture_output=True,
        text=True,
    )
    assert loose.returncode == 0, loose.stdout
