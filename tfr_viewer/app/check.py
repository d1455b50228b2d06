"""``check``: the data-quality findings of a dataset, pointing at their records.

:class:`CheckOptions` is what the checks take (a label map, image-quality limits, a
schema, a model's predictions), each read and checked by the front end that was given
it; :func:`check` runs them here, on processes of this machine, or over a view or the
window's pending edits (an overlay); :class:`CheckReport` is what they found, the same
for the command line's ``--json``, the Python API and the window."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.analyze.findings import SEVERITIES, Finding, at_least
from ..core.io import Dataset
from .indexing import index
from .tables import require_pandas
from .task_state import QUIET, TaskState

if TYPE_CHECKING:
    from ..core.analyze.check_overlay import Overlay
    from ..core.analyze.image_quality import Thresholds
    from ..core.analyze.label_checks import PredictionCheck


@dataclass(frozen=True)
class CheckOptions:
    """What the checks take: class ids must be in ``label_map``; ``limits`` are the
    image-quality thresholds; records must keep ``schema`` (``schema --infer``);
    ``predictions`` are weighed against the labels."""

    label_map: Mapping[int, str] | None = None
    limits: Thresholds | None = None
    schema: dict[str, Any] | None = None
    predictions: PredictionCheck | None = None

    def keywords(self) -> dict[str, Any]:
        """As :func:`~tfr_viewer.core.analyze.checks.check_dataset` takes them."""
        return {
            "label_map": self.label_map,
            "limits": self.limits,
            "schema": self.schema,
            "predictions": self.predictions,
        }


@dataclass(frozen=True)
class CheckReport:
    """What ``check`` found: the records and files looked at, the findings (most severe
    first), and the severity from which the run fails. Iterating gives the findings."""

    records: int
    files: int
    findings: tuple[Finding, ...]
    fail_on: str = "warning"
    seconds: float = field(default=0.0, compare=False)  # for JUnit's report

    def __len__(self) -> int:
        return len(self.findings)

    def __iter__(self) -> Iterator[Finding]:
        return iter(self.findings)

    def counts(self) -> dict[str, int]:
        """Findings by severity, every severity named."""
        return {s: sum(f.severity == s for f in self.findings) for s in SEVERITIES}

    @property
    def failed(self) -> bool:
        """Whether a finding is at least ``fail_on`` severe (``check`` exits 1)."""
        return any(at_least(f.severity, self.fail_on) for f in self.findings)

    def to_json(self) -> dict[str, Any]:
        """``check --json``: ``records``, ``files``, ``findings``, ``counts``,
        ``fail_on`` and ``failed``."""
        return {
            "records": self.records,
            "files": self.files,
            "findings": [f.to_json() for f in self.findings],
            "counts": self.counts(),
            "fail_on": self.fail_on,
            "failed": self.failed,
        }

    def to_pandas(self) -> Any:
        """A row a finding."""
        columns = ["severity", "kind", "record", "file", "offset", "feature", "box", "message"]
        columns += ["hint", "evidence"]
        rows = [{"evidence": None, **f.to_json()} for f in self.findings]
        return require_pandas().DataFrame(rows, columns=columns)


@dataclass(frozen=True)
class CheckRequest:
    """``check`` as a front end asks it: the options, the severity that fails the run,
    the processes to use, and the window's pending edits (``edited`` payloads by
    record, ``deleted`` records), which the records are checked as."""

    options: CheckOptions = field(default_factory=CheckOptions)
    fail_on: str = "warning"
    jobs: int = 1
    edited: Mapping[int, bytes] = field(default_factory=dict)
    deleted: frozenset[int] = frozenset()

    def run(self, ds: Dataset, state: TaskState = QUIET) -> CheckReport:
        overlay = None
        if self.edited or self.deleted:
            from ..core.analyze.check_overlay import Overlay

            overlay = Overlay(dict(self.edited), frozenset(self.deleted))
        return check(ds, self.options, state, jobs=self.jobs, fail_on=self.fail_on, overlay=overlay)


def check(
    ds: Dataset,
    options: CheckOptions = CheckOptions(),
    state: TaskState = QUIET,
    *,
    jobs: int = 1,
    fail_on: str = "warning",
    overlay: Overlay | None = None,
    records: int | None = None,
) -> CheckReport:
    """The findings of ``ds``: here, or split by split on ``jobs`` processes; with
    ``overlay``, of its records as the overlay has them (a view's others deleted, the
    window's pending edits). ``records`` is the count the report names (the view's)."""
    import time

    from ..core.analyze.checks import check_dataset

    started = time.perf_counter()
    index(ds, verify=False, state=state)  # the payload CRCs are checked as they are read
    if jobs > 1 and overlay is None:
        found = check_in_splits(ds, options, state, jobs)
    else:
        with state.phase("checking", len(ds)) as step:
            found = check_dataset(ds, progress=step, overlay=overlay, **options.keywords())
    return CheckReport(
        len(ds) if records is None else records,
        len(ds.files),
        tuple(found),
        fail_on,
        time.perf_counter() - started,
    )


def check_in_splits(
    ds: Dataset, options: CheckOptions, state: TaskState, jobs: int
) -> list[Finding]:
    """The findings of a header-indexed ``ds``, its splits checked on ``jobs``
    processes, every split matching predictions by the same id."""
    from ..core.analyze.split_check import check_each
    from ..core.decode.file_payloads import settled_type
    from ..core.decode.message_types import worker_setup
    from ..core.io.split_pool import pool_each

    keywords = settled(ds, options).keywords()
    with state.phase("checking", 0, unit="splits") as step:
        setup = worker_setup(settled_type(ds))
        return check_each(ds, pool_each(jobs, step, setup), **keywords)


def settled(ds: Dataset, options: CheckOptions) -> CheckOptions:
    """``options`` with the predictions' id chosen for the whole dataset (so that every
    split, here or on Beam, matches by the same one)."""
    if options.predictions is None:
        return options
    from dataclasses import replace

    from ..core.analyze.label_checks import settle

    return replace(options, predictions=settle(ds, options.predictions))
