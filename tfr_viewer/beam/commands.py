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
from ..core.write.convert import ConvertOptions, ConvertSummary
from ..core.write.convert_sources import Listing
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
    records: Sequence[int] | None = None,
) -> ExportSummary:
    """Export the records of a header-indexed ``ds`` that match ``expression`` (or the
    given ``records``) on ``runner``, as :func:`~tfr_viewer.core.write.export.export`
    does: one pipeline checks and filters the splits, another writes and verifies each
    output under a temporary name; the outputs are moved into place when all are
    written, and removed otherwise. On a cluster, the output is a bucket's URL."""
    require_beam()
    import time

    import numpy as np

    from ..core.write.export import commit, discard, plan_export, summary_of
    from .pipeline import run
    from .transforms import ExportShards, SelectRecords

    reachable_output("export", runner, options.out)
    t0 = time.perf_counter()
    chosen = {}
    for key, statuses, picked in run(plan_refs(ds), SelectRecords(expression), runner, extra):
        apply_statuses(ds, key, statuses)
        chosen[key] = picked
    mark_verified(ds)
    if records is None:
        parts = [chosen[key] for key in sorted(chosen)]
        records = np.concatenate(parts) if parts else np.zeros(0, np.int64)
    plan = plan_export(ds, records, options, remote=True)
    try:
        written = dict(run(plan.tasks, ExportShards(), runner, extra)) if plan.tasks else {}
        commit(plan)
    except BaseException:
        discard(plan)
        raise
    return summary_of(plan, sum(written.values()), t0)


def reachable_output(command: str, runner: str, out: str) -> None:
    """On a runner whose workers are elsewhere, the output must be a bucket's URL."""
    from ..core.io.remote import is_url
    from .pipeline import local_runner

    if not local_runner(runner) and not is_url(out):
        raise UsageError(
            f"{command} --runner {runner}: {out} is a local path, which the cluster's "
            "workers cannot write; give the output as a bucket URL "
            f"(-o gs://bucket/folder/{out.rstrip('/').rsplit('/', 1)[-1] or 'out'})"
        )


BATCHES = 64  # at most this many batches of images (at least 64 images each)


def convert_on_beam(
    listing: Listing, options: ConvertOptions, runner: str, extra: Sequence[str]
) -> ConvertSummary:
    """Convert the listed images on ``runner``, as
    :func:`~tfr_viewer.core.write.convert.convert` does: the workers read, check and
    stage runs of the listing; the command picks the records, exports them and checks
    the new files (on ``runner`` too)."""
    require_beam()
    import time

    from ..core.write.convert import finish, prepare, remove_stagings, staging_path
    from ..core.write.convert_stage import ConvertBatch
    from .pipeline import local_runner, run
    from .transforms import ConvertImages

    if not local_runner(runner):
        raise UsageError(
            f"convert --runner {runner}: the images are files on this machine, which a "
            "cluster's workers cannot read; use --runner direct (the output may be a "
            "bucket's URL)"
        )
    t0 = time.perf_counter()
    stage, classes = prepare(listing, options)
    items = listing.items
    size = max(64, -(-len(items) // BATCHES))
    starts = range(0, len(items), size) if items else [0]
    batches = [
        ConvertBatch(lo, items[lo : lo + size], staging_path(options, k), stage)
        for k, lo in enumerate(starts)
    ]
    try:
        staged = [s for found in run(batches, ConvertImages(), runner, extra) for s in found]
        return finish(
            listing,
            staged,
            [b.staging for b in batches],
            options,
            classes,
            t0,
            write=lambda ds, chosen: export_on_beam(
                ds, None, options.output, runner, extra, records=chosen
            ),
            check=lambda ds: check_on_beam(ds, runner, extra),
        )
    finally:
        remove_stagings([b.staging for b in batches])
