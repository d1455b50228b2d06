"""The episode table as an operation of the analyses' registry (:mod:`.analyses`):
``tfr-viewer episodes PATH [--filter EXPR] [--json]``, ``view.analyze("episodes")`` and
the window's Analyze › Run Episodes give the same rows: each episode of the dataset
(robot-learning records, their steps under ``steps/``) with its split, length,
instruction, flags, reward and the kinds of its findings (the episode checks'), those
the filter language chooses (:mod:`..core.analyze.episode_table`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.analyze.episode_table import EpisodeRow, rows_matching
from ..core.io import Dataset
from .task_state import QUIET, TaskState


@dataclass(frozen=True)
class EpisodesReport:
    """The ``rows`` ``filter`` chose (all when it is empty) of ``count`` episodes."""

    rows: tuple[EpisodeRow, ...]
    count: int
    filter: str = ""

    def to_json(self) -> dict[str, Any]:
        """``episodes --json``: the number of episodes, of those matched, the filter,
        and a row an episode matched."""
        from ..core import json_text

        return json_text.read_back(
            {
                "count": self.count,
                "matched": len(self.rows),
                "filter": self.filter or None,
                "episodes": [row.to_json() for row in self.rows],
            }
        )

    def to_text(self) -> str:
        """A line an episode, then the totals."""
        from ..core.text import plural

        if not self.count:
            return "no record keeps steps: the dataset holds no robot-learning episodes"
        lines = [_line(row) for row in self.rows]
        matched = f"{len(self.rows):,} of " if self.filter else ""
        lines.append(f"{matched}{plural(self.count, 'episode')}")
        return "\n".join(lines)


def _line(row: EpisodeRow) -> str:
    from ..core.text import plural

    ends = {True: "ends", False: "never ends", None: "no is_last"}[row.ends]
    reward = f"reward {row.reward:g}" if row.reward is not None else "no reward"
    said = f"{row.instruction!r}" if row.instruction is not None else "no instruction"
    found = ", ".join(row.findings) or "no findings"
    split = f"{row.split} " if row.split else ""
    return f"#{row.record} {split}{plural(row.length, 'step')}, {ends}, {reward}, {said}: {found}"


@dataclass(frozen=True)
class EpisodesRequest:
    """Every episode of the dataset, or those ``filter`` chooses (the filter language
    over the table's columns: ``len(steps) < 5``, ``instruction == ""``)."""

    filter: str = field(
        default="",
        metadata={
            "help": 'keep the episodes matching EXPR (len(steps) < 5, instruction == "")',
            "metavar": "EXPR",
        },
    )

    def __post_init__(self) -> None:
        if self.filter.strip():
            rows_matching([], self.filter)  # a wrong filter before any reading

    def run(self, ds: Dataset, state: TaskState = QUIET) -> EpisodesReport:
        from .episodes import episode_pass
        from .indexing import index

        index(ds, verify=False, state=state)
        _, rows = episode_pass(ds, state)
        chosen = rows_matching(rows, self.filter) if self.filter.strip() else rows
        return EpisodesReport(tuple(chosen), len(rows), self.filter.strip())


def episodes_among(
    ds: Dataset, records: np.ndarray, expression: str, state: TaskState = QUIET
) -> np.ndarray:
    """Those of ``records`` (of the indexed ``ds``, in their order) that are episodes
    ``expression`` (the filter language over the table's columns) matches: the table
    of every episode is made (its findings are judged over the whole dataset), then
    filtered."""
    from .episodes import episode_pass

    _, rows = episode_pass(ds, state)
    chosen = {row.record for row in rows_matching(rows, expression)}
    return np.array([r for r in np.asarray(records).tolist() if r in chosen], dtype=np.int64)
