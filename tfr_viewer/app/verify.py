"""``verify``: every CRC of every record checked.

:func:`verify` runs it here (the faster way for the dataset: :mod:`.indexing`) or split
by split on processes of this machine (:func:`verify_in_splits` takes any
:data:`~tfr_viewer.core.io.split_pool.Each`: a Beam pipeline's too);
:class:`VerifyReport` is what it found, the same for the command line's ``--json``, the
Python API and the window."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.io import Dataset, Problem
from .indexing import index, verify as verify_here
from .tables import require_pandas
from .task_state import QUIET, TaskState

if TYPE_CHECKING:
    import numpy as np

    from ..core.io.remote import Transferred
    from ..core.io.split_pool import Each


@dataclass(frozen=True)
class FileFacts:
    """One file as verified: its path, its records, its problems."""

    path: str
    records: int
    problems: int

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "records": self.records, "problems": self.problems}


@dataclass(frozen=True)
class VerifyReport:
    """What ``verify`` found: the records looked at, the problems (damaged records and
    regions), each file's figures, the dataset's warnings, and what reading remote files
    cost (None when none is remote). Iterating gives the problems."""

    records: int
    problems: tuple[Problem, ...]
    files: tuple[FileFacts, ...]
    warnings: tuple[str, ...]
    transfer: Transferred | None = None

    @classmethod
    def of(cls, ds: Dataset, shown: np.ndarray | None = None) -> VerifyReport:
        """The report of a verified ``ds``; with ``shown`` (record numbers), of those
        records only: the others' problems are left out (regions stay)."""
        kept = set(shown.tolist()) if shown is not None else None
        problems = tuple(p for p in ds.problems() if kept is None or p.region or p.record in kept)
        return cls(
            len(ds) if shown is None else len(shown),
            problems,
            tuple(FileFacts(f.path, len(f.index), f.index.problem_count()) for f in ds.files),
            tuple(str(w) for w in ds.warnings),
            ds.transfer(),
        )

    @property
    def failed(self) -> bool:
        """Whether anything is wrong (``verify`` exits 1)."""
        return bool(self.problems)

    def __len__(self) -> int:
        return len(self.problems)

    def __iter__(self) -> Iterator[Problem]:
        return iter(self.problems)

    def to_json(self) -> dict[str, Any]:
        """``verify --json``: ``records``, ``problems``, ``files``, ``warnings`` and, for
        remote files, ``transfer``."""
        out: dict[str, Any] = {
            "records": self.records,
            "problems": [p.to_json() for p in self.problems],
            "files": [f.to_json() for f in self.files],
            "warnings": list(self.warnings),
        }
        if self.transfer is not None:
            out["transfer"] = self.transfer.to_json()
        return out

    def to_pandas(self) -> Any:
        """A row a problem: file, record, offset, kind, message."""
        columns = ["file", "record", "offset", "kind", "message"]
        rows = [p.to_json() for p in self.problems]
        return require_pandas().DataFrame(rows, columns=columns)


def verify(
    ds: Dataset,
    state: TaskState = QUIET,
    jobs: int = 1,
    shown: np.ndarray | None = None,
) -> VerifyReport:
    """Check every CRC of ``ds``: here, or split by split on ``jobs`` processes; the
    report of the ``shown`` records (all of them by default)."""
    if jobs <= 1:
        verify_here(ds, state)
    else:
        from ..core.io.split_pool import pool_each

        index(ds, verify=False, state=state)
        with state.phase("verifying", 0, unit="splits") as step:
            verify_in_splits(ds, pool_each(jobs, step))
    return VerifyReport.of(ds, shown)


def verify_in_splits(ds: Dataset, each: Each) -> None:
    """Check every payload CRC of a header-indexed ``ds`` split by split, by ``each``
    (processes here, or a Beam pipeline)."""
    from ..core.io.splits import verify_each

    verify_each(ds, each)
