"""Every scalar point of a log kept by run and tag, for drawing: fed chunk by chunk as
they are read (:class:`~.scalar_columns.ScalarChunk`), each curve's points in record
order, and TensorBoard's smoothing of a curve."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import kernels
from .scalar_columns import ScalarChunk

DEFAULT_SMOOTHING = 0.6  # TensorBoard's
MAX_SMOOTHING = 0.999  # the most its slider gives
X_AXES = ("step", "relative", "wall_time")  # what a curve's x can be


@dataclass(frozen=True)
class Series:
    """One tag's points in one run, in the order of their records."""

    run: str
    tag: str
    step: np.ndarray
    wall_time: np.ndarray
    value: np.ndarray
    record: np.ndarray

    def __len__(self) -> int:
        return len(self.value)

    def x(self, axis: str) -> np.ndarray:
        """The x of each point: its ``step``, its ``wall_time`` (seconds since 1970), or
        the hours since the curve's first point (``relative``, as TensorBoard's)."""
        if axis == "step":
            return self.step.astype(np.float64)
        if axis == "wall_time":
            return self.wall_time
        if axis == "relative":
            if not len(self):
                return self.wall_time
            hours: np.ndarray = (self.wall_time - self.wall_time[0]) / 3600.0
            return hours
        raise ValueError(f"no x axis {axis!r}; one of {', '.join(X_AXES)}")


def smoothed(values: np.ndarray, weight: float) -> np.ndarray:
    """``values`` smoothed as TensorBoard smooths a curve at ``weight`` (0: as they are;
    at most :data:`MAX_SMOOTHING`): its debiased moving average over the finite values
    (:func:`..kernels.smooth`), a value that is not finite drawn as it is, and a curve
    whose values are all equal drawn as it is."""
    if not 0.0 <= weight <= MAX_SMOOTHING:
        raise ValueError(f"smoothing {weight} is outside 0 to {MAX_SMOOTHING}")
    given: np.ndarray = np.asarray(values, dtype=np.float64)
    if weight == 0.0 or not len(given) or bool(np.all(given == given[0])):
        same: np.ndarray = given.copy()
        return same
    out: np.ndarray = kernels.smooth(given, weight)
    return out


@dataclass(frozen=True)
class KeptPoints:
    """A chunk's points as a curve keeps them (made where the chunk is read, so that
    whoever draws takes them as they are): per point its ``tag`` and ``value`` and the
    number of its event (its record) among ``step``, ``wall_time`` and ``record``, one
    row an event, which all the values of an event share; ``run``, an array a point, or
    one number for a chunk of one run; ``runs`` and ``tags`` name the ids."""

    runs: tuple[str, ...]
    tags: tuple[str, ...]
    run: np.ndarray | int
    tag: np.ndarray
    value: np.ndarray
    event: np.ndarray
    step: np.ndarray
    wall_time: np.ndarray
    record: np.ndarray

    @classmethod
    def of(cls, chunk: ScalarChunk) -> KeptPoints:
        n = len(chunk)
        first = np.ones(n, dtype=bool)
        first[1:] = chunk.record[1:] != chunk.record[:-1]
        starts = np.flatnonzero(first)
        event = np.cumsum(first, dtype=np.int32) - 1
        one_run = bool(np.all(chunk.run == chunk.run[0]))
        return cls(
            chunk.runs,
            chunk.tags,
            int(chunk.run[0]) if one_run else chunk.run.copy(),
            chunk.tag.copy(),
            chunk.value.copy(),
            event,
            chunk.step[starts],
            chunk.wall_time[starts],
            chunk.record[starts],
        )

    def __len__(self) -> int:
        return len(self.value)

    def rows(self, run: int, tag: int) -> np.ndarray:
        mine = self.tag == tag
        if isinstance(self.run, int):
            return np.flatnonzero(mine) if self.run == run else np.zeros(0, np.int64)
        return np.flatnonzero(mine & (self.run == run))


class ScalarSeries:
    """The points gathered so far, kept compactly (about 16 bytes a point, and 24 an
    event: the values of an event share its step, time and record); a curve is
    gathered from them when it is asked for, and only from the points that came since,
    the next time."""

    def __init__(self) -> None:
        self._chunks: list[KeptPoints] = []
        self._runs: tuple[str, ...] = ()
        self._tags: tuple[str, ...] = ()
        self._curves: dict[tuple[str, str], tuple[int, list[tuple[np.ndarray, ...]]]] = {}
        self.points = 0

    def add(self, chunk: ScalarChunk | KeptPoints) -> None:
        """Take ``chunk``'s points (its names include every name seen before; its
        points in record order)."""
        if len(chunk):
            kept = chunk if isinstance(chunk, KeptPoints) else KeptPoints.of(chunk)
            self._chunks.append(kept)
            self._runs, self._tags = chunk.runs, chunk.tags
            self.points += len(chunk)

    def __contains__(self, key: object) -> bool:
        """Whether the run and the tag of ``key`` have both been seen with points."""
        return isinstance(key, tuple) and key[0] in self._runs and key[1] in self._tags

    def series(self, run: str, tag: str) -> Series:
        """The points of ``tag`` in ``run``, in the order they came (none when it has
        no scalar points)."""
        seen, parts = self._curves.get((run, tag), (0, []))
        if seen < len(self._chunks) and (run, tag) in self:
            run_id, tag_id = self._runs.index(run), self._tags.index(tag)
            for kept in self._chunks[seen:]:
                rows = kept.rows(run_id, tag_id)
                if len(rows):
                    events = kept.event[rows]
                    parts.append(
                        (
                            kept.step[events],
                            kept.wall_time[events],
                            kept.value[rows],
                            kept.record[events],
                        )
                    )
            if len(parts) > 1:
                parts = [tuple(np.concatenate(c) for c in zip(*parts, strict=True))]
        self._curves[(run, tag)] = (len(self._chunks), parts)
        if not parts:
            empty = np.zeros(0, np.float64)
            return Series(run, tag, empty.astype(np.int64), empty, empty, empty.astype(np.int64))
        return Series(run, tag, *parts[0])
