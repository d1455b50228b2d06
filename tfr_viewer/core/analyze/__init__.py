"""Looking at a dataset as a whole: a sample of its features, the inferred schema.

Names are imported on first use, so that a command needing only the schema does not
load the payload decoders that the sample needs.
"""

from __future__ import annotations

from ..lazy_names import lazy_names

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

__getattr__ = lazy_names(__name__, _WHERE)
