"""Benchmarks of remote files over loopback HTTP with 20 ms added to every request.

Usage: ``python tests/benchmarks/remote_benchmarks.py [--data DIR] [--only NAME ...]``.
The server (``tests/remote_server.py``) answers range requests and sleeps 20 ms before
each answer, as a nearby cloud bucket would. TensorFlow cannot read http:// URLs, so
its side is what users do today: download the whole file (one GET through the same
server), then read it with ``tf.data``.
"""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from columnar_benchmarks import cli  # noqa: E402
from run_benchmarks import row, run_cli, tf, timed  # noqa: E402

from tests.remote_server import serving  # noqa: E402

LATENCY = 0.020
RECORD = 258_000
NO_CACHE = {"TFR_VIEWER_NO_CACHE": "1"}


def _records(path: Path, count: int, seed: int) -> Path:
    from tfr_viewer.core.io import write_records

    if not path.exists():
        rng = __import__("random").Random(seed)
        write_records(str(path), (rng.randbytes(RECORD) for _ in range(count)))
    return path


def remote_data(data: Path) -> Path:
    """A 1 GB file of 258 KB records and 64 shards of 8 MB each."""
    root = data / "remote"
    root.mkdir(parents=True, exist_ok=True)
    _records(root / "one_gb.tfrecord", 4_000, 1)
    for k in range(64):
        _records(root / f"shards-{k:05d}-of-00064", 31, 100 + k)
    return root


def _download(url: str, target: Path) -> None:
    with urllib.request.urlopen(url) as answer, open(target, "wb") as out:
        while block := answer.read(8 << 20):
            out.write(block)


def bench_first_rows(data: Path) -> None:
    print("first rows of a 1 GB remote file of 258 KB records, 20 ms per request")
    root = remote_data(data)
    local = data / "downloaded.tfrecord"

    def tf_way() -> int:
        _download(server.url("one_gb.tfrecord"), local)
        return sum(1 for _ in tf().data.TFRecordDataset(str(local)).take(10))

    with serving(root) as server:
        server.faults.latency = LATENCY
        theirs, n = timed(tf_way, repeat=2)
        assert n == 10
        url = server.url("one_gb.tfrecord")
        ours, text = cli(["head", "-n", "10", "--json", url], repeat=3, env=NO_CACHE)
        assert len(text.splitlines()) == 10, text[:500]
        row(
            "first 10 rows of a 1 GB remote file (`head`), whole process, vs download + tf.data",
            ours,
            theirs,
            "< 1.5 s",
        )
        size = (root / "one_gb.tfrecord").stat().st_size
        server.reset_counts()
        started = time.perf_counter()
        _, text = cli(["info", "--json", url], repeat=1, env=NO_CACHE)
        scan = time.perf_counter() - started
        sent = server.bytes_sent
        assert json.loads(text)["records"] == 4_000, text[:500]
        print(
            f"  header scan of the whole file: {sent:,} of {size:,} bytes "
            f"({100 * sent / size:.3f}%), {server.range_requests:,} requests, {scan:.1f} s",
            flush=True,
        )
        row(
            "bytes of a header scan of that file, % of the file (vs download: 100%)",
            100 * sent / size,
            100.0,
            "< 5%",
            unit="%",
        )


def bench_shards(data: Path) -> None:
    print("info over 64 remote shards (8 MB of 258 KB records each), 20 ms per request")
    root = remote_data(data)
    target = data / "downloaded-shards"
    target.mkdir(exist_ok=True)
    names = [f"shards-{k:05d}-of-00064" for k in range(64)]

    def tf_way() -> int:
        for name in names:
            _download(server.url(name), target / name)
        files = [str(target / name) for name in names]
        return sum(1 for _ in tf().data.TFRecordDataset(files))

    with serving(root) as server:
        server.faults.latency = LATENCY
        theirs, n = timed(tf_way, repeat=1)
        assert n == 64 * 31
        spec = server.url("shards-*")
        ours, text = cli(["info", "--json", spec], repeat=3, env=NO_CACHE)
        assert json.loads(text)["records"] == 64 * 31, text[:500]
        row(
            "`info` over 64 remote shards, concurrent, whole process, vs download + tf.data count",
            ours,
            theirs,
            "< 3 s",
        )
        one, text = cli(
            ["info", "--json", spec], repeat=1, env={**NO_CACHE, "TFR_VIEWER_REMOTE_WORKERS": "1"}
        )
        row("same, one shard at a time (TFR_VIEWER_REMOTE_WORKERS=1)", one, theirs, "")
        cached, text = cli(["info", "--json", spec], repeat=1)  # fills the index cache
        cached, text = cli(["info", "--json", spec], repeat=3)
        row("same, reopened (index cache keyed by URL, size and ETag)", cached, theirs, "")


BENCHES = {"first_rows": bench_first_rows, "shards": bench_shards}


def main() -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    run_cli(__doc__, BENCHES)


if __name__ == "__main__":
    main()
