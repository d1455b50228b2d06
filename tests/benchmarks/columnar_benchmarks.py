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
    tf,
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


def cli(args: list[str], pure: bool = False, repeat: int = 3) -> tuple[float, str]:
    """Best wall time of the whole process, and its output."""
    env = dict(os.environ)
    env.pop("TFR_VIEWER_PURE_PYTHON", None)
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
        ours, out = cli(["count", "--filter", FILTER, str(path)], pure, repeat=1 if pure else 3)
        assert int(out) == n_tf, (out, n_tf)
        row(
            f"count --filter '{FILTER}', 1M Examples, whole process ({label}) vs TF "
            "batched parse_example in-process",
            ours,
            t_tf,
            ">= 4x" if not pure else "",
        )
        ours, out = cli(["list", "--filter", FILTER, "--json", str(path)], pure, 1 if pure else 3)
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
    ours, out = cli(["verify", str(path)])
    assert n == 1_000_000
    row("verify 1M small Examples, whole process vs tf.data iteration", ours, t_iter, ">= 40x")
    row("verify 1M small Examples, whole process vs tf.data reduce (graph)", ours, t_graph, "")
    pure, _ = cli(["verify", str(path)], pure=True, repeat=1)
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


BENCHES = {
    "import": bench_import,
    "schema": bench_schema,
    "filter": bench_filter,
    "verify": bench_verify,
}


def main() -> None:
    run_cli(__doc__, BENCHES)


if __name__ == "__main__":
    main()
