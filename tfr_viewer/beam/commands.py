"""The Beam side of ``verify``, ``stats`` and ``check``: the command indexes the headers
as usual, the pipeline does the per-split work, and the command reports as it does
locally."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.analyze.findings import Finding
from ..core.analyze.stats import Stats
from ..core.io import Dataset
from ..core.io.splits import apply_statuses, mark_verified, plan_refs
from ..core.write.export import ExportOptions, ExportSummary
from ..errors import UsageError
from . import require_beam


def verify_on_beam(ds: Dataset, runner: str, extra: Sequence[str]) -> None:
    """Check every payload CRC of a header-indexed ``ds`` on ``runner``; afterwards its
    index is verified, exactly as a local verifying scan leaves it."""
    require_beam()
    from .pipeline import run
    from .transforms import VerifyShards

    for key, statuses in run(plan_refs(ds), VerifyShards(), runner, extra):
        apply_statuses(ds, key, statuses)
    mark_verified(ds)


def stats_on_beam(ds: Dataset, runner: str, extra: Sequence[str]) -> Stats:
    """The statistics of a header-indexed ``ds``, computed on ``runner``."""
    require_beam()
    from .pipeline import run
    from .transforms import ComputeStats

    (stats,) = run(plan_refs(ds), ComputeStats(), runner, extra)
    return stats


def check_on_beam(ds: Dataset, runner: str, extra: Sequence[str], **options: Any) -> list[Finding]:
    """The findings of a header-indexed ``ds``, checked on ``runner`` (``options`` as
    :func:`~tfr_viewer.core.analyze.checks.check_dataset` takes them); afterwards its
    index is verified."""
    require_beam()
    from ..core.analyze.check_merge import Copies, finish_check
    from .pipeline import run
    from .transforms import CheckShards

    parts, copies, known = [], Copies(), None
    for tag, value in run(plan_refs(ds), CheckShards(**options), runner, extra):
        if tag == "statuses":
            apply_statuses(ds, *value)
        elif tag == "part":
            parts.append(value)
        elif tag == "survey":
            known = value
        else:
            copies.merge(value)
    mark_verified(ds)
    assert known is not None, "the pipeline gave no survey"
    return finish_check(ds, parts, known, copies=copies, limits=options.get("limits"))


def export_on_beam(
    ds: Dataset,
    expression: str | None,
    options: ExportOptions,
    runner: str,
    extra: Sequence[str],
) -> ExportSummary:
    """Export the records of a header-indexed ``ds`` that match ``expression`` on
    ``runner``, as :func:`~tfr_viewer.core.write.export.export` does: one pipeline checks
    and filters the splits, another writes and verifies each output under a temporary
    name; the outputs are moved into place when all are written, and removed otherwise."""
    require_beam()
    import time

    import numpy as np

    from ..core.write.export import commit, discard, plan_export, summary_of
    from .pipeline import local_runner, run
    from .transforms import ExportShards, SelectRecords

    if not local_runner(runner):
        raise UsageError(
            f"export --runner {runner}: the outputs are local files, which a cluster's "
            "workers cannot write; use --runner direct, or export on the cluster's machine"
        )
    t0 = time.perf_counter()
    chosen = {}
    for key, statuses, picked in run(plan_refs(ds), SelectRecords(expression), runner, extra):
        apply_statuses(ds, key, statuses)
        chosen[key] = picked
    mark_verified(ds)
    records = [chosen[key] for key in sorted(chosen)]
    plan = plan_export(ds, np.concatenate(records) if records else np.zeros(0, np.int64), options)
    try:
        written = dict(run(plan.tasks, ExportShards(), runner, extra)) if plan.tasks else {}
        commit(plan.tasks)
    except BaseException:
        discard(plan.tasks)
        raise
    return summary_of(plan, sum(written.values()), t0)
