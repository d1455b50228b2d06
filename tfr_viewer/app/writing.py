"""The window's writes as requests: chosen records (edits applied) as TFRecord files or
in another format, and images converted to TFRecord.

Each runs in the window's child (:mod:`.jobs`) and reports its progress through its
task state; every file goes through the output layer, so a cancelled write (the child
ended) leaves only temporaries, which the next write into the folder removes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..core.io import Dataset
from ..core.write.convert import ConvertOptions, ConvertSummary, convert
from ..core.write.convert_sources import Listing
from ..core.write.export import ExportOptions, ExportSummary, export
from .task_state import QUIET, TaskState


@dataclass(frozen=True)
class ExportRecordsRequest:
    """Records ``records`` (global numbers, in this order) as TFRecord files as
    ``options`` say, ``payloads`` (by global number) written instead of the files'."""

    records: Sequence[int] | np.ndarray
    options: ExportOptions
    payloads: Mapping[int, bytes] = field(default_factory=dict)

    def run(self, ds: Dataset, state: TaskState = QUIET) -> ExportSummary:
        with state.phase("exporting", len(self.records)) as step:
            return export(ds, self.records, self.options, payloads=self.payloads, progress=step)


@dataclass(frozen=True)
class FormatExportRequest:
    """Records ``records`` in format ``format`` (a writer of
    :mod:`~tfr_viewer.core.write.writers` that takes edits) to ``out``, which may be
    replaced (the front end asked); ``payloads`` written instead of the files'. The
    report: the number of records written."""

    records: Sequence[int] | np.ndarray
    format: str
    out: str
    payloads: Mapping[int, bytes] = field(default_factory=dict)

    def run(self, ds: Dataset, state: TaskState = QUIET) -> int:
        from ..core.write.writers import write

        payloads = self.payloads

        def read(i: int) -> bytes:
            return payloads[i] if i in payloads else ds.read(i)

        with state.phase(f"exporting {self.format}", len(self.records)) as step:
            count: int = write(
                self.format, ds, self.records, self.out, overwrite=True, read=read, progress=step
            )
        return count


@dataclass(frozen=True)
class ConvertRequest:
    """The images of ``listing`` converted to TFRecord as ``options`` say (it reads no
    indexed dataset: a standalone request)."""

    listing: Listing
    options: ConvertOptions

    def run(self, state: TaskState = QUIET) -> ConvertSummary:
        with state.phase("converting", 0, unit="images") as step:
            return convert(self.listing, self.options, progress=step)
