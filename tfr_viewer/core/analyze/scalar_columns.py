"""Scalar points as columns, gathered a point or a block at a time and taken in
chunks: ``run`` and ``tag`` as indexes into the names seen so far, ``step``,
``wall_time``, ``value`` and ``record``. A reader that writes the points as they come
takes each chunk and keeps none; one that wants them all takes them at the end."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

COLUMNS = ("run", "tag", "step", "wall_time", "value", "record")
_TYPES = (np.int32, np.int32, np.int64, np.float64, np.float64, np.int64)


@dataclass(frozen=True)
class ScalarChunk:
    """Points in order: ``runs`` and ``tags`` name the ids of ``run`` and ``tag``
    (every name seen up to this chunk)."""

    runs: tuple[str, ...]
    tags: tuple[str, ...]
    run: np.ndarray
    tag: np.ndarray
    step: np.ndarray
    wall_time: np.ndarray
    value: np.ndarray
    record: np.ndarray

    def __len__(self) -> int:
        return len(self.value)


@dataclass
class ScalarColumns:
    """The points gathered and not yet taken, and the names of runs and tags."""

    runs: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    _chunks: list[tuple[np.ndarray, ...]] = field(default_factory=list)
    _pending: tuple[list[float], ...] = field(default_factory=lambda: tuple([] for _ in COLUMNS))

    def append(
        self, run: int, tag: int, step: int, wall_time: float, value: float, record: int
    ) -> None:
        """One point (its run and tag as ids)."""
        for column, item in zip(
            self._pending, (run, tag, step, wall_time, value, record), strict=True
        ):
            column.append(item)

    def extend(self, *columns: np.ndarray) -> None:
        """Points in the order of :data:`COLUMNS`, one array each."""
        self._flush()
        self._chunks.append(
            tuple(np.asarray(c, dtype=t) for c, t in zip(columns, _TYPES, strict=True))
        )

    def _flush(self) -> None:
        if self._pending[0]:
            self._chunks.append(
                tuple(np.array(c, dtype=t) for c, t in zip(self._pending, _TYPES, strict=True))
            )
            for c in self._pending:
                c.clear()

    def __len__(self) -> int:
        return sum(len(c[0]) for c in self._chunks) + len(self._pending[0])

    def take(self) -> ScalarChunk:
        """Every point gathered since the last take, which are forgotten."""
        chunk = self.peek()
        self._chunks.clear()
        return chunk

    def take_parts(self) -> list[ScalarChunk]:
        """Every point gathered since the last take, as the parts they were gathered
        in (no copy), which are forgotten."""
        parts = self.parts()
        self._chunks.clear()
        return parts

    def parts(self) -> list[ScalarChunk]:
        """Every point gathered and not taken, as the parts they were gathered in (no
        copy), kept."""
        self._flush()
        names = tuple(self.runs), tuple(self.tags)
        return [ScalarChunk(*names, *columns) for columns in self._chunks]

    def peek(self) -> ScalarChunk:
        """Every point gathered and not taken, kept."""
        self._flush()
        if len(self._chunks) > 1:
            self._chunks[:] = [
                tuple(np.concatenate(parts) for parts in zip(*self._chunks, strict=True))
            ]
        columns = self._chunks[0] if self._chunks else tuple(np.zeros(0, t) for t in _TYPES)
        return ScalarChunk(tuple(self.runs), tuple(self.tags), *columns)
