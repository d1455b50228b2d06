"""TensorBoard event files at scale: a generated event file of about 2 GB (100 scalar
tags logged at every one of a million steps, as TensorFlow 1 writes them: one event a
step holding a ``simple_value`` a tag), read for its tag table (``runs --json``) and its
scalar export (``scalars -o FILE.parquet``), cold, against ``cat`` of the same file cold
just before, in one run; and the same reading of a part of it against TensorBoard's own
loader (``EventAccumulator`` keeping every point: on the whole file it would hold a
hundred million Python objects); and the window's first curve of the file, cold
(:mod:`first_curve`).

Usage: ``python tests/benchmarks/event_benchmarks.py [--data DIR] [--steps N]
[--tags N] [--part N] [--rounds N] [--keep]``. The file is written into DIR (default: a folder
under the system's temporary folder) once and reused while it is there; without
``--keep`` it is deleted afterwards. Dropping the page cache needs root; where it
cannot be dropped the benchmark says so and its figures are warm.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from tests.benchmarks.scale_benchmarks import cold, drop_cache  # noqa: E402


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _summary_template(tags: int) -> tuple[bytes, list[int]]:
    """A summary of ``tags`` simple values (zeros), and where each value's float is."""
    parts, where, at = [], [], 0
    for i in range(tags):
        tag = f"g{i // 10}/metric{i % 10}".encode()
        value = b"\x0a" + _varint(len(tag)) + tag + b"\x15" + bytes(4)
        entry = b"\x0a" + _varint(len(value)) + value
        where.append(at + len(entry) - 4)
        parts.append(entry)
        at += len(entry)
    return b"".join(parts), where


def write_events(path: Path, steps: int, tags: int, start: int = 0) -> None:
    """An event file: a file version, then one summary event a step of ``tags`` simple
    values (wall time a second a step from a fixed moment, values a seeded walk),
    written in blocks of steps of one width at a time."""
    from tfr_viewer.core.crc32c import value as crc32c
    from tfr_viewer.core.io.framing import encode_frame, mask

    summary, where = _summary_template(tags)
    rng = np.random.default_rng(5)
    with open(path, "wb") as out:
        version = b"\x09" + struct.pack("<d", 1.7e9) + b"\x1a\x0dbrain.Event:2"
        out.write(encode_frame(version))
        step = start
        while step < start + steps:
            width = len(_varint(step))
            stop = min(start + steps, 128**width, step + 20_000)
            n = stop - step
            head_len = 9 + 1 + width + 1 + len(_varint(len(summary)))
            data = np.zeros((n, head_len + len(summary)), dtype=np.uint8)
            data[:, 0] = 0x09
            walls = 1.7e9 + np.arange(step, stop, dtype=np.float64)
            data[:, 1:9] = walls.view(np.uint8).reshape(n, 8)
            data[:, 9] = 0x10
            numbers = np.arange(step, stop, dtype=np.int64)
            for k in range(width):
                byte = (numbers >> (7 * k)) & 0x7F
                data[:, 10 + k] = byte | (0x80 if k < width - 1 else 0)
            lead = b"\x2a" + _varint(len(summary))
            data[:, 10 + width : head_len] = np.frombuffer(lead, dtype=np.uint8)
            data[:, head_len:] = np.frombuffer(summary, dtype=np.uint8)
            values = rng.normal(size=(n, tags)).astype(np.float32).cumsum(axis=0)
            for i, at in enumerate(where):
                data[:, head_len + at : head_len + at + 4] = values[:, i : i + 1].view(np.uint8)
            length = data.shape[1]
            size = struct.pack("<Q", length)
            header = np.frombuffer(size + struct.pack("<I", mask(crc32c(size))), dtype=np.uint8)
            frames = np.zeros((n, 12 + length + 4), dtype=np.uint8)
            frames[:, :12] = header
            frames[:, 12 : 12 + length] = data
            crcs = np.array([mask(crc32c(row)) for row in data], dtype="<u4")
            frames[:, 12 + length :] = crcs.view(np.uint8).reshape(n, 4)
            frames.tofile(out)
            step = stop


def event_file(data: Path, steps: int, tags: int) -> Path:
    folder = data / "logs" / "train"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"events.out.tfevents.1700000000.bench.{steps}.{tags}"
    if not path.exists():
        partial = path.with_suffix(".partial")
        write_events(partial, steps, tags)
        partial.rename(path)
    return path


def tool(*argv: str) -> list[str]:
    return [sys.executable, "-m", "tfr_viewer", *argv]


def cat_cold(path: Path) -> float:
    """Seconds for ``cat`` to read the file, cold: taken right before each run of a
    command, since a virtual machine's cold reads drift from minute to minute (the
    medians of several such pairs are compared)."""
    return cold(["sh", "-c", 'cat "$1" > /dev/null', "cat", str(path)])[0]


def warm(argv: list[str]) -> float:
    began = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=NO_CACHE)
    return time.perf_counter() - began


NO_CACHE = {**os.environ, "TFR_VIEWER_NO_CACHE": "1"}  # each command indexes for itself


def tensorboard_seconds(path: Path) -> float:
    """Seconds TensorBoard's loader takes to load every scalar point of ``path``'s run."""
    code = (
        "from tensorboard.backend.event_processing.event_accumulator import EventAccumulator;"
        f"a = EventAccumulator({str(path.parent)!r}, size_guidance={{'scalars': 0}});"
        "a.Reload(); print(sum(len(a.Scalars(t)) for t in a.Tags()['scalars']))"
    )
    return warm([sys.executable, "-c", code])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--steps", type=int, default=1_000_000)
    parser.add_argument("--tags", type=int, default=100)
    parser.add_argument("--part", type=int, default=20_000, help="steps TensorBoard loads")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument(
        "--rounds", type=int, default=5, help="cold runs of each command and of cat"
    )
    args = parser.parse_args()
    data = args.data or Path(tempfile.gettempdir()) / "tfr-viewer-bench" / "events"
    data.mkdir(parents=True, exist_ok=True)
    try:
        path = event_file(data, args.steps, args.tags)
        size = path.stat().st_size
        if not drop_cache():
            print("the page cache cannot be dropped here (root is needed): figures are warm")
        out = data / "scalars.parquet"
        rows = []
        for name, argv in (
            ("tag table: `runs --json`", tool("runs", "--json", str(path))),
            (
                "scalar export: `scalars -o scalars.parquet`",
                tool("scalars", str(path), "-o", str(out), "--overwrite", "--json"),
            ),
        ):
            cats, tooks = [], []
            for _ in range(args.rounds):  # cat, then the command, each cold, in turn
                cats.append(cat_cold(path))
                tooks.append(cold(argv, NO_CACHE)[0])
            rows.append((name, statistics.median(tooks), statistics.median(cats)))
        curves = []
        for _ in range(args.rounds):
            _, shown = cold(
                [sys.executable, str(ROOT / "tests" / "benchmarks" / "first_curve.py"), str(path)]
            )
            curves.append([float(x) for x in shown.stdout.split()[-4:]])
        first, whole, _points, stall = (statistics.median(c) for c in zip(*curves, strict=True))
        part_dir = data / "part" / "train"
        part_dir.mkdir(parents=True, exist_ok=True)
        part = part_dir / "events.out.tfevents.1700000000.part"
        if not part.exists():
            write_events(part, args.part, args.tags)
        ours = warm(tool("scalars", str(part), "-o", str(data / "part.parquet"), "--overwrite"))
        theirs = tensorboard_seconds(part)
        print("| event files at scale | measured | target |\n|---|---|---|")
        for name, took, cat in rows:
            print(
                f"| {name}, one event file of {size / 1e9:.2f} GB ({args.steps:,} steps × "
                f"{args.tags} scalar tags), cold, medians of {args.rounds} runs each | "
                f"{took:.2f} s, `cat` {cat:.2f} s: {took / cat:.2f}x | <= 1.3x |"
            )
        print(
            f"| the window's first curve after it is asked to open the file, cold (the "
            f"Runs dock reads the file as it is indexed), medians of {args.rounds} runs | "
            f"{first:.2f} s; every point read in {whole:.1f} s, the window pausing "
            f"{stall:.0f} ms at most | <= 1 s |"
        )
        print(
            f"| `scalars -o` of {args.part:,} steps × {args.tags} tags "
            f"({part.stat().st_size / 1e6:.0f} MB), warm, against TensorBoard's "
            f"`EventAccumulator` keeping every point | {ours:.2f} s against {theirs:.2f} s: "
            f"{theirs / ours:.1f}x faster | >= 10x |"
        )
    finally:
        if not args.keep and args.data is None:
            shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
