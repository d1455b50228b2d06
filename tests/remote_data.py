"""TensorFlow-written files served over loopback for the remote tests: small Examples
(plain, GZIP, ZLIB, three shards), 258 KB records, and damaged copies."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from tests.tf_oracle import tf, tf_write


def example(i: int, blob: int = 0) -> bytes:
    feature = tf().train.Feature
    features = {
        "label": feature(int64_list=tf().train.Int64List(value=[i % 7])),
        "score": feature(float_list=tf().train.FloatList(value=[i / 10])),
        "name": feature(bytes_list=tf().train.BytesList(value=[f"item {i}".encode()])),
    }
    if blob:
        data = random.Random(i).randbytes(blob)
        features["image/encoded"] = feature(bytes_list=tf().train.BytesList(value=[data]))
    return tf().train.Example(features=tf().train.Features(feature=features)).SerializeToString()


def build(root: Path) -> Path:
    """Write the files into ``root`` (once) and return it."""
    if (root / "done").exists():
        return root
    root.mkdir(parents=True, exist_ok=True)
    small = [example(i) for i in range(3000)]
    tf_write(root / "small.tfrecord", small)
    tf_write(root / "small.tfrecord.gz", small, "gzip")
    tf_write(root / "small.tfrecord.zz", small, "zlib")
    for k in range(3):
        tf_write(root / f"train-{k:05d}-of-00003", small[k * 1000 : (k + 1) * 1000])
    tf_write(root / "big.tfrecord", [example(i, 258_000) for i in range(60)])
    tf_write(root / "empty.tfrecord", [])
    # damage: a payload byte flipped, a header broken, and the tail cut off
    data = bytearray((root / "big.tfrecord").read_bytes())
    offsets = [0]
    while offsets[-1] < len(data):
        offsets.append(
            offsets[-1] + 16 + int.from_bytes(data[offsets[-1] : offsets[-1] + 8], "little")
        )
    data[offsets[5] + 100] ^= 0xFF  # inside record 5's payload
    data[offsets[20] + 2] ^= 0xFF  # record 20's length
    (root / "damaged.tfrecord").write_bytes(bytes(data[: offsets[59] + 1000]))
    (root / "done").write_text("")
    return root


@pytest.fixture(scope="session")
def remote_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.getbasetemp() / "remote-data")


@pytest.fixture
def server(remote_root: Path):
    from tests.remote_server import serving

    with serving(remote_root) as srv:
        yield srv


@pytest.fixture
def no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")


def size_of(root: Path, name: str) -> int:
    return os.path.getsize(root / name)
