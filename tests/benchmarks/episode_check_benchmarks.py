"""The episode checks at scale: ``check`` of an RLDS dataset of about 5 GB that
TensorFlow Datasets writes (robot episodes of 100 steps, four 256×256 JPEG cameras, a
7-number action, three instructions), cold, against ``cat`` reading the same bytes cold
just before, in one run.

The checks read every byte (each step picture is hashed and its header read) and decode
some pictures whole: the camera checks' six a camera and episode, which the record
checks decode too. That decoding is stated on its own: the same pictures decoded in
this process, one after another, timed, so the ratio to ``cat`` is given with and
without it.

Usage: ``python tests/benchmarks/episode_check_benchmarks.py [--data DIR] [--episodes
N] [--keep]``. The dataset is written into DIR (default: a folder under the system's
temporary folder) by TFDS once and reused while it is there; without ``--keep`` it is
deleted afterwards. Dropping the page cache needs root; where it cannot be dropped the
benchmark says so and its figures are warm.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from tests.benchmarks.scale_benchmarks import cold, drop_cache  # noqa: E402

CAMERAS = ("image", "wrist_image", "left_image", "right_image")
INSTRUCTIONS = ("pick up the red cup", "open the drawer", "push the block to the left")


def dataset(data: Path, episodes: int) -> Path:
    """The TFDS folder of ``episodes`` episodes under ``data`` (written once)."""
    from tests.rlds_data import Planned, Shape, write_rlds

    folder = data / "robot_debug" / "1.0.0"
    if not (folder / "dataset_info.json").exists():
        plans = [Planned(100, INSTRUCTIONS[n % 3], seed=n) for n in range(episodes)]
        write_rlds(data, {"train": plans}, Shape(cameras=CAMERAS, size=256))
    return folder


def sampled_decode_seconds(shards: list[Path]) -> tuple[float, float, int]:
    """Seconds of the work the checks do on the pictures they decode whole (each
    camera's judged steps of each episode, twice: the record checks' verdict and
    scores, the camera checks' look), done by the same functions on the process's image
    threads (one a core, as the checks do it) and on one thread, and how many decodes."""
    from tfr_viewer.core.decode.episodes import judged_steps
    from tfr_viewer.core.decode.keyed_read import example_features
    from tfr_viewer.core.io import Dataset

    pictures = []
    with Dataset([str(p) for p in shards]) as ds:
        ds.index(verify=False)
        for record in range(len(ds)):
            features = example_features(ds.read(record)) or {}
            for camera in CAMERAS:
                values = features[f"steps/observation/{camera}"].bytes_list.value
                pictures += [values[s] for s in judged_steps(len(values))]
    from tfr_viewer.core.analyze.episode_checks import _judged
    from tfr_viewer.core.analyze.image_quality import judge_and_score
    from tfr_viewer.core.decode.image_verdict import image_pool

    def both(data: bytes) -> None:
        judge_and_score(data)
        _judged(data)

    t0 = time.perf_counter()
    list(image_pool().map(both, pictures))
    pooled = time.perf_counter() - t0
    t0 = time.perf_counter()
    for data in pictures:
        both(data)
    return pooled, time.perf_counter() - t0, len(pictures) * 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path)
    parser.add_argument("--episodes", type=int, default=320)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    data = args.data or Path(tempfile.gettempdir()) / "tfr-viewer-bench" / "episode-checks"
    data.mkdir(parents=True, exist_ok=True)
    try:
        folder = dataset(data, args.episodes)
        shards = sorted(folder.glob("*.tfrecord-*"))
        size = sum(p.stat().st_size for p in shards)
        if not drop_cache():
            print("the page cache cannot be dropped here (root is needed): figures are warm")
        cat, _ = cold(["sh", "-c", 'cat "$@" > /dev/null', "cat", *map(str, shards)])
        took, done = cold(
            [sys.executable, "-m", "tfr_viewer", "check", "--json", "--no-cache", str(folder)]
        )
        report = json.loads(done.stdout)
        decode, alone, decoded = sampled_decode_seconds(shards)
        cores = os.cpu_count() or 1
        print(
            f"| episode checks at scale | measured | target |\n|---|---|---|\n"
            f"| `check --json`, {size / 1e9:.2f} GB of {report['records']} episodes "
            f"(four 256×256 cameras, 100 steps), cold | {took:.2f} s, `cat` {cat:.2f} s: "
            f"{took / cat:.2f}x | <= 1.3x + decoding |\n"
            f"| of which decoding (and scoring) the {decoded:,} pictures judged, timed alone "
            f"on {cores} threads ({alone:.2f} s on one) | {decode:.2f} s; without it "
            f"{(took - decode) / cat:.2f}x | <= 1.3x |"
        )
    finally:
        if not args.keep and args.data is None:
            shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
