"""Every scalar point of a log kept by run and tag, for drawing: fed chunk by chunk as
they are read (:class:`~.scalar_columns.ScalarChunk`), each curve's points in record
order, and TensorBoard's smoothing of a curve."""

from __future__ import annotations

from dataclasses import dataclass, field

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
            return (self.wall_time - self.wall_time[0]) / 3600.0 if len(self) else self.wall_time
        raise ValueError(f"no x axis {axis!r}; one of {', '.join(X_AXES)}")


def smoothed(values: np.ndarray, weight: float) -> np.ndarray:
    """``values`` smoothed as TensorBoard smooths a curve at ``weight`` (0: as they are;
    at most :data:`MAX_SMOOTHING`): its debiased moving average over the finite values
    (:func:`..kernels.smooth`), a value that is not finite drawn as it is, and a curve
    whose values are all equal drawn as it is."""
    if not 0.0 <= weight <= MAX_SMOOTHING:
        raise ValueError(f"smoothing {weight} is outside 0 to {MAX_SMOOTHING}")
    values = np.asarray(values, dtype=np.float64)
    if weight == 0.0 or not len(values) or bool(np.all(values == values[0])):
        return values.copy()
    return kernels.smooth(values, weight)


@dataclass
class ScalarSeries:
    """The points gathered so far, by ``(run, tag)`` in the order first seen."""

    _parts: dict[tuple[str, str], list[tuple[np.ndarray, ...]]] = field(default_factory=dict)
    _whole: dict[tuple[str, str], Series] = field(default_factory=dict)
    points: int = 0

    def add(self, chunk: ScalarChunk) -> set[tuple[str, str]]:
        """Take ``chunk``'s points; the curves they extend."""
        if not len(chunk):
            return set()
        width = max(len(chunk.tags), 1)
        key = chunk.run.astype(np.int64) * width + chunk.tag
        order = np.argsort(key, kind="stable")
        keys, starts = np.unique(key[order], return_index=True)
        ends = [*starts[1:].tolist(), len(order)]
        changed = set()
        for k, lo, hi in zip(keys.tolist(), starts.tolist(), ends, strict=True):
            name = (chunk.runs[k // width], chunk.tags[k % width])
            rows = order[lo:hi]
            self._parts.setdefault(name, []).append(
                (chunk.step[rows], chunk.wall_time[rows], chunk.value[rows], chunk.record[rows])
            )
            self._whole.pop(name, None)
            changed.add(name)
        self.points += len(chunk)
        return changed

    def keys(self) -> list[tuple[str, str]]:
        """Every curve, as ``(run, tag)``."""
        return list(self._parts)

    def __contains__(self, key: object) -> bool:
        return key in self._parts

    def series(self, run: str, tag: str) -> Series:
        """The points of ``tag`` in ``run`` (none when it has no scalar points)."""
        whole = self._whole.get((run, tag))
        if whole is not None:
            return whole
        parts = self._parts.get((run, tag))
        if not parts:
            empty = np.zeros(0, np.float64)
            return Series(run, tag, empty.astype(np.int64), empty, empty, empty.astype(np.int64))
        if len(parts) > 1:
            parts[:] = [tuple(np.concatenate(c) for c in zip(*parts, strict=True))]
        whole = Series(run, tag, *parts[0])
        self._whole[(run, tag)] = whole
        return whole
