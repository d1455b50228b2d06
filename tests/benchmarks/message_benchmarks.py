"""A project's own message type at scale: ``list --filter`` on a field path over N
records of a user message (``--descriptor-set``), against the same filter over N
Examples holding the same values, and against the module ``protoc`` generates parsing
every record (the frames read by a plain loop, each parsed, the filter tested in
Python), in one run, warm: the medians of ``--rounds`` runs of each, taken in turn.

Usage: ``python tests/benchmarks/message_benchmarks.py [--data DIR] [--records N]
[--rounds R] [--keep]``. The files are written into DIR (default: a folder under the system's
temporary folder) once and reused while they are there."""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

PROTO = """
syntax = "proto3";
package bench;
message Sample {
  string name = 1;
  int64 label = 2;
  repeated float score = 3;
  bytes blob = 4;
}
"""
FILTER_MESSAGE = 'f["label"] == 3 and f["name"] == "sample-3"'
FILTER_EXAMPLE = 'f["label"] == 3 and f["name"] == "sample-3"'


def _values(i: int) -> tuple[str, int, list[float], bytes]:
    return f"sample-{i % 100}", i % 7, [0.25 * (i % 11), 1.5], bytes(24)


def write_files(folder: Path, records: int) -> tuple[Path, Path, Path, Path]:
    """The .proto, its descriptor set, and the records as messages and as Examples."""
    from tests.protoc_modules import compile_proto
    from tests.user_protos import descriptor_set
    from tfr_viewer.core.io import write_records
    from tfr_viewer.core.write.build import build_example

    protos = folder / "protos"
    protos.mkdir(parents=True, exist_ok=True)
    (protos / "bench.proto").write_text(PROTO)
    sets = folder / "bench.pb"
    messages = folder / f"samples-{records}.tfrecord"
    examples = folder / f"examples-{records}.tfrecord"
    if not sets.exists():
        descriptor_set(protos, sets)
    if not messages.exists() or not examples.exists():
        module = compile_proto(PROTO)
        payloads, rows = [], []
        for i in range(records):
            name, label, score, blob = _values(i)
            payloads.append(
                module.Sample(name=name, label=label, score=score, blob=blob).SerializeToString()
            )
            rows.append(build_example({"name": name, "label": label, "score": score, "blob": blob}))
        write_records(messages, payloads)
        write_records(examples, rows)
    return protos, sets, messages, examples


def timed(argv: list[str]) -> float:
    began = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=ENV)
    return time.perf_counter() - began


ENV = {**os.environ, "TFR_VIEWER_NO_CACHE": "1"}

GENERATED = """
import struct, sys, time
sys.path.insert(0, sys.argv[1])
from bench_pb2 import Sample
began = time.perf_counter()
found = 0
with open(sys.argv[2], "rb") as f:
    while True:
        head = f.read(12)
        if len(head) < 12:
            break
        (n,) = struct.unpack("<Q", head[:8])
        m = Sample.FromString(f.read(n))
        f.read(4)
        if m.label == 3 and m.name == "sample-3":
            found += 1
print(found, time.perf_counter() - began)
"""


def generated_seconds(protos: Path, messages: Path) -> tuple[float, int]:
    """Seconds for the generated module to parse every record and test the filter
    (the module made by protoc in a folder of its own), and the matches."""
    out = protos.parent / "gen"
    out.mkdir(exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", f"-I{protos}", f"--python_out={out}",
         "bench.proto"], check=True,
    )  # fmt: skip
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", GENERATED, str(out), str(messages)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    took = time.perf_counter() - began
    return took, int(done.stdout.split()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    data = args.data or Path(tempfile.gettempdir()) / "tfr-viewer-bench" / "messages"
    data.mkdir(parents=True, exist_ok=True)
    try:
        protos, sets, messages, examples = write_files(data, args.records)
        tool = [sys.executable, "-m", "tfr_viewer", "list"]
        times: dict[str, list[float]] = {"ours": [], "theirs": [], "generated": []}
        for _ in range(args.rounds):
            times["ours"].append(timed([*tool, str(messages), "--descriptor-set", str(sets),
                                        "--message", "bench.Sample", "--filter",
                                        FILTER_MESSAGE]))  # fmt: skip
            times["theirs"].append(timed([*tool, str(examples), "--filter", FILTER_EXAMPLE]))
            took, matches = generated_seconds(protos, messages)
            times["generated"].append(took)
        ours, theirs, generated = (statistics.median(times[k]) for k in times)
        print("| your own protobufs | measured | target |\n|---|---|---|")
        print(
            f"| `list --filter` on field paths over {args.records:,} records of a user "
            f"message type ({messages.stat().st_size / 1e6:.0f} MB), warm, medians of "
            f"{args.rounds}, against the same "
            f"filter over as many Examples of the same values | {ours:.2f} s against "
            f"{theirs:.2f} s: {ours / theirs:.2f}x | <= 2x |"
        )
        speed = generated / ours
        said = f"{speed:.2f}x faster" if speed >= 1 else f"{1 / speed:.2f}x slower"
        print(
            f"| the same, against the module protoc generates parsing every record "
            f"({matches:,} matches) | {ours:.2f} s against {generated:.2f} s: {said} | >= 3x "
            "faster |"
        )
    finally:
        if not args.keep and args.data is None:
            shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
