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
