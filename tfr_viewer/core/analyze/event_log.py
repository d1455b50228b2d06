"""What the event files of a log folder hold, read once in record order: each run's
tags with their points and the bytes they take, the bytes of each kind of event, every
scalar point, every histogram, image and text summary, each run's hyperparameters.
Nothing is sampled: every point of every tag is kept, as TensorBoard keeps only when
told to.

The bytes a tag takes are the bytes of its values in their summaries, and an equal
share of the rest of each event that holds them (its wall time and step, its frame's
16 bytes): the tags' bytes and those of the other events add up to the files'."""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..decode.payloads import event
from ..io.framing import FRAME_OVERHEAD
from .event_values import HPARAMS, histogram_of, hparams_of, metric_tags, plugin_of, scalar_of

OTHER = "other"  # the kind of a record that is no Event


@dataclass
class TagEntry:
    """One tag of one run: the plugin that shows it, its ``points`` (one an event that
    holds it), its first and last step, the bytes it takes, its first record."""

    run: str
    tag: str
    plugin: str
    points: int = 0
    first_step: int = 0
    last_step: int = 0
    bytes: float = 0.0
    record: int = 0


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


@dataclass
class ScalarColumns:
    """Every scalar point, a column each: ``run`` and ``tag`` index :attr:`runs` and
    :attr:`tags`."""

    runs: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    run: array[int] = field(default_factory=lambda: array("i"))
    tag: array[int] = field(default_factory=lambda: array("i"))
    step: array[int] = field(default_factory=lambda: array("q"))
    wall_time: array[float] = field(default_factory=lambda: array("d"))
    value: array[float] = field(default_factory=lambda: array("d"))
    record: array[int] = field(default_factory=lambda: array("q"))

    def __len__(self) -> int:
        return len(self.value)

    def arrays(self) -> dict[str, np.ndarray]:
        """The columns as numpy arrays."""
        return {
            "run": np.frombuffer(self.run, dtype=np.int32) if len(self.run) else _none(np.int32),
            "tag": np.frombuffer(self.tag, dtype=np.int32) if len(self.tag) else _none(np.int32),
            "step": np.frombuffer(self.step, dtype=np.int64) if len(self) else _none(np.int64),
            "wall_time": (
                np.frombuffer(self.wall_time, dtype=np.float64) if len(self) else _none(np.float64)
            ),
            "value": (
                np.frombuffer(self.value, dtype=np.float64) if len(self) else _none(np.float64)
            ),
            "record": (
                np.frombuffer(self.record, dtype=np.int64) if len(self) else _none(np.int64)
            ),
        }


def _none(dtype: Any) -> np.ndarray:
    return np.zeros(0, dtype=dtype)


class EventLog:
    """The summary of a log folder's records, fed by :meth:`add` in record order.
    ``runs`` names each file's run (:func:`..io.event_runs.run_names`)."""

    def __init__(self, runs: Sequence[str]) -> None:
        self.file_runs = list(runs)
        self.tags: dict[tuple[str, str], TagEntry] = {}
        self.kinds: dict[tuple[str, str], list[int]] = {}  # (run, kind) -> [events, bytes]
        self.scalars = ScalarColumns()
        self.histograms: list[HistogramPoint] = []
        self.summaries: list[SummaryPoint] = []
        self.hparams: dict[str, dict[str, bool | float | str | None]] = {}
        self.metric_names: dict[str, list[tuple[str, str]]] = {}
        self._run_ids: dict[str, int] = {}
        self._tag_ids: dict[str, int] = {}

    # -- reading ---------------------------------------------------------------------
    def add(self, record: int, file: int, payload: bytes) -> None:
        """Take the intact record ``record`` of file number ``file``."""
        run = self.file_runs[file]
        frame = len(payload) + FRAME_OVERHEAD
        if not event.bid(payload).priority:
            self._kind(run, OTHER, frame)
            return
        p = event.decode(payload)
        self._kind(run, p.what, frame)
        if not p.values:
            return
        share = (frame - sum(v.size for v in p.values)) / len(p.values)
        for v in p.values:
            self._value(run, record, p, v, v.size + share)

    def _kind(self, run: str, kind: str, frame: int) -> None:
        counts = self.kinds.setdefault((run, kind), [0, 0])
        counts[0] += 1
        counts[1] += frame

    def _value(
        self, run: str, record: int, p: event.EventPayload, v: event.SummaryValue, size: float
    ) -> None:
        plugin = plugin_of(v)
        entry = self.tags.get((run, v.tag))
        if entry is None:
            entry = TagEntry(run, v.tag, plugin, first_step=p.step, last_step=p.step, record=record)
            self.tags[(run, v.tag)] = entry
        entry.points += 1
        entry.last_step = p.step
        entry.bytes += size
        if (number := scalar_of(v)) is not None:
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
        s.run.append(_intern(run, self._run_ids, s.runs))
        s.tag.append(_intern(tag, self._tag_ids, s.tags))
        s.step.append(p.step)
        s.wall_time.append(p.wall_time)
        s.value.append(value)
        s.record.append(record)

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
