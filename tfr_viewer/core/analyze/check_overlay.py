"""The records a check reads when the window has pending edits: an edited record as
edited, a deleted one not at all (:class:`Overlay`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from ..io import Dataset


@dataclass(frozen=True)
class Overlay:
    """Edits not written yet: payloads by global record number, and deleted records."""

    edited: Mapping[int, bytes] = field(default_factory=dict)
    deleted: frozenset[int] = frozenset()


def checked_records(ds: Dataset, overlay: Overlay | None) -> np.ndarray:
    """The intact records of ``ds``, less those ``overlay`` deletes."""
    records = ds.undamaged(np.arange(len(ds)))
    if overlay is not None and overlay.deleted:
        gone = np.fromiter(overlay.deleted, dtype=np.int64, count=len(overlay.deleted))
        records = records[~np.isin(records, gone)]
    return records
