"""The PTransforms of ``stats`` and ``check`` over collections of
:class:`~tfr_viewer.core.io.splits.SplitRef` (the other commands map one core function
over their items: :func:`~tfr_viewer.beam.pipeline.beam_each`).

Each worker loads its split (a header scan from the split's first byte), then runs the
core function a local command runs on it: :func:`~tfr_viewer.core.analyze.stats.
split_stats`, or :func:`~tfr_viewer.core.analyze.split_check.ref_check` and
:func:`~tfr_viewer.core.analyze.split_check.settled_part`. Statistics are combined with
:meth:`Stats.merge`, whose figures do not depend on the order of merging; the parts of
the checks are finished by the command, after a survey of every split has said what
each key is for and a shuffle on each image's SHA-256 has found the images stored in
more than one record.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

import apache_beam as beam

from ..core.analyze.check_merge import CheckPart, copies_of
from ..core.analyze.split_check import SplitCheck, ref_check, settled_part
from ..core.analyze.stats import Stats, split_stats
from ..core.analyze.survey import Survey
from ..core.io.splits import SplitRef


class Typed:
    """``fn`` run on a worker that reads records as the command's message type
    (``spec``, :func:`~tfr_viewer.core.decode.message_types.spec_of`: the definitions
    themselves, which any worker loads with protobuf alone); with None, as the records
    say."""

    def __init__(self, fn: Callable[..., Any], spec: Any = None) -> None:
        self.fn, self.spec = fn, spec

    def __call__(self, *args: Any) -> Any:
        if self.spec is not None:
            from ..core.decode import message_types

            message_types.give(message_types.from_spec(self.spec))  # loaded once a worker
        return self.fn(*args)


def _stats(ref: SplitRef) -> Stats:
    return split_stats(ref.load(verify=True))


class Merge(beam.CombineFn):
    """Accumulators made by ``empty()`` and combined with their ``merge`` method, in
    whatever order the runner chooses (:class:`Stats` and :class:`Survey` merge to the
    same result in any order)."""

    def __init__(self, empty: Callable[[], Any]) -> None:
        super().__init__()
        self.empty = empty

    def create_accumulator(self) -> Any:
        return self.empty()

    def add_input(self, accumulator: Any, value: Any) -> Any:
        return accumulator.merge(value)

    def merge_accumulators(self, accumulators: Iterable[Any]) -> Any:
        merged = self.empty()
        for accumulator in accumulators:
            merged.merge(accumulator)
        return merged

    def extract_output(self, accumulator: Any) -> Any:
        return accumulator


class ComputeStats(beam.PTransform):
    """Split references -> one :class:`Stats` of the whole dataset (its records read as
    the message type ``spec`` names, see :class:`Typed`)."""

    def __init__(self, spec: Any = None) -> None:
        super().__init__()
        self.spec = spec

    def expand(self, refs: Any) -> Any:
        return (
            refs
            | "Statistics" >> beam.Map(Typed(_stats, self.spec))
            | "Merge" >> beam.CombineGlobally(Merge(Stats))
        )


def _statuses(item: SplitCheck) -> tuple[str, Any]:
    return "statuses", (item.ref.key, item.statuses)


def _part(part: CheckPart) -> tuple[str, CheckPart]:
    return "part", replace(part, copies={})  # the copies go through the shuffle instead


def _copies(grouped: tuple[bytes, Any]) -> Iterator[tuple[str, Any]]:
    digest, lists = grouped
    copies = copies_of(digest, itertools.chain.from_iterable(lists))
    if copies.notes:
        yield "copies", copies


class CheckShards(beam.PTransform):
    """Split references -> tagged results for :func:`~tfr_viewer.beam.commands.check_on_beam`.

    Every split is verified, surveyed and checked in one read
    (:func:`~tfr_viewer.core.analyze.split_check.ref_check`: ``("statuses", (split key,
    statuses))``); the surveys make the dataset's (``("survey", Survey)``); each split's
    part stands or is checked again by that survey (``("part", CheckPart)``), and the
    places of every image are grouped on its SHA-256 (``("copies", Copies)`` per image
    held by more than one record)."""

    def __init__(self, spec: Any = None, **options: Any) -> None:
        super().__init__()
        self.spec = spec  # the message type the records are read as (see Typed)
        self.options = options  # label_map, limits, schema: as check_dataset takes them

    def expand(self, refs: Any) -> Any:
        checked = refs | "Check" >> beam.Map(Typed(ref_check, self.spec), self.options)
        known = (
            checked
            | "Surveys" >> beam.Map(lambda item: item.survey)
            | "Merge" >> beam.CombineGlobally(Merge(Survey))
        )
        parts = checked | "Settle" >> beam.Map(
            Typed(settled_part, self.spec), beam.pvalue.AsSingleton(known), self.options
        )
        copies = (
            parts
            | "Places" >> beam.FlatMap(lambda part: part.copies.items())
            | "ByImage" >> beam.GroupByKey()
            | "Copies" >> beam.FlatMap(_copies)
        )
        return (
            checked | "Statuses" >> beam.Map(_statuses),
            known | "Known" >> beam.Map(lambda k: ("survey", k)),
            parts | "Parts" >> beam.Map(_part),
            copies,
        ) | "Together" >> beam.Flatten()
