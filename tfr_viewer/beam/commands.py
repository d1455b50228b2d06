"""The Beam side of ``verify`` and ``stats``: the command indexes the headers as usual,
the pipeline does the per-split work, and the command reports as it does locally."""

from __future__ import annotations

from collections.abc import Sequence

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
