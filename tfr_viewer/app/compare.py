"""``compare``: drift per feature, keys in one dataset only, images in both.

:func:`comparison` verifies both datasets (damaged records are left out of either) and
compares them; :class:`CompareReport` is what it found, the same for the command line's
``--json``, the Python API and the window."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.io import Dataset
from .indexing import index
from .tables import require_pandas
from .task_state import QUIET, TaskState

if TYPE_CHECKING:
    from ..core.analyze.compare_summary import CompareSummary


@dataclass(frozen=True)
class CompareReport:
    """The comparison as ``compare --json`` writes it (``report``), and whether it
    fails (drift past the threshold, shared images unless allowed, no shared key)."""

    report: dict[str, Any]

    @property
    def failed(self) -> bool:
        return bool(self.report["failed"])

    def to_json(self) -> dict[str, Any]:
        """``compare --json``, as JSON reads it back."""
        from ..core import json_text

        return json_text.read_back(self.report)

    def summary(self) -> CompareSummary:
        """The figures of :meth:`to_json`, typed (what the window shows)."""
        from ..core.analyze.compare_summary import CompareSummary

        return CompareSummary.from_json(self.to_json())

    def to_pandas(self) -> Any:
        """A row a feature: its drift figures."""
        rows = [
            {"feature": key, **{k: v for k, v in f.items() if not isinstance(v, (dict, list))}}
            for key, f in self.report["features"].items()
        ]
        return require_pandas().DataFrame(rows)


@dataclass(frozen=True)
class CompareRequest:
    """``compare`` as a front end asks it: the other dataset's paths, the drift that
    fails (None: ``compare``'s own) and whether images in both are allowed."""

    against: tuple[str, ...]
    threshold: float | None = None
    allow_leaks: bool = False

    def run(self, ds: Dataset, state: TaskState = QUIET) -> CompareReport:
        with Dataset.open(list(self.against)) as other:
            return comparison(
                ds, other, state, threshold=self.threshold, allow_leaks=self.allow_leaks
            )


def comparison(
    da: Dataset,
    db: Dataset,
    state: TaskState = QUIET,
    *,
    threshold: float | None = None,
    allow_leaks: bool = False,
) -> CompareReport:
    """``da`` against ``db``, both verified first (``threshold``: the drift that fails,
    by default ``compare``'s own)."""
    from ..core.analyze.compare import THRESHOLD, compare

    threshold = THRESHOLD if threshold is None else threshold
    index(da, verify=True, state=state)
    index(db, verify=True, state=state)
    with state.phase("comparing", len(da) + len(db)) as step:
        out = compare(da, db, threshold=threshold, allow_leaks=allow_leaks, progress=step)
    return CompareReport(out)
