"""Looking at a dataset as a whole: a sample of its features, the inferred schema.

Names are imported on first use, so that a command needing only the schema does not
load the payload decoders that the sample needs.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "SAMPLE": "sample",
    "choose_summary_keys": "sample",
    "feature_keys": "sample",
    "feature_kinds": "sample",
    "sample_features": "sample",
    "infer_schema": "schema",
    "sample_kinds": "schema",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
