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
from ..core.write.convert import ConvertOptions, ConvertSummary, convert_each
from ..core.write.convert_sources import Listing
from ..core.write.export import ExportOptions, ExportSummary
from ..core.write.split_export import export_each
from ..errors import UsageError
from . import require_beam


def verify_on_beam(ds: Dataset, runner: str, extra: Sequence[str]) -> None:
    """Check every payload CRC of a header-indexed ``ds`` on ``runner``; afterwards its
    index is verified, exactly as a local verifying scan leaves it."""
    require_beam()
    from ..app.verify import verify_in_splits
    from .pipeline import beam_each

    verify_in_splits(ds, beam_each(runner, extra))


def stats_on_beam(ds: Dataset, runner: str, extra: Sequence[str]) -> Stats:
    """The statistics of a header-indexed ``ds``, computed on ``runner``."""
    require_beam()
    from .pipeline import run
    from .transforms import ComputeStats

    (stats,) = run(plan_refs(ds), ComputeStats(read_as(ds)), runner, extra)
    merged: Stats = stats
    return merged


def check_on_beam(ds: Dataset, runner: str, extra: Sequence[str], **options: Any) -> list[Finding]:
    """The findings of a header-indexed ``ds``, checked on ``runner`` (``options`` as
    :func:`~tfr_viewer.core.analyze.checks.check_dataset` takes them); afterwards its
    index is verified."""
    require_beam()
    from ..core.analyze.check_merge import Copies, finish_check
    from .pipeline import run
    from .transforms import CheckShards

    parts, copies, known = [], Copies(), None
    for tag, value in run(plan_refs(ds), CheckShards(read_as(ds), **options), runner, extra):
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
    return finish_check(
        ds,
        parts,
        known,
        copies=copies,
        limits=options.get("limits"),
        predictions=options.get("predictions"),
    )


def export_on_beam(
    ds: Dataset,
    expression: str | None,
    options: ExportOptions,
    runner: str,
    extra: Sequence[str],
    records: Sequence[int] | None = None,
) -> ExportSummary:
    """Export the records of a header-indexed ``ds`` that match ``expression`` (or the
    given ``records``) on ``runner`` (:func:`~tfr_viewer.core.write.split_export.
    export_each`). On a cluster, the output is a bucket's URL."""
    require_beam()
    from .pipeline import beam_each

    reachable_output("export", runner, options.out)
    return export_each(ds, expression, options, beam_each(runner, extra, read_as(ds)), records)


def read_as(ds: Dataset) -> Any:
    """What the workers read the records of ``ds`` as: the user's message type, as
    :func:`~..core.decode.message_types.spec_of` carries it (None: as they say)."""
    from ..core.decode.file_payloads import settled_type
    from ..core.decode.message_types import spec_of

    return spec_of(settled_type(ds))


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


def convert_on_beam(
    listing: Listing, options: ConvertOptions, runner: str, extra: Sequence[str]
) -> ConvertSummary:
    """Convert the listed images on ``runner``
    (:func:`~tfr_viewer.core.write.convert.convert_each`); the new files are checked
    there too."""
    require_beam()
    from .pipeline import beam_each, local_runner

    if not local_runner(runner):
        raise UsageError(
            f"convert --runner {runner}: the images are files on this machine, which a "
            "cluster's workers cannot read; use --runner direct (the output may be a "
            "bucket's URL)"
        )
    return convert_each(
        listing, options, beam_each(runner, extra), lambda ds: check_on_beam(ds, runner, extra)
    )
