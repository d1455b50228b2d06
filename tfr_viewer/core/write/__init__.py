"""Making new files: the edits overlay, building Examples, export (atomic, verified,
sharded, compressed) and the JSON Lines / CSV / image-folder formats."""

from __future__ import annotations

from .build import build_example, build_sequence_example
from .changes import describe_change
from .edits import EditError, EditSet, RecordState
from .export import (
    ExportError,
    ExportOptions,
    clean_stale_temporaries,
    existing_outputs,
    export,
    parse_split,
    plan,
)

__all__ = [
    "existing_outputs",
    "describe_change",
    "EditError",
    "EditSet",
    "ExportError",
    "ExportOptions",
    "RecordState",
    "build_example",
    "build_sequence_example",
    "clean_stale_temporaries",
    "export",
    "parse_split",
    "plan",
]
