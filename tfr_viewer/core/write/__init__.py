"""Making new files: the edits overlay, building Examples, the one output layer every
file goes through (:mod:`.output`), export (atomic, verified, sharded, compressed) and
the registry of the other formats (:mod:`.writers`).

Names are imported on first use, so that the command line can read the registry of
formats without loading numpy. The export function is imported from its module
(``from .export import export``): the package's attribute ``export`` is that module.
"""

from __future__ import annotations

import importlib
from typing import Any

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


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
