"""``check`` by processes on this machine: each split (:mod:`..io.splits`) is surveyed
and checked in one read by a worker (:func:`.checks.surveyed_check`); the surveys make
the dataset's; a split whose check went by another plan (keys first seen elsewhere) is
checked again by the dataset's. The findings are those of :func:`.checks.check_dataset`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import numpy as np

from ..io import Dataset
from ..io.split_pool import map_splits
from ..io.splits import SplitRef, apply_statuses, mark_verified, plan_refs
from .check_merge import CheckPart, finish_check
from .checks import check_split, surveyed_check
from .findings import Finding
from .survey import Plan, Survey


@dataclass
class SplitCheck:
    """What a worker found in one split: the statuses of its records, its survey, and
    the check of its intact records by ``plan``."""

    ref: SplitRef
    statuses: np.ndarray
    survey: Survey
    part: CheckPart
    plan: Plan


def refs_check(refs: list[SplitRef], options: Mapping[str, Any]) -> list[SplitCheck]:
    """Survey and check each split, found again from its reference (in a worker)."""
    out = []
    for ref in refs:
        with ref.load().dataset() as ds:
            found, part, plan = surveyed_check(ds, ref.base, **options)
            out.append(SplitCheck(ref, ds.files[0].index.statuses(), found, part, plan))
    return out


def refs_recheck(
    refs: list[SplitRef],
    statuses: Mapping[tuple[int, int], np.ndarray],
    known: Survey,
    options: Mapping[str, Any],
) -> list[CheckPart]:
    """Check verified splits again by the dataset's survey ``known`` (in a worker)."""
    return [
        check_split(
            replace(ref.load(), statuses=statuses[ref.key], checked=True),
            ref.base,
            known,
            **options,
        )
        for ref in refs
    ]


def pooled_check(
    ds: Dataset,
    jobs: int,
    progress: Callable[[int, int], None] | None = None,
    **options: Any,
) -> list[Finding]:
    """The findings of a header-indexed ``ds`` by ``jobs`` processes (``progress`` in
    splits; ``options`` as :func:`.checks.check_dataset` takes them). The statuses the
    workers found are settled in the index of ``ds``."""
    done = [
        item
        for batch in map_splits(plan_refs(ds), partial(refs_check, options=options), jobs, progress)
        for item in batch
    ]
    for item in done:
        apply_statuses(ds, item.ref.key, item.statuses)
    mark_verified(ds)
    known = Survey()
    for item in done:
        known.merge(item.survey)
    plan = known.plan()
    parts = [item.part for item in done if item.plan == plan]
    again = [item for item in done if item.plan != plan]
    if again:
        work = partial(
            refs_recheck,
            statuses={item.ref.key: item.statuses for item in again},
            known=known,
            options=options,
        )
        for batch in map_splits([item.ref for item in again], work, jobs):
            parts.extend(batch)
    return finish_check(ds, parts, known, limits=options.get("limits"))
