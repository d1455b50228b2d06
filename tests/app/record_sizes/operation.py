"""The record-sizes analysis as an operation: its request and how it runs."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tfr_viewer.app.indexing import index
from tfr_viewer.app.task_state import QUIET, TaskState
from tfr_viewer.core.io import Dataset

from .report import Largest, RecordSizesReport


@dataclass(frozen=True)
class RecordSizesRequest:
    """``largest``: how many of the largest records to name; ``limit``: a payload past
    this many bytes fails (0: none does)."""

    largest: int = field(default=3, metadata={"help": "how many of the largest records to name"})
    limit: int = field(default=0, metadata={"help": "fail past this many bytes (0: never)"})

    def __post_init__(self) -> None:
        if self.largest < 1:
            raise ValueError("largest must be 1 or more")

    def run(self, ds: Dataset, state: TaskState = QUIET) -> RecordSizesReport:
        index(ds, verify=False, state=state)
        records = np.arange(len(ds), dtype=np.int64)
        lengths = ds.frame_facts(records)[2].astype(np.int64)
        order = np.argsort(-lengths, kind="stable")[: self.largest]
        return RecordSizesReport(
            records=len(ds),
            total=int(lengths.sum()),
            smallest=int(lengths.min()) if len(ds) else 0,
            largest=tuple(Largest(int(i), int(lengths[i])) for i in order),
            limit=self.limit,
        )
