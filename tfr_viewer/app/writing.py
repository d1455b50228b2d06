"""The window's writes as requests: chosen records (edits applied) as TFRecord files or
in another format, and images converted to TFRecord.

Each runs in the window's child (:mod:`.jobs`) and reports its progress through its
task state; every file goes through the output layer, so a cancelled write (the child
ended) leaves only temporaries, which the next write into the folder removes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.io import Dataset
from ..core.write.convert import ConvertOptions, ConvertSummary, convert
from ..core.write.convert_sources import Listing
from ..core.write.export import ExportOptions, ExportSummary, export
from .task_state import QUIET, TaskState


def export_warnings(
    ds: Dataset, written: int, filter: str | None = None, own: Sequence[str] = ()
) -> tuple[str, ...]:
    """What an export of ``ds`` warns of, whatever its format: the dataset's warnings
    (empty files, missing shards, files that are no TFRecords), the export's ``own``
    (fewer shards than asked), and an output that holds no record (``written`` 0)."""
    warnings = [*ds.file_warnings(), *own]
    if not written:
        what = "no intact record matches the filter" if filter else "no record is intact"
        warnings.append(f"{what}, so the output holds none")
    return tuple(warnings)


@dataclass(frozen=True)
class ExportReport:
    """What an export to TFRecord files wrote (``summary``: its files, records, bytes,
    damaged records skipped, seconds, records per file) and its ``warnings``; for
    ``recover``, what was ``lost`` (and no warnings: None). ``to_json()`` is
    ``export --json`` (``recover --json``), ``to_text()`` what they print without it."""

    summary: ExportSummary
    warnings: tuple[str, ...] | None = ()
    lost: tuple[Mapping[str, Any], ...] | None = None

    @classmethod
    def of(cls, ds: Dataset, summary: ExportSummary, filter: str | None = None) -> ExportReport:
        """The report of an export of ``ds`` (records chosen by ``filter``, if any), with
        :func:`export_warnings`."""
        return cls(summary, export_warnings(ds, summary.records, filter, summary.warnings))

    @property
    def files(self) -> tuple[str, ...]:
        return self.summary.files

    @property
    def records(self) -> int:
        return self.summary.records

    def to_json(self) -> dict[str, Any]:
        """``export --json``, as JSON reads it back."""
        from ..core import json_text

        s = self.summary
        out: dict[str, Any] = {
            "files": list(s.files),
            "records": s.records,
            "bytes": s.bytes,
            "skipped_damaged": s.skipped_damaged,
            "seconds": round(s.seconds, 3),
            "per_file": s.per_file,
        }
        if self.lost is not None:
            out["lost"] = [dict(p) for p in self.lost]
        if self.warnings is not None:
            out["warnings"] = list(self.warnings)
        return json_text.read_back(out)

    def to_text(self) -> str:
        """A line per file written, then the totals."""
        from ..core.text import plural

        s = self.summary
        lines = [f"{path}: {plural(count, 'record')}" for path, count in s.per_file.items()]
        lines.append(
            f"{plural(s.records, 'record')}, {s.bytes:,} bytes in "
            f"{plural(len(s.files), 'file')}, "
            f"{plural(s.skipped_damaged, 'damaged record')} skipped, {s.seconds:.1f} s"
        )
        return "\n".join(lines)


@dataclass(frozen=True)
class ExportRecordsRequest:
    """Records ``records`` (global numbers, in this order) as TFRecord files as
    ``options`` say, ``payloads`` (by global number) written instead of the files';
    ``filter``, the filter that chose them, if one did (for the report's warnings)."""

    records: Sequence[int] | np.ndarray
    options: ExportOptions
    payloads: Mapping[int, bytes] = field(default_factory=dict)
    filter: str | None = None

    def run(self, ds: Dataset, state: TaskState = QUIET) -> ExportReport:
        with state.phase("exporting", len(self.records)) as step:
            summary = export(ds, self.records, self.options, payloads=self.payloads, progress=step)
        return ExportReport.of(ds, summary, self.filter)


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
class ConvertReport:
    """What a conversion of images to TFRecord wrote (``summary``: its files, records,
    the files skipped and why, the classes, the label files, the checks' findings of the
    new files, seconds). ``to_json()`` is ``convert --json``; ``to_text()`` what it
    prints on stdout without it (the files skipped go to stderr: :meth:`skipped_lines`)."""

    summary: ConvertSummary
    checked: bool = True

    @property
    def files(self) -> tuple[str, ...]:
        return self.summary.files

    @property
    def records(self) -> int:
        return self.summary.records

    def to_json(self) -> dict[str, Any]:
        """``convert --json``, as JSON reads it back."""
        from ..core import json_text
        from ..core.write.convert_sources import skip_counts

        s = self.summary
        return json_text.read_back(
            {
                "files": list(s.files),
                "records": s.records,
                "skipped": [
                    {"path": x.path, "reason": x.reason, "kind": x.kind} for x in s.skipped
                ],
                "skipped_by_kind": skip_counts(s.skipped),
                "classes": {str(i): name for i, name in sorted(s.classes.items())},
                "label_files": list(s.label_files),
                "findings": dict(s.findings),
                "finding_kinds": dict(s.finding_kinds),
                "seconds": round(s.seconds, 3),
            }
        )

    def skipped_lines(self) -> list[str]:
        return [f"skipped: {x.path}: {x.reason}" for x in self.summary.skipped]

    def to_text(self) -> str:
        """The files written, then the totals and (when the new files were checked) the
        checks' findings."""
        from ..core.text import plural
        from ..core.write.convert_sources import skip_summary

        s = self.summary
        classes = f" in {plural(len(s.classes), 'class', 'classes')}" if s.classes else ""
        lines = [*s.files, *s.label_files]
        lines.append(
            f"{plural(s.records, 'image')}{classes} written to "
            f"{plural(len(s.files), 'file')}, {skip_summary(s.skipped)}, {s.seconds:.1f} s"
        )
        if self.checked:
            found = ", ".join(f"{plural(n, k)}" for k, n in sorted(s.findings.items()))
            kinds = ", ".join(f"{k} {n}" for k, n in sorted(s.finding_kinds.items()))
            lines.append(f"checks: {found or 'no findings'}" + (f" ({kinds})" if kinds else ""))
        return "\n".join(lines)


@dataclass(frozen=True)
class ConvertRequest:
    """The images of ``listing`` converted to TFRecord as ``options`` say (it reads no
    indexed dataset: a standalone request)."""

    listing: Listing
    options: ConvertOptions

    def run(self, state: TaskState = QUIET) -> ConvertReport:
        with state.phase("converting", 0, unit="images") as step:
            summary = convert(self.listing, self.options, progress=step)
        return ConvertReport(summary, self.options.check)
