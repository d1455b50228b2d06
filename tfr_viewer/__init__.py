"""tfr-viewer: inspect, verify and edit TensorFlow TFRecord files without TensorFlow.

The Python API (:mod:`tfr_viewer.api`) is loaded on first use: ``tfr_viewer.open(...)``.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_API = {
    "open",
    "DatasetView",
    "Record",
    "Findings",
    "Problems",
    "Statistics",
    "Comparison",
    "Evaluated",
    "Info",
    "SchemaFound",
    "UserError",
    "DamagedRecordWarning",
}


def __getattr__(name: str) -> Any:
    if name in _API:  # imported on first use: the command line never loads it
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'tfr_viewer' has no attribute {name!r}")
