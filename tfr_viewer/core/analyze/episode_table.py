"""A dataset's episodes as a table: one :class:`EpisodeRow` an episode (its length, its
instruction, how it ends, its reward, its findings), and the filter language run over
those rows (:func:`rows_matching`): ``len(steps) < 5``, ``instruction == ""``,
``"camera_blank" in findings``, ``split == "val" and not success``.

The names a filter may use of a row are :data:`COLUMNS` (the fields of the record,
``index``, ``file``, ``offset`` and ``record.length``, its bytes, too); a name the table
has not is refused with the columns it has."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..decode.episodes import Episode
from ..query.columns import Rag
from ..query.language import QueryError, compile_filter

# name -> what it is, for the help and the refusal of a name the table has not
COLUMNS: dict[str, str] = {
    "record": "the episode's record number",
    "split": "the split its file is of (a TFDS folder's), else empty",
    "steps": "one value a step (len(steps) is the number of steps)",
    "length": "the number of steps",
    "instruction": "the first step's language instruction",
    "ends": "is_last is true at the last step",
    "terminal": "is_terminal is true at the last step",
    "reward": "the sum of the steps' rewards",
    "success": "the last step's reward is above 0",
    "findings": 'the kinds of the episode\'s findings ("camera_blank" in findings)',
}


@dataclass(frozen=True)
class EpisodeRow:
    """One episode of the table. ``instruction``, ``ends``, ``terminal``, ``reward`` and
    ``success`` are None when its steps have no instruction, flag or reward;
    ``findings`` are the kinds of its findings, most severe first."""

    record: int
    file: str
    offset: int
    size: int  # the record's bytes
    split: str | None
    length: int
    instruction: str | None
    ends: bool | None
    terminal: bool | None
    reward: float | None
    success: bool | None
    findings: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The row as ``episodes --json`` gives it."""
        return {
            "record": self.record,
            "file": self.file,
            "offset": self.offset,
            "split": self.split,
            "length": self.length,
            "instruction": self.instruction,
            "ends": self.ends,
            "terminal": self.terminal,
            "reward": self.reward,
            "success": self.success,
            "findings": list(self.findings),
        }


def episode_row(
    episode: Episode, file: str, offset: int, size: int, split: str | None
) -> EpisodeRow:
    """The row of ``episode`` (read from a dataset: its ``record`` is set), at
    ``offset`` of ``file``, ``size`` bytes, of ``split``."""
    n = episode.length
    last = {name: episode.flag(name) for name in ("is_last", "is_terminal")}
    rewards = [episode.reward(step) for step in range(n)]
    known = [r for r in rewards if r is not None]
    final = rewards[-1] if rewards else None
    return EpisodeRow(
        record=episode.record if episode.record is not None else -1,
        file=file,
        offset=offset,
        size=size,
        split=split,
        length=n,
        instruction=episode.instruction(0),
        ends=_at_last(last["is_last"]),
        terminal=_at_last(last["is_terminal"]),
        reward=float(np.sum(known)) if known else None,
        success=final > 0 if final is not None and np.isfinite(final) else None,
    )


def _at_last(flags: np.ndarray | None) -> bool | None:
    return bool(flags[-1]) if flags is not None and len(flags) else None


class RowBlock:
    """Rows of the table as a filter's block (:class:`~..query.language.Block`): each
    column a list a row (empty where the row has no value)."""

    def __init__(self, rows: Sequence[EpisodeRow]) -> None:
        self.items = list(rows)
        self.rows = len(self.items)

    def field(self, name: str) -> np.ndarray:
        if name == "index":
            return np.array([r.record for r in self.items], dtype=np.int64)
        if name == "offset":
            return np.array([r.offset for r in self.items], dtype=np.int64)
        if name == "length":
            return np.array([r.size for r in self.items], dtype=np.int64)
        out = np.empty(self.rows, dtype=object)
        out[:] = [r.file if name == "file" else "ok" for r in self.items]
        return out

    def feature(self, key: str) -> tuple[Rag, np.ndarray]:
        lists = [_values(row, key) for row in self.items]
        splits = np.zeros(self.rows + 1, dtype=np.int64)
        splits[1:] = np.cumsum([len(v) for v in lists])
        flat = [v for values in lists for v in values]
        present = np.array([bool(v) for v in lists], dtype=bool)
        return Rag(_array(flat), splits), present


def _values(row: EpisodeRow, key: str) -> list[Any]:
    """The values of column ``key`` of ``row``: text as UTF-8 bytes, flags as 0 and 1."""
    if key == "steps":
        return list(range(row.length))
    if key == "findings":
        return [kind.encode() for kind in row.findings]
    value = {
        "record": row.record,
        "split": row.split,
        "length": row.length,
        "instruction": row.instruction,
        "ends": row.ends,
        "terminal": row.terminal,
        "reward": row.reward,
        "success": row.success,
    }[key]
    if value is None:
        return []
    if isinstance(value, str):
        return [value.encode()]
    return [int(value) if isinstance(value, bool) else value]


def _array(values: list[Any]) -> np.ndarray:
    if not values:
        return np.zeros(0, dtype=np.int64)
    if any(isinstance(v, bytes) for v in values):
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out
    if all(isinstance(v, int) for v in values):
        return np.array(values, dtype=np.int64)
    return np.array(values, dtype=np.float64)


def rows_matching(rows: Sequence[EpisodeRow], text: str) -> list[EpisodeRow]:
    """The rows ``text`` (the filter language) matches, in order; a filter that is
    wrong, or that names a column the table has not, is a :class:`QueryError`."""
    flt = compile_filter(text, frozenset(COLUMNS))
    unknown = sorted(flt.keys - set(COLUMNS))
    if unknown:
        raise QueryError(
            f"the episode table has no column {unknown[0]!r}; its columns: " + ", ".join(COLUMNS),
            None,
            text,
        )
    if not rows:
        return []
    mask = flt.mask(RowBlock(rows))
    return [row for row, keep in zip(rows, mask.tolist(), strict=True) if keep]
