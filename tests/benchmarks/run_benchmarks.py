"""Side-by-side benchmarks against TensorFlow, measured in one run.

Usage: ``python tests/benchmarks/run_benchmarks.py [--data DIR] [--only NAME ...]``.
Files are generated with TensorFlow into DIR (default: tests/benchmarks/data) and reused.
Every row prints our time, TensorFlow's time and the ratio; the README quotes the table.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tfr_viewer.core.io.dataset import Dataset  # noqa: E402
from tfr_viewer.core.io.framing import encode_frame  # noqa: E402

ROWS: list[tuple[str, str, str, str, str]] = []


def tf():
    import tensorflow

    return tensorflow


@contextlib.contextmanager
def first_pass() -> Iterator[None]:
    """A header pass as on first sight: the index cache off (it would answer at once)."""
    os.environ["TFR_VIEWER_NO_CACHE"] = "1"
    try:
        yield
    finally:
        del os.environ["TFR_VIEWER_NO_CACHE"]


def timed(fn: Callable[[], object], repeat: int = 1) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def row(name: str, ours: float, theirs: float | None, target: str, unit: str = "s") -> None:
    ratio = f"{theirs / ours:.2f}x" if theirs else "n/a"
    their_text = f"{theirs:.3f} {unit}" if theirs else "cannot"
    ROWS.append((name, f"{ours:.3f} {unit}", their_text, ratio, target))
    print(f"  {name}: ours {ours:.3f} {unit}, TensorFlow {their_text}, ratio {ratio}", flush=True)


def tutorial_example(i: int, rng: np.random.Generator) -> bytes:
    t = tf()
    f = t.train
    animal = [b"cat", b"dog", b"chicken", b"horse", b"goat"][i % 5]
    feature = {
        "feature0": f.Feature(int64_list=f.Int64List(value=[int(rng.random() < 0.5)])),
        "feature1": f.Feature(int64_list=f.Int64List(value=[i % 5])),
        "feature2": f.Feature(bytes_list=f.BytesList(value=[animal])),
        "feature3": f.Feature(float_list=f.FloatList(value=[float(rng.standard_normal())])),
    }
    return f.Example(features=f.Features(feature=feature)).SerializeToString()


def ensure(path: Path, make: Callable[[Path], None]) -> Path:
    if not path.exists():
        print(f"generating {path.name} ...", flush=True)
        tmp = path.with_suffix(path.suffix + ".part")
        make(tmp)
        tmp.replace(path)
    return path


def write_tf(path: Path, payloads, compression: str = "") -> None:
    opts = tf().io.TFRecordOptions(compression_type=compression)
    with tf().io.TFRecordWriter(str(path), opts) as w:
        for p in payloads:
            w.write(p)


def tf_count(path: Path, compression: str = "") -> int:
    ds = tf().data.TFRecordDataset(str(path), compression_type=compression)
    return int(ds.reduce(np.int64(0), lambda n, _: n + 1).numpy())


def tf_iterate(path: Path, compression: str = "") -> int:
    n = 0
    for _ in tf().data.TFRecordDataset(str(path), compression_type=compression):
        n += 1
    return n


def our_verify(path: Path) -> int:
    with Dataset([str(path)]) as ds:
        ds.index(verify=True)
        assert not ds.problems()
        return len(ds)


def bench_small(data: Path) -> None:
    print("1,000,000 small Examples (TensorFlow tutorial layout)")
    rng = np.random.default_rng(0)
    path = ensure(
        data / "small.tfrecord",
        lambda p: write_tf(p, (tutorial_example(i, rng) for i in range(1_000_000))),
    )
    ours, n = timed(lambda: our_verify(path), repeat=3)
    t_graph, n_tf = timed(lambda: tf_count(path))
    assert n == n_tf == 1_000_000
    t_iter, _ = timed(lambda: tf_iterate(path))
    row("index + verify 1M small records vs tf.data iteration", ours, t_iter, ">= 20x")
    row("index + verify 1M small records vs tf.data reduce (graph)", ours, t_graph, "")

    def header_pass() -> int:
        with Dataset([str(path)]) as ds:
            return len(ds.index(verify=False))

    with first_pass():
        t_hdr, _ = timed(header_pass, repeat=3)
    row("header-only pass, 1M small records vs tf.data reduce", t_hdr, t_graph, "")


def tf_filter_count(path: Path) -> tuple[float, int]:
    """TensorFlow's fastest in-process way to count ``feature1 == 3``: batched
    parse_example in a graph, timed after a warm-up run."""
    t = tf()
    spec = {"feature1": t.io.FixedLenFeature([], t.int64)}

    @t.function
    def matches():
        ds = (
            t.data.TFRecordDataset(str(path))
            .batch(4096)
            .map(
                lambda b: t.reduce_sum(
                    t.cast(t.io.parse_example(b, spec)["feature1"] == 3, t.int64)
                )
            )
        )
        return ds.reduce(t.constant(0, t.int64), lambda a, x: a + x)

    matches()
    return timed(lambda: int(matches().numpy()), repeat=2)


def bench_filter(data: Path) -> None:
    """``feature1 == 3`` over 1M tutorial Examples vs TF's batched parse_example path."""
    print("filter 1,000,000 small Examples by feature1 == 3")
    from tfr_viewer.core.query.filtering import matching
    from tfr_viewer.core.query.language import compile_filter

    rng = np.random.default_rng(0)
    path = ensure(
        data / "small.tfrecord",
        lambda p: write_tf(p, (tutorial_example(i, rng) for i in range(1_000_000))),
    )
    t_tf, n_tf = tf_filter_count(path)
    with Dataset([str(path)]) as ds:
        ds.index(verify=False)
        flt = compile_filter("feature1 == 3")
        ours, n = timed(
            lambda: sum(len(m.keep) for m in matching(ds, flt, verified=False)), repeat=2
        )
    assert n == n_tf
    row(
        "filter feature1 == 3 over 1M Examples vs TF batch(4096)+parse_example", ours, t_tf, ">= 3x"
    )


def bench_export(data: Path) -> None:
    """Export the half of 1M Examples with feature0 == 1, vs a TensorFlow script."""
    print("export 1,000,000 small Examples filtered to half")
    import tempfile

    from tfr_viewer.core.query.filtering import matches_of, matching
    from tfr_viewer.core.query.language import compile_filter
    from tfr_viewer.core.write.export import ExportOptions, export

    rng = np.random.default_rng(0)
    path = ensure(
        data / "small.tfrecord",
        lambda p: write_tf(p, (tutorial_example(i, rng) for i in range(1_000_000))),
    )
    out = Path(tempfile.mkdtemp(dir=data))
    t = tf()

    def tf_script() -> int:
        n = 0
        with t.io.TFRecordWriter(str(out / "tf.tfrecord")) as writer:
            for raw in t.data.TFRecordDataset(str(path)):
                data_ = raw.numpy()
                ex = t.train.Example.FromString(data_)
                if ex.features.feature["feature0"].int64_list.value[0] == 1:
                    writer.write(data_)
                    n += 1
        return n

    def ours() -> int:
        with Dataset([str(path)]) as ds:
            ds.index(verify=True)
            keep = matches_of(matching(ds, compile_filter("feature0 == 1")))
            return export(ds, keep, ExportOptions(str(out / "ours.tfrecord"))).records

    t_ours, n = timed(ours)
    t_tf, n_tf = timed(tf_script)
    assert n == n_tf
    assert (out / "ours.tfrecord").read_bytes() == (out / "tf.tfrecord").read_bytes()
    row(
        "export 1M Examples filtered to half (index+filter+write+verify) vs TF script",
        t_ours,
        t_tf,
        ">= 5x",
    )


def bench_gzip_export(data: Path) -> None:
    """GZIP export throughput next to TensorFlow's GZIP writer (raw-pixel records)."""
    print("GZIP export of 1,000 x 258 KB raw pixel records")
    import tempfile

    from tfr_viewer.core.io.framing import Compression
    from tfr_viewer.core.write.export import ExportOptions, export

    path = ensure(data / "large_pixels.tfrecord", lambda p: write_tf(p, pixel_payloads(1000, 2)))
    out = Path(tempfile.mkdtemp(dir=data))
    t = tf()

    def tf_writer() -> None:
        opts = t.io.TFRecordOptions(compression_type="GZIP")
        with t.io.TFRecordWriter(str(out / "tf.gz"), opts) as w:
            for raw in t.data.TFRecordDataset(str(path)):
                w.write(raw.numpy())

    def ours() -> None:
        with Dataset([str(path)]) as ds:
            ds.index(verify=True)
            export(ds, range(len(ds)), ExportOptions(str(out / "ours.gz"), Compression.GZIP))

    t_tf, _ = timed(tf_writer)
    t_ours, _ = timed(ours)
    mb = path.stat().st_size / 1e6
    row(
        f"GZIP export of {mb:.0f} MB (incl. our read-back verification) vs TF GZIP writer",
        t_ours,
        t_tf,
        "report",
    )


def ten_gb_file(data: Path) -> Path:
    """10,240 Examples of 1 MB (an ``id`` and a ``blob``): a 10 GB file."""
    from tfr_viewer.core.write.build import build_example

    def make(p: Path) -> None:
        rng = np.random.default_rng(5)
        blob = rng.integers(0, 256, 1 << 20, dtype=np.uint8).tobytes()
        with open(p, "wb") as f:
            for i in range(10_240):
                f.write(encode_frame(build_example({"id": i, "blob": blob[: (1 << 20) - 64]})))

    return ensure(data / "ten_gb.tfrecord", make)


def bench_show(data: Path) -> None:
    """``show`` of records of a 10 GB file once it is indexed."""
    print("show in a 10 GB file")
    from tfr_viewer.commands.decode import show_record

    path = ten_gb_file(data)
    with Dataset([str(path)]) as ds:
        with first_pass():
            t_index, _ = timed(lambda: ds.index(verify=False))
        rnd = random.Random(6)
        lat = []
        for _ in range(20):
            i = rnd.randrange(len(ds))
            t0 = time.perf_counter()
            record = show_record(ds, i)
            lat.append(time.perf_counter() - t0)
            assert list(record["features"]["id"]["values"]) == [i]
    worst = max(lat) * 1000
    ROWS.append(
        (
            f"show a record of a 10 GB file once indexed (max of 20; header pass {t_index:.1f} s)",
            f"{statistics.median(lat) * 1000:.0f} / {worst:.0f} ms",
            "cannot",
            "n/a",
            "< 100 ms",
        )
    )
    print(f"  show: median {statistics.median(lat) * 1000:.0f} ms, max {worst:.0f} ms")


def big_payloads(n: int, seed: int):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        yield rng.integers(0, 256, 258 * 1024, dtype=np.uint8).tobytes()


def pixel_payloads(n: int, seed: int):
    """Raw 8-bit RGB images of 256 x 344 (258 KB): smooth gradients, shapes and noise."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:256, 0:344]
    for _ in range(n):
        a, b, c = rng.uniform(-0.6, 0.6, 3)
        img = np.stack([(xx * a + yy * b + c * 255 + k * 40) % 256 for k in range(3)], -1)
        cy, cx, r = rng.integers(0, 256), rng.integers(0, 344), rng.integers(10, 80)
        img[(yy - cy) ** 2 + (xx - cx) ** 2 < r * r] = rng.integers(0, 256, 3)
        img = img + rng.normal(0, 2, img.shape)
        yield np.clip(img, 0, 255).astype(np.uint8).tobytes()


def bench_large(data: Path) -> None:
    print("5,000 records of 258 KB (1.3 GB)")
    path = ensure(data / "large.tfrecord", lambda p: write_tf(p, big_payloads(5000, 1)))
    our_verify(path)  # warm the page cache for both sides
    t_tf, n_tf = timed(lambda: tf_count(path), repeat=2)
    ours, n = timed(lambda: our_verify(path), repeat=3)
    assert n == n_tf == 5000
    row("verify 5,000 x 258 KB (page cache) vs tf.data reduce", ours, t_tf, ">= 2x")


def bench_gzip(data: Path) -> None:
    for kind, make in [("raw pixels", pixel_payloads), ("random bytes", big_payloads)]:
        print(f"GZIP: 1,000 records of 258 KB ({kind})")
        name = "large_" + kind.split()[0] + ".tfrecord.gz"
        path = ensure(data / name, lambda p, make=make: write_tf(p, make(1000, 2), "GZIP"))
        t_tf, n_tf = timed(lambda path=path: tf_count(path, "GZIP"), repeat=3)

        def scan(path: Path = path) -> Dataset:
            ds = Dataset([str(path)])
            ds.index(verify=True)
            return ds

        ours, _ = timed(lambda: scan().close(), repeat=3)
        ds = scan()
        assert len(ds) == n_tf == 1000 and not ds.problems()
        mb = path.stat().st_size / 1e6
        row(
            f"full scan, GZIP 1,000 x 258 KB {kind} ({mb:.0f} MB on disk) vs tf.data GZIP",
            ours,
            t_tf,
            ">= 1.8x",
        )
        rnd = random.Random(3)
        lat = []
        for _ in range(200):
            i = rnd.randrange(len(ds))
            t0 = time.perf_counter()
            ds.read(i)
            lat.append(time.perf_counter() - t0)
        ds.close()
        med, worst = statistics.median(lat) * 1000, max(lat) * 1000
        ROWS.append(
            (
                f"random record read, indexed GZIP {kind} (median / max of 200)",
                f"{med:.1f} / {worst:.1f} ms",
                "cannot",
                "n/a",
                "< 30 ms",
            )
        )
        print(f"  random read: median {med:.1f} ms, max {worst:.1f} ms", flush=True)
    bench_gzip_libraries(data / "large_raw.tfrecord.gz")


def bench_gzip_libraries(path: Path) -> None:
    """rapidgzip against indexed_gzip: full decode, then random 1 MB reads."""
    import rapidgzip

    try:
        import indexed_gzip
    except ImportError:
        print("  indexed_gzip is not installed; skipping the library comparison")
        return
    results = {}
    for name, opener in [
        ("rapidgzip", lambda: rapidgzip.open(str(path), parallelization=os.cpu_count())),
        ("indexed_gzip", lambda: indexed_gzip.IndexedGzipFile(str(path), spacing=4 << 20)),
    ]:
        f = opener()
        t0 = time.perf_counter()
        size = 0
        while block := f.read(16 << 20):
            size += len(block)
        full = time.perf_counter() - t0
        rnd = random.Random(4)
        lat = []
        for _ in range(100):
            off = rnd.randrange(size - (1 << 20))
            t0 = time.perf_counter()
            f.seek(off)
            f.read(1 << 20)
            lat.append(time.perf_counter() - t0)
        f.close()
        results[name] = (size / full / 1e6, statistics.median(lat) * 1000)
        print(
            f"  {name}: decode {results[name][0]:.0f} MB/s, "
            f"seek+read 1 MB median {results[name][1]:.1f} ms",
            flush=True,
        )
    (rg, rs), (ig, is_) = results["rapidgzip"], results["indexed_gzip"]
    ROWS.append(
        (
            "gzip library: decode MB/s, rapidgzip vs indexed_gzip",
            f"{rg:.0f} MB/s",
            f"{ig:.0f} MB/s (indexed_gzip)",
            f"{rg / ig:.1f}x",
            "choice",
        )
    )
    ROWS.append(
        (
            "gzip library: seek + 1 MB read, rapidgzip vs indexed_gzip",
            f"{rs:.1f} ms",
            f"{is_:.1f} ms (indexed_gzip)",
            f"{is_ / rs:.1f}x",
            "choice",
        )
    )


def bench_memory(data: Path) -> None:
    print("10,000,000 records: peak RSS while indexing")

    def make(p: Path) -> None:
        with open(p, "wb") as f:
            for start in range(0, 10_000_000, 100_000):
                f.write(
                    b"".join(
                        encode_frame(i.to_bytes(4, "little")) for i in range(start, start + 100_000)
                    )
                )

    path = ensure(data / "ten_million.tfrecord", make)
    code = (
        "import resource, sys, time\n"
        "from tfr_viewer.core.io.dataset import Dataset\n"
        "t = time.perf_counter()\n"
        f"ds = Dataset([{str(path)!r}]).index(verify=True)\n"
        "dt = time.perf_counter() - t\n"
        "nbytes = ds.files[0].index.nbytes()\n"
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]\n"
        "print(len(ds), dt, nbytes, hwm)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split()
    n, dt, nbytes, rss_kb = int(out[0]), float(out[1]), int(out[2]), int(out[3])
    assert n == 10_000_000
    ROWS.append(
        (
            "10M records: index arrays / peak RSS / time",
            f"{nbytes / 1e6:.0f} MB / {rss_kb / 1024:.0f} MB / {dt:.1f} s",
            "",
            "",
            "< 250 MB",
        )
    )
    print(f"  index {nbytes / 1e6:.0f} MB, peak RSS {rss_kb / 1024:.0f} MB, {dt:.1f} s")


BENCHES = {
    "memory": bench_memory,
    "small": bench_small,
    "large": bench_large,
    "gzip": bench_gzip,
    "filter": bench_filter,
    "show": bench_show,
    "export": bench_export,
    "gzip_export": bench_gzip_export,
}


def run_cli(doc: str | None, benches: dict[str, Callable[[Path], None]]) -> None:
    """Parse ``--data/--only/--table``, run the chosen benchmarks, print the table."""
    ap = argparse.ArgumentParser(description=doc)
    ap.add_argument("--data", type=Path, default=ROOT / "tests" / "benchmarks" / "data")
    ap.add_argument("--only", nargs="*", choices=sorted(benches))
    ap.add_argument("--table", type=Path, help="also write the table to this file")
    args = ap.parse_args()
    args.data.mkdir(parents=True, exist_ok=True)
    for name in args.only or list(benches):
        benches[name](args.data)
    lines = ["| benchmark | tfr-viewer | TensorFlow | ratio | target |", "|---|---|---|---|---|"]
    lines += ["| " + " | ".join(r) + " |" for r in ROWS]
    print("\n" + "\n".join(lines))
    if args.table:
        args.table.write_text("\n".join(lines) + "\n")
    print(
        f"\n(max RSS of this process: "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)"
    )


def main() -> None:
    run_cli(__doc__, BENCHES)


if __name__ == "__main__":
    main()
