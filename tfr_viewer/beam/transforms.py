"""PTransforms over collections of :class:`~tfr_viewer.core.io.splits.SplitRef`.

Each worker loads its split (a header scan from the split's first byte), then runs the
core function a local command runs on it: :func:`~tfr_viewer.core.io.splits.verify_split`
or :func:`~tfr_viewer.core.analyze.stats.split_stats`. Statistics are combined with
:meth:`Stats.merge`, whose figures do not depend on the order of merging.
"""

from __future__ import annotations

import apache_beam as beam
import numpy as np

from ..core.analyze.stats import Stats, split_stats
from ..core.io.splits import SplitRef, verify_split


def _verify(ref: SplitRef) -> tuple[tuple[int, int], np.ndarray]:
    return ref.key, verify_split(ref.load())


def _stats(ref: SplitRef) -> Stats:
    return split_stats(ref.load())


class VerifyShards(beam.PTransform):
    """Split references -> ``((file_number, first), statuses)`` with every payload CRC
    checked; the caller writes them into its header index."""

    def expand(self, refs):  # noqa: ANN001, ANN201 - Beam's PCollection types
        return refs | "Spread" >> beam.Reshuffle() | "Verify" >> beam.Map(_verify)


class MergeStats(beam.CombineFn):
    """Statistics merged in whatever order the runner chooses (the result is the same)."""

    def create_accumulator(self) -> Stats:
        return Stats()

    def add_input(self, accumulator: Stats, stats: Stats) -> Stats:
        return accumulator.merge(stats)

    def merge_accumulators(self, accumulators) -> Stats:  # noqa: ANN001
        merged = Stats()
        for accumulator in accumulators:
            merged.merge(accumulator)
        return merged

    def extract_output(self, accumulator: Stats) -> Stats:
        return accumulator


class ComputeStats(beam.PTransform):
    """Split references -> one :class:`Stats` of the whole dataset."""

    def expand(self, refs):  # noqa: ANN001, ANN201
        return (
            refs
            | "Spread" >> beam.Reshuffle()
            | "Statistics" >> beam.Map(_stats)
            | "Merge" >> beam.CombineGlobally(MergeStats())
        )
