"""``check`` split by split, the work spread by an :data:`~..io.split_pool.Each`
(processes here with ``--jobs``; Beam's :class:`~tfr_viewer.beam.transforms.CheckShards`
runs the same functions). Each split is surveyed and checked in one read
(:func:`ref_check`); the surveys make the dataset's; a split checked by another plan
(keys first seen elsewhere) is checked again by the dataset's (:func:`settled_part`).
The findings are those of :func:`.checks.check_dataset`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import numpy as np

from ..io import Dataset
from ..io.split_pool import Each
from ..io.splits import SplitRef, apply_statuses, mark_verified, plan_refs
from .check_merge import CheckPart, finish_check
from .checks import check_split, surveyed_check
from .findings import Finding
from .survey import Plan, Survey


@dataclass
class SplitCheck:
    """What one split showed: the statuses of its records, its survey, and the check of
    its intact records by ``plan``."""

    ref: SplitRef
    statuses: np.ndarray
    survey: Survey
    part: CheckPart
    plan: Plan


def ref_check(ref: SplitRef, options: Mapping[str, Any]) -> SplitCheck:
    """Survey and check a split found again from its reference, in one read."""
    with ref.load().dataset() as ds:
        found, part, plan = surveyed_check(ds, ref.base, **options)
        return SplitCheck(ref, ds.files[0].index.statuses(), found, part, plan)


def settled_part(item: SplitCheck, known: Survey, options: Mapping[str, Any]) -> CheckPart:
    """The split's part by the dataset's survey ``known``: its own, when it was checked
    by the same plan; otherwise the split checked again."""
    if item.plan == known.plan():
        return item.part
    split = replace(item.ref.load(), statuses=item.statuses, checked=True)
    return check_split(split, item.ref.base, known, **options)


def check_each(ds: Dataset, each: Each, **options: Any) -> list[Finding]:
    """The findings of a header-indexed ``ds`` (``options`` as
    :func:`.checks.check_dataset` takes them), its splits' work given to ``each``. The
    statuses found are settled in the index of ``ds``."""
    checked = list(each(partial(ref_check, options=options), plan_refs(ds)))
    for item in checked:
        apply_statuses(ds, item.ref.key, item.statuses)
    mark_verified(ds)
    known = Survey()
    for item in checked:
        known.merge(item.survey)
    plan = known.plan()
    parts = [item.part for item in checked if item.plan == plan]
    again = [item for item in checked if item.plan != plan]
    if again:
        parts += each(partial(settled_part, known=known, options=options), again)
    predictions = options.get("predictions")
    return finish_check(ds, parts, known, limits=options.get("limits"), predictions=predictions)
