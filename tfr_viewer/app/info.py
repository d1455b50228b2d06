"""``info``: each file's compression, records, bytes and problems from a header pass (the
payload CRCs unchecked), and what a TensorFlow Datasets folder says of its splits.

:func:`info` indexes by the headers; :class:`InfoReport` is what it found, the same for
the command line's ``--json`` and the Python API. A file that is no TFRecord at all is
named in its row (``error``) rather than refused."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.io import Dataset
from .indexing import index
from .task_state import QUIET, TaskState

if TYPE_CHECKING:
    from ..core.io.remote import Transferred
    from .event_runs import RunsReport


@dataclass(frozen=True)
class FileInfo:
    """One file after a header pass; ``error`` says why it is no TFRecord, if it is not."""

    path: str
    compression: str
    records: int
    bytes: int
    uncompressed_bytes: int
    problems: int
    empty: bool
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "compression": self.compression,
            "records": self.records,
            "bytes": self.bytes,
            "uncompressed_bytes": self.uncompressed_bytes,
            "problems": self.problems,
            "empty": self.empty,
        }
        if self.error is not None:
            out["error"] = self.error
        return out


@dataclass(frozen=True)
class InfoReport:
    """``info``'s figures: the files, their totals, the dataset's warnings, what reading
    remote files cost, and a TFDS folder's splits (None for any other dataset)."""

    files: tuple[FileInfo, ...]
    records: int
    warnings: tuple[str, ...]
    transfer: Transferred | None = None
    tfds: dict[str, Any] | None = None
    events: RunsReport | None = None

    @property
    def problems(self) -> int:
        return sum(f.problems for f in self.files)

    @property
    def invalid(self) -> list[str]:
        """Why each file that is no TFRecord is not one."""
        return [f.error for f in self.files if f.error is not None]

    def to_json(self) -> dict[str, Any]:
        """``info --json``."""
        out: dict[str, Any] = {
            "files": [f.to_json() for f in self.files],
            "records": self.records,
            "problems": self.problems,
            "bytes": sum(f.bytes for f in self.files),
            "verified": False,
            "warnings": list(self.warnings),
        }
        if self.transfer is not None:
            out["transfer"] = self.transfer.to_json()
        if self.tfds is not None:
            out["tfds"] = self.tfds
        if self.events is not None:
            out["events"] = self.events.to_json()
        return out


def info(ds: Dataset, state: TaskState = QUIET) -> InfoReport:
    """The figures of ``ds`` from a header pass; of TensorBoard event files (every file
    named ``*tfevents*``), also their runs and what their bytes are (one read of every
    record, :mod:`.event_runs`)."""
    index(ds, verify=False, state=state, other_files=True)  # named in their rows
    invalid = ds.not_tfrecord()
    files = []
    for f in ds.files:
        source = f.source
        assert source is not None
        reason = next((r for r in invalid if r.startswith(f"{f.path}: ")), None)
        files.append(
            FileInfo(
                f.path,
                source.compression.value,
                f.index.whole_records(),
                source.compressed_size,
                f.index.position,
                f.index.problem_count(),
                len(f.index) == 0,
                reason,
            )
        )
    return InfoReport(
        tuple(files),
        ds.whole_records(),
        tuple(str(w) for w in ds.warnings),
        ds.transfer(),
        tfds_splits(ds),
        _events(ds, state) if not invalid else None,
    )


def _events(ds: Dataset, state: TaskState) -> RunsReport | None:
    from ..core.io.event_runs import is_event_file

    if not ds.files or not all(is_event_file(f.path) for f in ds.files):
        return None
    from .event_runs import RunsRequest

    return RunsRequest().run(ds, state)


def tfds_splits(ds: Dataset) -> dict[str, Any] | None:
    """A TFDS folder's splits with the records ``dataset_info.json`` promises and those
    the opened shards hold; None for any other dataset."""
    import os

    from ..core.io.tfds import info_of

    described = info_of(f.path for f in ds.files)
    if described is None:
        return None
    held = {os.path.abspath(f.path): len(f.index) for f in ds.files}
    splits = []
    for split in described.splits:
        shards = [p for p, _ in described.shards(split, set(held)) if p]
        splits.append(
            {
                "name": split.name,
                "shards": len(split.shard_lengths),
                "records": split.records,
                "records_found": sum(held.get(os.path.abspath(p), 0) for p in shards),
                "bytes": split.num_bytes,
            }
        )
    names = {key: len(values) for key, values in described.class_names.items()}
    return {
        "name": described.name,
        "version": described.version,
        "splits": splits,
        "class_names": names,
    }
