"""A slimmer copy of a log folder's event files (``tfr-viewer slim``, the API's
``view.slim``): the same runs in a new folder, each file copied event by event with
what the rules leave out left out (:mod:`..core.write.event_slim`), through the output
layer (every target checked before anything is read, none of them an input, all put
in place at the end or none). TensorBoard reads the copy with the same runs and tags
and exactly the points kept."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.io import Dataset
from ..core.io.event_runs import is_event_file, run_names
from ..core.user_error import UserError
from ..core.write.event_slim import EventSlimmer, SlimRules
from .task_state import QUIET, TaskState


@dataclass(frozen=True)
class SlimFile:
    """One file copied: its ``file`` and ``output``, the records read and kept, the
    bytes read and written."""

    file: str
    output: str
    records: int
    kept: int
    bytes: int
    written: int


@dataclass(frozen=True)
class SlimReport:
    """Every file copied; the values and events left out, the metadata carried to a
    value kept, the damaged records left out."""

    output: str
    files: tuple[SlimFile, ...]
    values_dropped: int
    events_dropped: int
    metadata_moved: int
    damaged: int

    def to_json(self) -> dict[str, Any]:
        """``slim --json``: ``{output, records, kept, bytes, written, values_dropped,
        events_dropped, metadata_moved, damaged, files: [{file, output, records, kept,
        bytes, written}]}``."""
        return {
            "output": self.output,
            "records": sum(f.records for f in self.files),
            "kept": sum(f.kept for f in self.files),
            "bytes": sum(f.bytes for f in self.files),
            "written": sum(f.written for f in self.files),
            "values_dropped": self.values_dropped,
            "events_dropped": self.events_dropped,
            "metadata_moved": self.metadata_moved,
            "damaged": self.damaged,
            "files": [
                {
                    "file": f.file,
                    "output": f.output,
                    "records": f.records,
                    "kept": f.kept,
                    "bytes": f.bytes,
                    "written": f.written,
                }
                for f in self.files
            ],
        }

    def to_text(self) -> str:
        from ..core.text import human_bytes, plural

        read = sum(f.bytes for f in self.files)
        written = sum(f.written for f in self.files)
        lines = [
            f"{f.output}: {f.kept:,} of {plural(f.records, 'record')}, "
            f"{human_bytes(f.written)} of {human_bytes(f.bytes)}"
            for f in self.files
        ]
        lines.append(
            f"wrote {plural(len(self.files), 'file')} into {self.output}: "
            f"{human_bytes(written)} of {human_bytes(read)}"
            + (f" ({written / read:.1%})" if read else "")
            + f"; left out {plural(self.values_dropped, 'value')} and "
            f"{plural(self.events_dropped, 'event')}"
        )
        if self.damaged:
            lines.append(f"{plural(self.damaged, 'damaged record')} left out")
        return "\n".join(lines)


def output_names(paths: list[str], output: str) -> list[str]:
    """Where each event file of ``paths`` is copied: at its place under the folder
    that holds every file's folder, under ``output`` (a run keeps its name)."""
    runs = run_names(paths)
    return [
        os.path.normpath(os.path.join(output, run, os.path.basename(path)))
        for path, run in zip(paths, runs, strict=True)
    ]


@dataclass(frozen=True)
class SlimRequest:
    """The dataset's event files copied into the folder ``output`` by ``rules``."""

    output: str
    rules: SlimRules = field(default_factory=SlimRules)
    overwrite: bool = False

    def __post_init__(self) -> None:
        if not self.output:
            raise UserError("slim needs an output folder (-o FOLDER)")

    def run(self, ds: Dataset, state: TaskState = QUIET) -> SlimReport:
        from ..core.io.dataset_blocks import iter_blocks
        from ..core.io.framing import RecordWriter
        from ..core.write.output import ExportError, OutputJob
        from .indexing import index

        if os.path.exists(self.output) and not os.path.isdir(self.output):
            raise ExportError(f"{self.output} is a file; slim writes a folder of runs")
        paths = [f.path for f in ds.files]
        other = next((p for p in paths if not is_event_file(p)), None)
        if other is not None:
            raise UserError(
                f"{other} is no TensorBoard event file (named events.out.tfevents.*); slim "
                "copies event files only"
            )
        targets = output_names(paths, self.output)
        runs = run_names(paths)
        slimmers: dict[str, EventSlimmer] = {}
        copied: list[SlimFile] = []
        damaged = 0
        with OutputJob.over(paths, self.overwrite) as job:
            job.plan_all(targets)  # every target refused or taken before any reading
            index(ds, verify=False, state=state)
            with state.phase("copying events", len(ds)) as step:
                done = 0
                for number, (path, target) in enumerate(zip(paths, targets, strict=True)):
                    slimmer = slimmers.setdefault(runs[number], EventSlimmer(self.rules))
                    slimmer.next_file()
                    first = ds.start_of(number)
                    wanted = np.arange(first, first + len(ds.files[number].index))
                    records = ds.undamaged(wanted)
                    size = kept = 0
                    with RecordWriter(job.create(target)) as out:
                        for positions, block in iter_blocks(ds, records, verify=True):
                            if state.cancelled:
                                raise UserError("slim was cancelled; nothing was written")
                            for row in range(len(positions)):
                                payload = block.payload(row)
                                size += len(payload) + 16
                                slim = slimmer.slim(payload)
                                if slim is not None:
                                    out.write(slim)
                                    kept += 1
                            done += len(positions)
                            step(done)
                        written = out.bytes_written
                    lost = len(wanted) - len(ds.undamaged(wanted))
                    damaged += lost
                    copied.append(SlimFile(path, target, len(wanted) - lost, kept, size, written))
            job.commit()
        counts = [s.counts for s in slimmers.values()]
        if damaged:
            from ..core.text import plural

            state.warn(
                f"{plural(damaged, 'damaged record')} left out of the copy (`tfr-viewer "
                "verify` names each with its file and offset)"
            )
        return SlimReport(
            self.output,
            tuple(copied),
            sum(c.values_dropped for c in counts),
            sum(c.events_dropped for c in counts),
            sum(c.metadata_moved for c in counts),
            damaged,
        )
