"""Benchmarks of the compiled columnar core, against TensorFlow measured in the same run.

Usage: ``python tests/benchmarks/columnar_benchmarks.py [--data DIR] [--only NAME ...]``.
Our side is the whole ``tfr-viewer`` process (start-up, index, parse, output), as a user
runs it; TensorFlow's is in-process after warm-up. Rows for the pure-Python path
(``TFR_VIEWER_PURE_PYTHON=1``) are printed next to the compiled ones.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_benchmarks import (  # noqa: E402
    ROOT,
    ROWS,
    ensure,
    row,
    run_cli,
    ten_gb_file,
    tf,
    tf_count,
    tf_filter_count,
    timed,
    tutorial_example,
    write_tf,
)

EXE = [sys.executable, "-m", "tfr_viewer"]
FILTER = "feature1 == 3"


def small_file(data: Path) -> Path:
    rng = np.random.default_rng(0)
    return ensure(
        data / "small.tfrecord",
        lambda p: write_tf(p, (tutorial_example(i, rng) for i in range(1_000_000))),
    )


def small_gzip_file(data: Path) -> Path:
    """10,000,000 small Examples in one GZIP file, written by TensorFlow."""
    rng = np.random.default_rng(0)
    return ensure(
        data / "small_10m.tfrecord.gz",
        lambda p: write_tf(p, (tutorial_example(i, rng) for i in range(10_000_000)), "GZIP"),
    )


def jpeg_examples(n: int, seed: int):
    """Examples of ``image/encoded`` (a JPEG of about 258 KB: gradients under noise, as
    dense as a photo), ``image/format`` and ``image/class/label``, built by TensorFlow."""
    import io

    from PIL import Image

    t = tf().train
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:600, 0:800]
    for i in range(n):
        base = np.stack([(xx * (0.2 + k * 0.1) + yy * 0.3 + i * 7) % 256 for k in range(3)], -1)
        img = (base + rng.normal(0, 30, base.shape)).clip(0, 255).astype(np.uint8)
        out = io.BytesIO()
        Image.fromarray(img).save(out, "JPEG", quality=90)
        feature = {
            "image/encoded": t.Feature(bytes_list=t.BytesList(value=[out.getvalue()])),
            "image/format": t.Feature(bytes_list=t.BytesList(value=[b"jpeg"])),
            "image/class/label": t.Feature(int64_list=t.Int64List(value=[i % 10])),
        }
        yield t.Example(features=t.Features(feature=feature)).SerializeToString()


def cli(
    args: list[str], pure: bool = False, repeat: int = 5, env: dict[str, str] | None = None
) -> tuple[float, str]:
    """Best wall time of the whole process, and its output."""
    env = {**os.environ, **(env or {})}
    env.pop("TFR_VIEWER_PURE_PYTHON", None)
    # as installed: the modules' bytecode is written once and reused, not compiled per run
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if pure:
        env["TFR_VIEWER_PURE_PYTHON"] = "1"
    best, out = float("inf"), ""
    for _ in range(repeat):
        t0 = time.perf_counter()
        done = subprocess.run(EXE + args, env=env, capture_output=True, text=True, cwd=ROOT)
        best = min(best, time.perf_counter() - t0)
        if done.returncode not in (0, 1):
            raise RuntimeError(f"{args}: exit {done.returncode}: {done.stderr[-500:]}")
        out = done.stdout
    return best, out


def bench_filter(data: Path) -> None:
    print("count / list --filter over 1,000,000 small Examples, whole process")
    path = small_file(data)
    t_tf, n_tf = tf_filter_count(path)
    for pure in (False, True):
        label = "pure Python" if pure else "compiled"
        ours, out = cli(["count", "--filter", FILTER, str(path)], pure, repeat=1 if pure else 5)
        assert int(out) == n_tf, (out, n_tf)
        row(
            f"count --filter '{FILTER}', 1M Examples, whole process ({label}) vs TF "
            "batched parse_example in-process",
            ours,
            t_tf,
            ">= 4x" if not pure else "",
        )
        if not pure:
            cold, out = cli(["count", "--no-cache", "--filter", FILTER, str(path)])
            assert int(out) == n_tf, (out, n_tf)
            row(
                f"count --filter '{FILTER}', 1M Examples, whole process, index cache off "
                "(scan with both CRCs) vs TF",
                cold,
                t_tf,
                "",
            )
        ours, out = cli(["list", "--filter", FILTER, "--json", str(path)], pure, 1 if pure else 5)
        assert len(out.splitlines()) == n_tf
        row(
            f"list --filter --json, 1M Examples, whole process ({label}) vs TF",
            ours,
            t_tf,
            ">= 2x" if not pure else "",
        )


def bench_schema(data: Path) -> None:
    print("schema of 1,000,000 small Examples, whole process")
    path = small_file(data)
    for pure in (False, True):
        label = "pure Python" if pure else "compiled"
        ours, out = cli(["schema", "--json", str(path)], pure, repeat=1 if pure else 3)
        assert '"feature1"' in out
        row(
            f"schema --json, 1M Examples, whole process ({label})",
            ours,
            None,
            "< 1 s" if not pure else "",
        )


def bench_verify(data: Path) -> None:
    print("verify 1,000,000 small Examples, whole process")
    path = small_file(data)
    t = tf()

    def tf_iterate() -> int:
        return sum(1 for _ in t.data.TFRecordDataset(str(path)))

    t_iter, n = timed(tf_iterate)
    t_graph, _ = timed(
        lambda: int(t.data.TFRecordDataset(str(path)).reduce(np.int64(0), lambda a, _: a + 1))
    )
    ours, out = cli(["verify", "--no-cache", str(path)])  # the scan, not the cached index
    assert n == 1_000_000
    row("verify 1M small Examples, whole process vs tf.data iteration", ours, t_iter, ">= 40x")
    row("verify 1M small Examples, whole process vs tf.data reduce (graph)", ours, t_graph, "")
    pure, _ = cli(["verify", "--no-cache", str(path)], pure=True, repeat=1)
    row(
        "verify 1M small Examples, whole process (pure Python) vs tf.data iteration",
        pure,
        t_iter,
        "",
    )


def bench_import(data: Path) -> None:
    print("import cost of the compiled module")
    code = (
        "import time; t = time.perf_counter(); import tfr_viewer.core._fast; "
        "print(time.perf_counter() - t)"
    )
    times = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
            ).stdout
        )
        for _ in range(5)
    ]
    ROWS.append(
        (
            "import tfr_viewer.core._fast (best of 5)",
            f"{min(times) * 1000:.2f} ms",
            "",
            "",
            "< 10 ms",
        )
    )
    print(f"  import: {min(times) * 1000:.2f} ms")


def bench_gzip(data: Path) -> None:
    """A whole-file verifying scan of 10M small Examples in GZIP against tf.data."""
    _gzip_rows([("10M small Examples", small_gzip_file(data), 10_000_000, ">= 5x")])


def bench_gzip_jpeg(data: Path) -> None:
    """A whole-file verifying scan of 1,000 JPEG Examples in GZIP against tf.data."""
    path = ensure(
        data / "jpeg_1000.tfrecord.gz", lambda p: write_tf(p, jpeg_examples(1000, 3), "GZIP")
    )
    _gzip_rows([("1,000 x 258 KB JPEG Examples", path, 1000, ">= 1.8x")])


def _gzip_rows(cases: list[tuple[str, Path, int, str]]) -> None:
    print("GZIP full scans, index cache off")
    for name, path, n, target in cases:
        t_tf, n_tf = timed(lambda path=path: tf_count(path, "GZIP"), repeat=1 if n > 10**6 else 2)
        floor, _ = timed(lambda path=path: _decode_only(path), repeat=3)
        row(
            f"decoding alone of {name} (rapidgzip, 2 threads: the fastest here), the floor "
            "of any scan, vs tf.data GZIP reduce",
            floor,
            t_tf,
            "",
        )
        assert n_tf == n
        ours, out = cli(["verify", "--no-cache", str(path)], repeat=3)
        assert f"{n:,} records in 1 file: OK" in out, out
        mb = path.stat().st_size / 1e6
        row(
            f"verify {name}, GZIP ({mb:.0f} MB on disk), whole process vs tf.data GZIP reduce",
            ours,
            t_tf,
            "",
        )
        inside, count = timed(lambda path=path: _verify_in_process(path), repeat=3)
        assert count == n
        row(
            f"verify {name}, GZIP, in-process as TensorFlow is measured, vs tf.data GZIP reduce",
            inside,
            t_tf,
            target,
        )
        decoder_rows(name, path)


def _verify_in_process(path: Path) -> int:
    """Index and verify both CRCs of every record in this process, the cache off."""
    from tfr_viewer.core.io import Dataset

    before = os.environ.get("TFR_VIEWER_NO_CACHE")
    os.environ["TFR_VIEWER_NO_CACHE"] = "1"
    try:
        with Dataset([str(path)]) as ds:
            ds.index(verify=True)
            assert not ds.problems()
            return len(ds)
    finally:  # the commands timed later keep their own setting
        if before is None:
            del os.environ["TFR_VIEWER_NO_CACHE"]
        else:
            os.environ["TFR_VIEWER_NO_CACHE"] = before


def _decode_only(path: Path) -> int:
    import rapidgzip

    from tfr_viewer.core.io.sequential import PARALLEL_CHUNK

    f = rapidgzip.RapidgzipFile(str(path), parallelization=2, chunk_size=PARALLEL_CHUNK)
    buf, total = bytearray(32 << 20), 0
    while n := f.readinto(buf):
        total += n
    f.close()
    return total


def decoder_rows(name: str, path: Path) -> None:
    """Decode the whole file with each candidate and say which one the scan picks."""
    import rapidgzip
    from isal import igzip_threaded

    from tfr_viewer.core.io import Compression
    from tfr_viewer.core.io.sequential import prefers_sequential

    def drain(f) -> int:
        buf, total = bytearray(32 << 20), 0
        while n := f.readinto(buf):
            total += n
        f.close()
        return total

    openers = {
        "ISA-L, 1 thread + reader": lambda: igzip_threaded.open(str(path), "rb", threads=1),
        "rapidgzip, 2 threads": lambda: rapidgzip.RapidgzipFile(str(path), parallelization=2),
    }
    speeds = {}
    for label, opener in openers.items():
        t, size = timed(lambda opener=opener: drain(opener()), repeat=3)
        speeds[label] = size / t / 1e6
    picked = "ISA-L" if prefers_sequential(str(path), Compression.GZIP) else "rapidgzip"
    (a, va), (b, vb) = speeds.items()
    ROWS.append(
        (
            f"GZIP decoding of {name}: {a} vs {b} (the scan picks {picked})",
            f"{va:.0f} MB/s",
            f"{vb:.0f} MB/s",
            f"{va / vb:.2f}x",
            "choice",
        )
    )
    print(f"  {a}: {va:.0f} MB/s, {b}: {vb:.0f} MB/s; picked {picked}", flush=True)


def bench_show(data: Path) -> None:
    """A second ``show`` of a record of a 10 GB file: the index comes from the cache."""
    import tempfile

    print("show in a 10 GB file, index cached, whole process")
    path = ten_gb_file(data)
    with tempfile.TemporaryDirectory() as cache:
        env = {"TFR_VIEWER_CACHE_DIR": cache}
        first, _ = cli(["show", "0", str(path), "--json"], repeat=1, env=env)
        info, _ = cli(["info", str(path)], repeat=1, env=env)
        ours, out = cli(["show", "9876", str(path), "--json"], repeat=5, env=env)
        assert '"index": 9876' in out and len(os.listdir(cache)) == 1
    floor = min(
        timed(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True))[0]
        for _ in range(5)
    )
    numpy = min(
        timed(lambda: subprocess.run([sys.executable, "-c", "import numpy"], check=True))[0]
        for _ in range(5)
    )
    ROWS.append(
        (
            "start Python, nothing else (best of 5): the floor of any command; "
            f"and import numpy, which a cached show does not: {numpy * 1000:.0f} ms",
            f"{floor * 1000:.0f} ms",
            "",
            "",
            "",
        )
    )
    ROWS.append(
        (
            f"second show of record 9,876 of a 10 GB file, index cached, whole process "
            f"(first show of record 0: {first:.2f} s; info's header pass: {info:.2f} s)",
            f"{ours * 1000:.0f} ms",
            "cannot",
            "n/a",
            "< 150 ms",
        )
    )
    print(f"  second show: {ours * 1000:.0f} ms")


BENCHES = {
    "import": bench_import,
    "schema": bench_schema,
    "filter": bench_filter,
    "verify": bench_verify,
    "gzip": bench_gzip,
    "gzip_jpeg": bench_gzip_jpeg,
    "show": bench_show,
}


def main() -> None:
    # an installed package has its bytecode compiled; an editable checkout gets it here
    subprocess.run([sys.executable, "-m", "compileall", "-q", "tfr_viewer"], cwd=ROOT, check=True)
    run_cli(__doc__, BENCHES)


if __name__ == "__main__":
    main()
