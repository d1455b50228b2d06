"""What the event files of a log folder hold, read once in record order: each run's
tags with their points, steps and the bytes they take, the bytes of each kind of event,
every scalar point (kept, or taken block by block by a reader that writes them as they
come), every histogram, image and text summary, each run's hyperparameters. Nothing is
sampled: every point of every tag is kept, as TensorBoard keeps only when told to.

The bytes a tag takes are the bytes of its values in their summaries, and an equal
share of the rest of each event that holds them (its wall time and step, its frame's
16 bytes; in whole bytes, the first values of the event taking one more when it does
not split evenly): the tags' bytes and those of the other events add up to the files'.

A block of records is read by the compiled pass where it can (the plain scalars of an
event, the kinds of the others, :func:`..kernels.event_values`) and by the event
decoder for the rest; both give the same log."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from .. import kernels
from ..decode.payloads import event
from ..decode.wire import WireError
from ..io.framing import FRAME_OVERHEAD
from .event_values import (
    HPARAMS,
    SCALARS,
    histogram_of,
    hparams_of,
    metric_tags,
    plugin_of,
    scalar_of,
)
from .scalar_columns import ScalarColumns

if TYPE_CHECKING:
    from ..io.payload_block import PayloadBlock

OTHER = "other"  # the kind of a record that is no Event
UNREADABLE = "unreadable"  # an Event whose fields cannot be read
# the kinds of event by the field of the Event's oneof, as the compiled pass numbers them
_PART_BYTES = 2 << 20  # payload bytes of a part of a block read on one core, at least
_WHAT = {0: "none", **{n: name for n, (name, _) in event.EVENT_FIELDS.items() if 3 <= n <= 9}}


@dataclass
class TagEntry:
    """One tag of one run: the plugin that shows it, its ``points`` (one an event that
    holds it), its first and last step, the bytes it takes, its first record, and the
    last value of a scalar tag."""

    run: str
    tag: str
    plugin: str
    points: int = 0
    first_step: int = 0
    last_step: int = 0
    bytes: int = 0
    record: int = 0
    last_value: float | None = None  # a scalar tag's last point


@dataclass(frozen=True)
class HistogramPoint:
    """A histogram at one step: ``buckets``, ``(k, 3)`` rows of left edge, right edge,
    count."""

    run: str
    tag: str
    step: int
    wall_time: float
    record: int
    buckets: np.ndarray


@dataclass(frozen=True)
class SummaryPoint:
    """A summary of another plugin at one step (an image's pictures, a text): its
    record, and ``text`` for a text summary."""

    run: str
    tag: str
    plugin: str
    step: int
    wall_time: float
    record: int
    text: str | None = None


class EventLog:
    """The summary of a log folder's records, fed by :meth:`add` and :meth:`add_block`
    in record order. ``runs`` names each file's run (:func:`..io.event_runs.run_names`);
    ``scalars`` says whether scalar points are gathered in :attr:`scalars` (for a
    reader to take; every tag's points, steps, bytes and last value are counted
    anyway)."""

    def __init__(self, runs: Sequence[str], scalars: bool = True) -> None:
        self.file_runs = list(runs)
        self.keep_scalars = scalars
        self.tags: dict[tuple[str, str], TagEntry] = {}
        self.kinds: dict[tuple[str, str], list[int]] = {}  # (run, kind) -> [events, bytes]
        self.scalars = ScalarColumns()
        self.histograms: list[HistogramPoint] = []
        self.summaries: list[SummaryPoint] = []
        self.hparams: dict[str, dict[str, bool | float | str | None]] = {}
        self.metric_names: dict[str, list[tuple[str, str]]] = {}
        self._run_ids: dict[str, int] = {}
        self._passes: list[kernels.EventPass] = []  # one a half of a block
        self._tag_ids: dict[str, int] = {}

    # -- reading ---------------------------------------------------------------------
    def add(self, record: int, file: int, payload: bytes) -> None:
        """Take the intact record ``record`` of file number ``file``."""
        run = self.file_runs[file]
        frame = len(payload) + FRAME_OVERHEAD
        if not event.bid(payload).priority:
            self._kind(run, OTHER, 1, frame)
            return
        try:
            p = event.decode(payload)
        except WireError:
            self._kind(run, UNREADABLE, 1, frame)
            return
        self._kind(run, p.what, 1, frame)
        if not p.values:
            return
        base, extra = divmod(frame - sum(v.size for v in p.values), len(p.values))
        for i, v in enumerate(p.values):
            self._value(run, record, p, v, v.size + base + (i < extra))

    def add_block(self, records: np.ndarray, file: int, block: PayloadBlock) -> None:
        """Take the intact records of one file, ``records`` (in order) being the rows
        of ``block``: the compiled pass reads what it can, segment by segment (parts
        of the block two at a time side by side, on two cores), the rest is read as
        :meth:`add` reads a record, in the records' order."""
        if not kernels.compiled_in_use():
            for row, record in enumerate(records.tolist()):
                self.add(record, file, block.payload(row))
            return
        from ..io.payload_block import PayloadBlock

        starts = np.ascontiguousarray(block.starts, dtype=np.int64)
        lengths = np.ascontiguousarray(block.lengths, dtype=np.int64)
        cuts = _cuts(lengths) if _two_cores() else [0, len(starts)]
        while len(self._passes) < 2:
            self._passes.append(kernels.EventPass())
        for k in range(0, len(cuts) - 1, 2):  # two parts at a time, side by side
            pair = cuts[k : k + 3]
            parts = [
                (PayloadBlock(block.buf, starts[lo:hi], lengths[lo:hi]), records[lo:hi])
                for lo, hi in zip(pair, pair[1:], strict=False)
            ]
            whats = [np.empty(part.rows, dtype=np.uint8) for part, _ in parts]
            firsts = _side_by_side(
                [
                    partial(p.read, part.buf, part.starts, part.lengths, what, 0)
                    for p, (part, _), what in zip(self._passes, parts, whats, strict=False)
                ]
            )
            for p, (part, part_records), what, first in zip(
                self._passes, parts, whats, firsts, strict=False
            ):
                self._add_rows(p, first, part, part_records, file, what)

    def _add_rows(
        self,
        read: kernels.EventPass,
        segment: kernels.EventSegment | None,
        block: PayloadBlock,
        records: np.ndarray,
        file: int,
        what: np.ndarray,
    ) -> None:
        """The rows of ``block`` (int64 starts and lengths), ``records``, taken: from
        ``segment``, their first read already, on, the next segments read by ``read``
        (``what`` its row of each)."""
        row = 0
        while row < block.rows:
            if segment is None:
                segment = read.read(block.buf, block.starts, block.lengths, what, row)
            assert segment is not None
            self._add_segment(segment, row, records, file, block.lengths)
            row = segment.stop
            if segment.status == kernels.EVENTS_PYTHON:
                self.add(int(records[row]), file, block.payload(row))
                row += 1
            segment = None

    def _add_segment(
        self,
        segment: kernels.EventSegment,
        lo: int,
        records: np.ndarray,
        file: int,
        lengths: np.ndarray,
    ) -> None:
        """The rows ``lo`` to ``segment.stop`` of a block, read whole by the compiled
        pass."""
        run, hi = self.file_runs[file], segment.stop
        whats = segment.what[lo:hi]
        events = np.bincount(whats, minlength=256)
        sizes = np.bincount(whats, weights=lengths[lo:hi] + FRAME_OVERHEAD, minlength=256)
        for code in np.flatnonzero(events).tolist():
            self._kind(run, _WHAT[code], int(events[code]), int(sizes[code]))
        if not len(segment.names):
            return
        names = self.scalars.tags
        ids = []
        for name, facts in zip(segment.names, segment.tags.tolist(), strict=True):
            tag = name.decode("utf-8", "replace")
            ids.append(_intern(tag, self._tag_ids, names))
            _, _, values, taken, first, last = facts
            entry = self.tags.get((run, tag))
            if entry is None:
                step = int(segment.step[first])
                record = int(records[segment.row[first]])
                entry = TagEntry(run, tag, SCALARS, 0, step, 0, 0, record)
                self.tags[(run, tag)] = entry
            entry.points += values
            entry.bytes += taken
            entry.last_step = int(segment.step[last])
            entry.last_value = float(segment.value[last])
        if self.keep_scalars:
            count = len(segment.value)
            run_id = _intern(run, self._run_ids, self.scalars.runs)
            self.scalars.extend(
                np.full(count, run_id, dtype=np.int32),
                np.asarray(ids, dtype=np.int32)[segment.tag],
                segment.step.copy(),
                segment.wall.copy(),
                segment.value.copy(),
                records[segment.row],
            )

    def _kind(self, run: str, kind: str, events: int, size: int) -> None:
        counts = self.kinds.setdefault((run, kind), [0, 0])
        counts[0] += events
        counts[1] += size

    def _value(
        self, run: str, record: int, p: event.EventPayload, v: event.SummaryValue, size: int
    ) -> None:
        entry = self.tags.get((run, v.tag))
        if (
            v.plugin is None
            and v.kind == "tensor"
            and entry is not None
            and entry.plugin != "tensor"
        ):
            v = replace(v, plugin=entry.plugin)  # a tag's metadata comes with its first value
        plugin = plugin_of(v)
        if entry is None:
            entry = TagEntry(run, v.tag, plugin, first_step=p.step, last_step=p.step, record=record)
            self.tags[(run, v.tag)] = entry
        entry.points += 1
        entry.last_step = p.step
        entry.bytes += size
        if (number := scalar_of(v)) is not None:
            entry.last_value = number
            if self.keep_scalars:
                self._scalar(run, v.tag, p, number, record)
        elif (buckets := histogram_of(v)) is not None:
            self.histograms.append(HistogramPoint(run, v.tag, p.step, p.wall_time, record, buckets))
        elif plugin == HPARAMS:
            if (found := hparams_of(v)) is not None:
                self.hparams[run] = found
            elif (metrics := metric_tags(v)) is not None:
                self.metric_names[run] = metrics
        elif plugin in ("images", "text", "audio"):
            self.summaries.append(
                SummaryPoint(run, v.tag, plugin, p.step, p.wall_time, record, _text(v))
            )

    def _scalar(self, run: str, tag: str, p: event.EventPayload, value: float, record: int) -> None:
        s = self.scalars
        run_id = _intern(run, self._run_ids, s.runs)
        s.append(run_id, _intern(tag, self._tag_ids, s.tags), p.step, p.wall_time, value, record)

    # -- reading it back -------------------------------------------------------------
    def total_bytes(self) -> int:
        """The bytes of every record taken (frames whole)."""
        return sum(counts[1] for counts in self.kinds.values())

    def runs(self) -> list[str]:
        """The runs, in the order of their files."""
        return list(dict.fromkeys(self.file_runs))


def _intern(name: str, ids: dict[str, int], names: list[str]) -> int:
    found = ids.get(name)
    if found is None:
        found = ids[name] = len(names)
        names.append(name)
    return found


def _text(v: event.SummaryValue) -> str | None:
    """A text summary's text: its strings, one a line."""
    if v.tensor is None or v.tensor.dtype != "string" or plugin_of(v) != "text":
        return None
    return "\n".join(
        b.decode("utf-8", "replace") if isinstance(b, bytes) else str(b)
        for b in v.tensor.values.ravel().tolist()
    )


_helper: ThreadPoolExecutor | None = None  # the second core's reader of parts of blocks


def _two_cores() -> bool:
    return (os.cpu_count() or 1) > 1


def _side_by_side(
    reads: Sequence[Callable[[], kernels.EventSegment | None]],
) -> list[kernels.EventSegment | None]:
    """Each read's segment, the first read here and the others on the helper thread at
    the same time (the compiled pass lets go of the interpreter)."""
    global _helper
    if len(reads) == 1:
        return [reads[0]()]
    if _helper is None:
        _helper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tfr-events")
    others = [_helper.submit(read) for read in reads[1:]]
    first = reads[0]()
    return [first, *(o.result() for o in others)]


def _cuts(lengths: np.ndarray) -> list[int]:
    """The rows where a block's parts begin (and its end): parts of at least
    :data:`_PART_BYTES` of payload each, but the last."""
    ends = np.cumsum(lengths)
    marks = np.arange(_PART_BYTES, int(ends[-1]) if len(ends) else 0, _PART_BYTES)
    inner = np.unique(np.searchsorted(ends, marks, side="left") + 1)
    return [0, *(int(c) for c in inner if 0 < c < len(lengths)), len(lengths)]
