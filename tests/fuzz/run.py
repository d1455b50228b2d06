"""Run fuzz cases in-process through what a user touches: index and verify, the
problems, every record decoded to its JSON, a filter, and recover. Each case has a time
limit; memory is watched across the run. ``python -m tests.fuzz.run --cases N``."""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import sys
import tempfile
import time
import warnings
from pathlib import Path

from tests.fuzz.cases import case
from tfr_viewer.core.decode import decode, payload_json
from tfr_viewer.core.io import Dataset
from tfr_viewer.core.query import compile_filter, matching
from tfr_viewer.core.query.names import UnknownFeature, require_features
from tfr_viewer.core.write import ExportOptions
from tfr_viewer.core.write.export import export

CORPUS = Path(__file__).parent / "corpus"
FILTER = compile_filter('label > 0 or match(f["k"], "^(v|v)*$") or len(x) / 0 > 1')


class CaseTimeout(Exception):
    pass


def _alarm(_signum, _frame):  # noqa: ANN001
    raise CaseTimeout()


def run_one(data: bytes, folder: str) -> None:
    """Everything a user would do with the file; raises on any failure (numpy's
    RuntimeWarnings included)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        _run_one(data, folder)


def _run_one(data: bytes, folder: str) -> None:
    path = os.path.join(folder, "case.tfrecord")
    with open(path, "wb") as f:
        f.write(data)
    with Dataset([path]) as ds:
        ds.index(verify=True)
        for p in ds.problems():
            json.dumps(p.to_json())
        for i in range(min(len(ds), 50)):
            json.dumps(payload_json(decode(ds.read(i))))
        try:
            require_features(ds, FILTER)  # hostile payloads rarely hold the keys
        except UnknownFeature:
            pass  # the user's error, in one line
        for _ in matching(ds, FILTER, whole=False):  # the filter runs all the same
            pass
        if len(ds.intact()):
            out = os.path.join(folder, "out.tfrecord")
            export(ds, ds.intact(), ExportOptions(out, overwrite=True))


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(seed: int, cases: int, limit_s: float = 5.0, save: bool = True) -> dict:
    """Run ``cases`` cases; failing inputs are saved to the corpus. Returns a summary."""
    failures: list[str] = []
    slowest = 0.0
    start_rss = rss_mb()
    signal.signal(signal.SIGALRM, _alarm)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="tfr-fuzz-") as folder:
        for index in range(cases):
            kind, data = case(seed, index)
            began = time.monotonic()
            signal.setitimer(signal.ITIMER_REAL, limit_s)
            try:
                run_one(data, folder)
            except CaseTimeout:
                failures.append(f"{seed}-{index} ({kind}): over {limit_s} s")
            except Exception as exc:  # every escape is a finding
                failures.append(f"{seed}-{index} ({kind}): {type(exc).__name__}: {exc}")
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            took = time.monotonic() - began
            slowest = max(slowest, took)
            if failures and save and failures[-1].startswith(f"{seed}-{index} "):
                CORPUS.mkdir(exist_ok=True)
                (CORPUS / f"{seed}-{index}-{kind}.tfrecord").write_bytes(data)
    return {
        "cases": cases,
        "failures": failures,
        "slowest_s": round(slowest, 3),
        "seconds": round(time.monotonic() - t0, 1),
        "peak_rss_mb": round(rss_mb(), 1),
        "rss_growth_mb": round(rss_mb() - start_rss, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    summary = run(args.seed, args.cases)
    print(json.dumps({k: v for k, v in summary.items() if k != "failures"}))
    for failure in summary["failures"][:50]:
        print("FAIL", failure)
    ok = not summary["failures"] and summary["rss_growth_mb"] < 500
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
