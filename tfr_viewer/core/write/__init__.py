"""Making new files: the edits overlay, building Examples, the one output layer every
file goes through (:mod:`.output`), export (atomic, verified, sharded, compressed) and
the registry of the other formats (:mod:`.writers`).

Names are imported on first use, so that the command line can read the registry of
formats without loading numpy. The export function is imported from its module
(``from .export import export``): the package's attribute ``export`` is that module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy_names import lazy_names

if TYPE_CHECKING:  # what a type checker sees: the names of _WHERE (tested)
    from .build import (
        build_example as build_example,
        build_sequence_example as build_sequence_example,
    )
    from .changes import describe_change as describe_change
    from .edits import EditError as EditError, EditSet as EditSet, RecordState as RecordState
    from .export import ExportOptions as ExportOptions, parse_split as parse_split, plan as plan
    from .output import (
        ExportError as ExportError,
        OutputJob as OutputJob,
        clean_stale_temporaries as clean_stale_temporaries,
        existing_outputs as existing_outputs,
    )

_WHERE = {
    "build_example": "build",
    "build_sequence_example": "build",
    "describe_change": "changes",
    "EditError": "edits",
    "EditSet": "edits",
    "RecordState": "edits",
    "ExportOptions": "export",
    "parse_split": "export",
    "plan": "export",
    "ExportError": "output",
    "OutputJob": "output",
    "clean_stale_temporaries": "output",
    "existing_outputs": "output",
}

__all__ = sorted(_WHERE)

__getattr__ = lazy_names(__name__, _WHERE)
