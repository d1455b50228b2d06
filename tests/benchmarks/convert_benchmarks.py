"""Benchmarks of ``convert`` against the TensorFlow tutorial script, in the same run.

Usage: ``python tests/benchmarks/convert_benchmarks.py [--data DIR] [--only NAME ...]``.
The tutorial script reads each file, decodes it for its shape, builds a
``tf.train.Example`` and writes it with ``TFRecordWriter``; ours is the whole
``tfr-viewer convert`` process.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from columnar_benchmarks import cli  # noqa: E402
from qa_benchmarks import IMAGES, photos_file  # noqa: E402
from run_benchmarks import row, run_cli, tf, timed  # noqa: E402

CLASSES = ("cat", "dog", "fish", "bird", "frog")


def class_folders(data: Path) -> Path:
    """5,000 640×480 JPEGs in five class folders (the images of the QA benchmark)."""
    root = data / "photo_folders"
    if (root / "done").exists():
        return root
    from tfr_viewer.core.decode import decode, features_of
    from tfr_viewer.core.io import Dataset

    with Dataset([str(photos_file(data))]) as ds:
        ds.index()
        for i in range(len(ds)):
            folder = root / CLASSES[i % len(CLASSES)]
            folder.mkdir(parents=True, exist_ok=True)
            image = features_of(decode(ds.read(i)).payload)["image/encoded"].values[0]
            (folder / f"{i:05d}.jpg").write_bytes(image)
    (root / "done").write_text("")
    return root


def tf_tutorial(root: Path, out: Path) -> int:
    """The tutorial's way: read, decode for the shape, build the Example, write."""
    t = tf()
    names = sorted(p.name for p in root.iterdir() if p.is_dir())
    n = 0
    with t.io.TFRecordWriter(str(out)) as writer:
        for label, name in enumerate(names):
            for path in sorted((root / name).glob("*.jpg")):
                data = open(path, "rb").read()
                shape = t.io.decode_jpeg(data).shape
                feature = {
                    "height": t.train.Feature(int64_list=t.train.Int64List(value=[shape[0]])),
                    "width": t.train.Feature(int64_list=t.train.Int64List(value=[shape[1]])),
                    "depth": t.train.Feature(int64_list=t.train.Int64List(value=[shape[2]])),
                    "label": t.train.Feature(int64_list=t.train.Int64List(value=[label])),
                    "image_raw": t.train.Feature(bytes_list=t.train.BytesList(value=[data])),
                }
                example = t.train.Example(features=t.train.Features(feature=feature))
                writer.write(example.SerializeToString())
                n += 1
    return n


def bench_folders(data: Path) -> None:
    print(f"convert {IMAGES:,} 640×480 JPEGs in class folders")
    root = class_folders(data)
    out = data / "converted"
    shutil.rmtree(out, ignore_errors=True)
    tf_tutorial(root, data / "tf_tutorial.tfrecord")  # warm-up
    theirs, n = timed(lambda: tf_tutorial(root, data / "tf_tutorial.tfrecord"), repeat=2)
    assert n == IMAGES

    def ours(*extra: str) -> float:
        args = ["convert", str(root), "-o", str(out / "photos.tfrecord"), "--overwrite", *extra]
        t, text = cli(args, repeat=3)
        assert f"{IMAGES:,} images" in text, text
        return t

    row(
        "convert, tutorial layout, whole process (checks off) vs the TF tutorial script",
        ours("--no-check"),
        theirs,
        ">= 3x",
    )
    row("same, with the data-quality checks of the new file", ours(), theirs, "")


def bench_parquet(data: Path) -> None:
    """1,000,000 small Examples to one Parquet file, against TensorFlow parsing the same
    columns (batched ``parse_example``) and pyarrow writing them."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq
    from columnar_benchmarks import small_file

    print("1,000,000 small Examples to Parquet")
    path = small_file(data)
    out = data / "small.parquet"
    t = tf()
    spec = {
        "feature0": t.io.FixedLenFeature([], t.int64),
        "feature1": t.io.FixedLenFeature([], t.int64),
        "feature2": t.io.FixedLenFeature([], t.string),
        "feature3": t.io.FixedLenFeature([], t.float32),
    }

    def tf_way() -> int:
        parts: dict[str, list] = {k: [] for k in spec}
        ds = (
            t.data.TFRecordDataset(str(path)).batch(8192).map(lambda b: t.io.parse_example(b, spec))
        )
        for batch in ds:
            for k, v in batch.items():
                parts[k].append(v.numpy())
        columns = {k: np.concatenate(v) for k, v in parts.items()}
        pq.write_table(pa.table(columns), str(data / "tf_small.parquet"))
        return len(columns["feature0"])

    tf_way()
    theirs, n = timed(tf_way, repeat=2)
    assert n == 1_000_000
    ours, text = cli(["convert", str(path), "-o", str(out), "--overwrite", "--no-cache"], repeat=3)
    assert "1,000,000 rows" in text, text
    row(
        "convert to Parquet, 1M small Examples, whole process vs TF parse_example + pyarrow",
        ours,
        theirs,
        "< 3 s",
    )


BENCHES = {"folders": bench_folders, "parquet": bench_parquet}


def main() -> None:
    run_cli(__doc__, BENCHES)


if __name__ == "__main__":
    main()
