"""``sql`` at scale, in one run: a group-by over the boxes of a detection set of many
gigabytes, cold, against ``cat`` reading the set cold right before it; a ``WHERE`` on a
feature over its pictures, its rows left out before DuckDB sees them, against the same
``WHERE`` in a form left to DuckDB alone; and a group-by
over 1M small Examples, warm, against TensorFlow parsing them into pandas and grouping
there.

Usage: ``python tests/benchmarks/sql_benchmarks.py [--data DIR] [--gb 16] [--shards 64]
[--records N] [--keep]``. The detection set is :mod:`scale_benchmarks`' (Object
Detection API records of about 256 KB), written into DIR (default: a folder under the
system's temporary folder) and reused while it is there; the page cache is dropped
before each cold run (root only: the figures are warm otherwise, and said so)."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scale_benchmarks import cat_cold, cold, drop_cache, make_set  # noqa: E402

BOXES = (
    'SELECT c, count(*) AS boxes FROM (SELECT unnest("image/object/class/label") AS c '
    "FROM records) GROUP BY c ORDER BY c"
)
PICKED = (
    'SELECT count(*) AS n, sum(octet_length("image/encoded"[1])) AS bytes FROM records '
    'WHERE "image/object/class/label"[1] = 3'
)
UNPICKED = PICKED.replace("[1] = 3", "[1] + 0 = 3")  # the same rows, the filter DuckDB's alone
SMALL = "SELECT label[1] AS label, count(*) AS n, avg(score[1]) AS score FROM records GROUP BY 1"

TF_PANDAS = """
import os, sys, time
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import pandas as pd
import tensorflow as tf
spec = {
    "label": tf.io.FixedLenFeature([], tf.int64),
    "score": tf.io.FixedLenFeature([], tf.float32),
}
rows = tf.data.TFRecordDataset(sys.argv[1]).batch(4096).map(
    lambda b: tf.io.parse_example(b, spec), num_parallel_calls=tf.data.AUTOTUNE)
parts = [pd.DataFrame({k: v.numpy() for k, v in b.items()}) for b in rows]
frame = pd.concat(parts)
print(frame.groupby("label").agg(n=("label", "size"), score=("score", "mean")).shape[0])
"""


def small_set(folder: Path, records: int) -> Path:
    """``records`` Examples of a label, a score and a few bytes (reused when there)."""
    from tfr_viewer.core.io import write_records
    from tfr_viewer.core.write.build import build_example

    path = folder / f"small-{records}.tfrecord"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        write_records(
            path,
            (
                build_example({"label": i % 10, "score": [i % 97 / 8], "name": f"n{i % 13}"})
                for i in range(records)
            ),
        )
    return path


def timed(argv: list[str], env: dict[str, str]) -> float:
    began = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{argv[:4]} failed: {done.stderr[-2000:]}")
    return time.perf_counter() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path)
    parser.add_argument("--gb", type=float, default=16.0)
    parser.add_argument("--shards", type=int, default=64)
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    folder = args.data or Path(tempfile.gettempdir()) / "tfr-viewer-scale"
    env = {**os.environ, "TFR_VIEWER_NO_CACHE": "1"}
    tool = [sys.executable, "-m", "tfr_viewer", "sql"]
    rows = []
    try:
        paths = make_set(folder, args.gb, args.shards)
        size = sum(p.stat().st_size for p in paths) / 1e9
        if not drop_cache():
            print("the page cache cannot be dropped here (not root): the figures are warm")
        cat = cat_cold(paths)
        took, _ = cold([*tool, BOXES, str(folder / "train-*")], env)
        rows.append(
            (f"`sql` group-by over the boxes of a {size:.1f} GB detection set, cold",
             f"{took:.2f} s", f"`cat` {cat:.2f} s", f"{took / cat:.2f}x", "<= 1.3x")
        )  # fmt: skip
        picked, _ = cold([*tool, PICKED, str(folder / "train-*")], env)
        unpicked, _ = cold([*tool, UNPICKED, str(folder / "train-*")], env)
        rows.append(
            (f"`sql` of the pictures whose first box is of class 3, {size:.1f} GB, cold",
             f"{picked:.2f} s", f"the same WHERE left to DuckDB alone: {unpicked:.2f} s",
             f"{unpicked / picked:.1f}x faster", "faster")
        )  # fmt: skip
        small = small_set(folder, args.records)
        timed([*tool, SMALL, str(small)], env)  # warm: the file in the page cache
        ours = timed([*tool, SMALL, str(small)], env)
        theirs = timed([sys.executable, "-c", TF_PANDAS, str(small)], env)
        rows.append(
            (f"`sql` group-by over {args.records:,} small Examples, warm",
             f"{ours:.2f} s", f"TensorFlow parsing them into pandas, grouped: {theirs:.2f} s",
             f"{theirs / ours:.1f}x faster", ">= 5x faster")
        )  # fmt: skip
    finally:
        if not args.keep and args.data is None:
            shutil.rmtree(folder, ignore_errors=True)
    print("| work | tfr-viewer | against | ratio | target |\n|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
