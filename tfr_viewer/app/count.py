"""``count``: the whole records of a dataset (a header pass), or those a filter matches
(a verifying pass through it); a fragment is never counted, it is a problem.

:class:`CountReport` is what the command line prints with ``--json`` and its exit code
(1 when a problem was found)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.io import Dataset, Problem
from .filtering import matches
from .indexing import index
from .task_state import QUIET, TaskState


@dataclass(frozen=True)
class CountReport:
    """The records counted (``count``), the whole records and files of the dataset, its
    warnings and problems, and the filter counted through (None: every record)."""

    count: int
    records: int
    files: int
    warnings: tuple[str, ...]
    problems: tuple[Problem, ...]
    filter: str | None = None

    @property
    def failed(self) -> bool:
        """Whether a problem was found (``count`` exits 1)."""
        return bool(self.problems)

    def to_json(self) -> dict[str, Any]:
        """``count --json``: ``count``, ``records``, ``files``, ``warnings``,
        ``problems``, and ``filter`` when one was given."""
        out: dict[str, Any] = {
            "count": self.count,
            "records": self.records,
            "files": self.files,
            "warnings": list(self.warnings),
            "problems": [p.to_json() for p in self.problems],
        }
        if self.filter is not None:
            out["filter"] = self.filter
        return out


@dataclass(frozen=True)
class CountRequest:
    """``count`` as a front end asks it: through ``filter``, or every whole record."""

    filter: str | None = None

    def run(self, ds: Dataset, state: TaskState = QUIET) -> CountReport:
        if self.filter:
            count = sum(len(found.keep) for found in matches(ds, self.filter, state))
        else:
            index(ds, verify=False, state=state)
            count = ds.whole_records()
        return CountReport(
            count,
            ds.whole_records(),
            len(ds.files),
            tuple(ds.file_warnings()),
            tuple(ds.problems()),
            self.filter or None,
        )
