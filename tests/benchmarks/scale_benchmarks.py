"""A shard set of many gigabytes, read cold: tfr-viewer's whole commands against reading
the bytes with ``cat`` (and TensorFlow counting the records), measured in one run.

Usage: ``python tests/benchmarks/scale_benchmarks.py [--data DIR] [--gb 16] [--shards 64]
[--keep] [--only NAME ...]``. The set is Object Detection API records of about 256 KB
(a JPEG of 640×480 with boxes and classes) written into DIR (default: a folder under the
system's temporary folder) and deleted afterwards unless ``--keep``. Before each cold
run the page cache is dropped (``/proc/sys/vm/drop_caches``, which needs root); where
it cannot be, the benchmark says so and its figures are warm.

Each row gives the time of the whole process, the time ``cat`` took to read the set
cold right before it (a virtual machine's cold reads drift from minute to minute, so
each row has its own reference), the ratio of the two and the target; the header-only pass also
gives the bytes the process read from the disk (``read_bytes`` of ``/proc/self/io``) as
a share of the set.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

RECORD_IMAGES = 256  # distinct pictures, used in turn
ROWS: list[tuple[str, str, str, str]] = []
# runs a command of the CLI in this interpreter and prints its /proc/self/io afterwards
_WITH_IO = (
    "import sys; from tfr_viewer.cli import main; code = main(sys.argv[1:]); "
    "sys.stdout.flush(); sys.stderr.write(open('/proc/self/io').read()); sys.exit(code)"
)


def _pictures(count: int) -> list[bytes]:
    from PIL import Image

    rng = np.random.default_rng(1)
    out = []
    for _ in range(count):
        base = rng.integers(0, 255, (60, 80, 3), dtype=np.uint8)
        img = np.asarray(Image.fromarray(base).resize((640, 480), Image.BILINEAR))
        img = np.clip(img.astype(np.int16) + rng.integers(-40, 40, img.shape), 0, 255)
        buf = io.BytesIO()
        Image.fromarray(img.astype(np.uint8)).save(buf, "JPEG", quality=95)
        out.append(buf.getvalue())
    return out


def _examples() -> list[bytes]:
    from tfr_viewer.core.write import build_example

    examples = []
    for k, jpeg in enumerate(_pictures(RECORD_IMAGES)):
        boxes = [0.1 + 0.01 * (k % 7), 0.5]
        examples.append(
            build_example(
                {
                    "image/encoded": [jpeg],
                    "image/format": [b"jpeg"],
                    "image/height": [480],
                    "image/width": [640],
                    "image/source_id": [str(k).encode()],
                    "image/object/bbox/xmin": boxes,
                    "image/object/bbox/xmax": [b + 0.3 for b in boxes],
                    "image/object/bbox/ymin": boxes,
                    "image/object/bbox/ymax": [b + 0.3 for b in boxes],
                    "image/object/class/label": [1 + k % 5, 1 + (k + 1) % 5],
                },
                {
                    "image/object/bbox/xmin": "float",
                    "image/object/bbox/xmax": "float",
                    "image/object/bbox/ymin": "float",
                    "image/object/bbox/ymax": "float",
                },
            )
        )
    return examples


def make_set(folder: Path, gigabytes: float, shards: int) -> list[Path]:
    """Shards ``train-NNNNN-of-MMMMM`` adding up to about ``gigabytes`` (reused when
    there already)."""
    from tfr_viewer.core.io.framing import encode_frame

    names = [folder / f"train-{k:05d}-of-{shards:05d}" for k in range(shards)]
    marker = folder / f"done-{gigabytes:g}-{shards}"
    if marker.exists():
        return names
    folder.mkdir(parents=True, exist_ok=True)
    frames = [encode_frame(e) for e in _examples()]
    per_shard = int(gigabytes * 1e9 / shards / (sum(map(len, frames)) / len(frames)))
    t0 = time.perf_counter()
    n = 0
    for path in names:
        with open(path, "wb") as f:
            for _ in range(per_shard):
                f.write(frames[n % len(frames)])
                n += 1
    total = sum(p.stat().st_size for p in names)
    print(
        f"made {shards} shards, {n:,} records, {total / 1e9:.1f} GB in "
        f"{time.perf_counter() - t0:.0f} s",
        flush=True,
    )
    marker.write_text("")
    return names


def drop_cache() -> bool:
    try:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
        return True
    except OSError:
        return False


def cold(argv: list[str], env: dict | None = None) -> tuple[float, subprocess.CompletedProcess]:
    """The whole process ``argv``, timed, after dropping the page cache."""
    drop_cache()
    t0 = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env)
    took = time.perf_counter() - t0
    if done.returncode not in (0, 1):
        raise SystemExit(f"{argv[:4]} failed: {done.stderr[-2000:]}")
    return took, done


def ours(*args: str) -> list[str]:
    return [sys.executable, "-c", _WITH_IO, *args]


def read_bytes(stderr: str) -> int:
    line = next(x for x in stderr.splitlines() if x.startswith("read_bytes:"))
    return int(line.split()[1])


def row(name: str, seconds: float, cat: float, target: str, extra: str = "") -> None:
    ratio = f"{seconds / cat:.2f}x"
    ROWS.append((name, f"{seconds:.2f} s{extra}", f"{cat:.2f} s", ratio, target))
    print(f"{name}: {seconds:.2f} s ({ratio} of cat's {cat:.2f} s just before){extra}", flush=True)


def cat_cold(paths: list[Path]) -> float:
    """Seconds for ``cat`` to read every byte of the set, cold: taken right before each
    row, since a virtual machine's cold reads drift from minute to minute."""
    took, _ = cold(["sh", "-c", 'cat "$@" > /dev/null', "cat", *map(str, paths)])
    return took


def tf_count(paths: list[Path]) -> list[str]:
    code = (
        "import sys, tensorflow as tf; "
        "ds = tf.data.TFRecordDataset(sys.argv[1:], num_parallel_reads=2); "
        "print(int(ds.reduce(tf.constant(0, tf.int64), lambda n, _: n + 1)))"
    )
    return [sys.executable, "-c", code, *map(str, paths)]


def _resident(pid: int) -> int:
    """Anonymous + file-backed + shared resident bytes of ``pid`` and its descendants."""
    tree, total = {pid}, 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if parent in tree or parent == pid:
                tree.add(int(entry))
    for member in tree:
        try:
            with open(f"/proc/{member}/status") as f:
                for line in f:
                    if line.startswith(("RssAnon:", "RssFile:", "RssShmem:")):
                        total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


def window_run(folder: Path) -> tuple[dict[str, float], int, int]:
    """The window launched on ``folder`` as a user launches it (offscreen), cold: the
    seconds from launch to the first rows painted, to every record counted and to the
    end of verifying (from its start-up trace), the records it counted, and the peak
    resident bytes of it and its child."""
    import threading

    drop_cache()
    env = {
        **os.environ,
        "TFR_VIEWER_NO_CACHE": "1",
        "QT_QPA_PLATFORM": "offscreen",
        "TFR_VIEWER_TRACE_STARTUP": "exit",
    }
    launch = time.time()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tfr_viewer", "open", "--new-instance", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    peak = [0]

    def sample() -> None:
        while proc.poll() is None:
            peak[0] = max(peak[0], _resident(proc.pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = proc.communicate(timeout=3600)
    sampler.join()
    marks, counted = {}, 0
    for line in err.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] in ("first-rows-painted", "counted", "indexed"):
            marks[words[0]] = float(words[1]) - launch
            if words[0] == "counted":
                counted = int(words[2])
    if proc.returncode != 0 or len(marks) != 3:
        raise SystemExit(f"the window failed: {err[-2000:]}")
    return marks, counted, peak[0]


def decode_time() -> float:
    """Seconds to judge and score the set's distinct pictures as ``check`` does (decoded
    in full, on one thread)."""
    from tfr_viewer.core.analyze.image_quality import judge_and_score

    pictures = _pictures(RECORD_IMAGES)
    t0 = time.perf_counter()
    for picture in pictures:
        judge_and_score(picture)
    return time.perf_counter() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path)
    parser.add_argument("--gb", type=float, default=16.0)
    parser.add_argument("--shards", type=int, default=64)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    folder = args.data or Path(tempfile.gettempdir()) / "tfr-viewer-scale"
    try:
        paths = make_set(folder, args.gb, args.shards)
        total = sum(p.stat().st_size for p in paths)
        if not drop_cache():
            print("the page cache cannot be dropped here (not root): the figures are warm")
        env = {**os.environ, "TFR_VIEWER_NO_CACHE": "1"}
        want = set(args.only or ["count", "tf", "verify", "window", "stats", "check"])
        if "count" in want:
            # what the interpreter and its libraries read when started cold, measured
            # on a one-record file, is not part of the set's bytes
            tiny = folder / "tiny.tfrecord"
            shutil.copyfile(paths[0], tiny)
            os.truncate(tiny, tiny.stat().st_size // 2000 or 1)
            _, alone = cold(ours("count", "--no-cache", str(tiny)), env)
            tiny.unlink()
            cat = cat_cold(paths)
            took, done = cold(ours("count", "--no-cache", str(folder)), env)
            share = (read_bytes(done.stderr) - read_bytes(alone.stderr)) / total
            row(
                "`count --no-cache`, header-only pass",
                took,
                cat,
                "<= 0.14x",
                f", {share:.2%} of the set read from the disk",
            )
        if "tf" in want:
            cat = cat_cold(paths)
            took, _ = cold(tf_count(paths))
            row("TensorFlow counting the records (2 parallel reads)", took, cat, "")
        if "verify" in want:
            cat = cat_cold(paths)
            took, _ = cold(ours("verify", "--no-cache", str(folder)), env)
            row("`verify`", took, cat, "<= 1.15x")
        if "window" in want:
            from tfr_viewer.core.io import Dataset

            with Dataset([str(p) for p in paths]) as ds:
                records = len(ds.index(verify=False))
            cat = cat_cold(paths)
            marks, counted, peak = window_run(folder)
            if counted != records:
                raise SystemExit(f"the window counted {counted:,} records, not {records:,}")
            first = marks["first-rows-painted"]
            ROWS.append(("the window: first rows after launch", f"{first:.2f} s", "", "", "<= 1 s"))
            print(f"the window: first rows {first:.2f} s after launch", flush=True)
            row("the window: every record counted", marks["counted"], cat, "<= 0.2x")
            row("the window: every CRC checked", marks["indexed"], cat, "<= 1.15x")
            ROWS.append(
                (
                    "the window: peak resident memory (anonymous + file-backed, with its child)",
                    f"{peak / 1e6:.0f} MB",
                    "",
                    "",
                    "<= 1 GB",
                )
            )
        if "stats" in want:
            cat = cat_cold(paths)
            took, _ = cold(ours("stats", "--json", "--no-cache", str(folder)), env)
            row("`stats --json`", took, cat, "<= 1.3x")
        if "check" in want:
            decode = decode_time()
            print(f"decoding the {RECORD_IMAGES} distinct pictures: {decode:.2f} s", flush=True)
            cat = cat_cold(paths)
            took, _ = cold(ours("check", "--json", "--no-cache", str(folder)), env)
            bound = 1.3 * cat + decode
            row(
                "`check --json`",
                took,
                cat,
                f"<= 1.3x + {decode:.2f} s decoding {RECORD_IMAGES} distinct pictures "
                f"= {bound:.2f} s",
            )
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    print(f"\n{len(paths)} shards, {total / 1e9:.1f} GB, cold (page cache dropped) runs:\n")
    print("| work | tfr-viewer | `cat` just before | ratio to `cat` | target |")
    print("|---|---|---|---|---|")
    for r in ROWS:
        print("| " + " | ".join(r) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
