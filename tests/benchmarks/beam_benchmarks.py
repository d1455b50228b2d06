"""Benchmarks of the Apache Beam pipelines against the local commands and TensorFlow.

Usage: ``.venv-beam/bin/python tests/benchmarks/beam_benchmarks.py [--data DIR]
[--only NAME ...]`` (Beam is installed in ``.venv-beam``).

``stats``: the 1,000,000 small Examples of the columnar benchmark, exported into 64
shards (110 MB), as a whole process locally and with ``--runner direct`` (one worker
process per core); TensorFlow's side is the batched ``parse_example`` plus numpy of the
QA benchmark, over the same shards.

``scale``: 64 shards of 45 MB (each shard of ``stats`` 30 times over: 30M records,
2.9 GB), where Beam's fixed costs weigh less: ``--runner direct`` against the local
multi-core run (``stats --jobs 2``) and one local process.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from columnar_benchmarks import cli, small_file  # noqa: E402
from qa_benchmarks import tf_small_stats  # noqa: E402
from run_benchmarks import row, run_cli, timed  # noqa: E402

SHARDS = 64


def shards(data: Path) -> list[Path]:
    """The small Examples in 64 shards (written once by our own export)."""
    folder = data / "beam_shards"
    found = sorted(folder.glob("small-*-of-*"))
    if len(found) == SHARDS:
        return found
    folder.mkdir(exist_ok=True)
    args = ["export", str(small_file(data)), "-o", str(folder / "small"), "--shards", str(SHARDS)]
    cli([*args, "--overwrite"], repeat=1)
    found = sorted(folder.glob("small-*-of-*"))
    assert len(found) == SHARDS, found[:3]
    return found


def bench_stats(data: Path) -> None:
    print(f"stats over {SHARDS} shards of 1,000,000 small Examples in all")
    files = [str(p) for p in shards(data)]
    tf_small_stats(files)  # warm-up
    theirs, _ = timed(lambda: tf_small_stats(files), repeat=2)
    local, out = cli(["stats", "--json", "--no-cache", *files], repeat=3)
    assert json.loads(out)["records"] == 1_000_000
    beam, far = cli(["stats", "--json", "--no-cache", *files, "--runner", "direct"], repeat=3)
    canonical = [json.dumps(json.loads(text), sort_keys=True) for text in (far, out)]
    assert canonical[0] == canonical[1], "the pipeline's statistics differ from the local ones"
    row("stats, 64 shards, local whole process vs TF parse_example + numpy", local, theirs, "")
    row(
        "stats, 64 shards, --runner direct (2 worker processes) vs TF parse_example + numpy",
        beam,
        theirs,
        f"<= 1.5x local ({beam / local:.2f}x)",
    )


COPIES = 30


def large_shards(data: Path) -> list[Path]:
    """Each shard of :func:`shards` written :data:`COPIES` times over into one file."""
    folder = data / "beam_large"
    small = shards(data)
    found = sorted(folder.glob("small-*-of-*"))
    if len(found) == SHARDS and all(
        f.stat().st_size == COPIES * s.stat().st_size for f, s in zip(found, small, strict=True)
    ):
        return found
    folder.mkdir(exist_ok=True)
    for s in small:
        data_bytes = s.read_bytes()
        with open(folder / s.name, "wb") as out:
            for _ in range(COPIES):
                out.write(data_bytes)
    return sorted(folder.glob("small-*-of-*"))


def bench_scale(data: Path) -> None:
    files = [str(p) for p in large_shards(data)]
    print(f"stats over {SHARDS} shards of 45 MB ({COPIES}M small Examples in all)")
    args = ["stats", "--json", "--no-cache", *files]
    one, out = cli(args, repeat=1)
    assert json.loads(out)["records"] == COPIES * 1_000_000
    pooled, same = cli([*args, "--jobs", "2"], repeat=2)
    beam, far = cli([*args, "--runner", "direct"], repeat=2)
    canonical = {json.dumps(json.loads(text), sort_keys=True) for text in (out, same, far)}
    assert len(canonical) == 1, "the runs' statistics differ"
    row("stats, 64 × 45 MB shards, local --jobs 2 vs one local process", pooled, one, "")
    row(
        "stats, 64 × 45 MB shards, --runner direct (2 workers) vs local --jobs 2",
        beam,
        pooled,
        f"<= 1.5x local multi-core ({beam / pooled:.2f}x)",
    )


BENCHES = {"stats": bench_stats, "scale": bench_scale}


def main() -> None:
    run_cli(__doc__, BENCHES)


if __name__ == "__main__":
    main()
