"""5,000 seeded hostile inputs through index, verify, decode, filter and export (the
full 100,000 run is ``make fuzz``), and every input a run ever found in the corpus."""

from __future__ import annotations

import tempfile

import pytest

from tests.fuzz.run import CORPUS, run, run_one


def test_five_thousand_cases_without_a_crash_a_hang_or_a_leak():
    summary = run(seed=7, cases=5000, save=False)
    assert summary["failures"] == []
    assert summary["slowest_s"] < 5
    assert summary["rss_growth_mb"] < 500  # the process peak, whatever ran before


@pytest.mark.parametrize(
    "path", sorted(CORPUS.glob("*.tfrecord")) if CORPUS.is_dir() else [], ids=lambda p: p.name
)
def test_corpus(path):
    import time

    from tests.fuzz.run import rss_mb

    before, began = rss_mb(), time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        run_one(path.read_bytes(), folder)
    assert time.monotonic() - began < 5
    assert rss_mb() - before < 100


def test_the_generator_is_hostile_enough():
    """The cases do reach the damage paths: lying lengths, broken streams, bombs."""
    from tests.fuzz.cases import case

    kinds = {case(7, i)[0] for i in range(12)}
    assert kinds == {"frames", "payloads", "gzip", "zlib", "images", "tensors"}
    assert case(7, 3) == case(7, 3)  # reproducible
