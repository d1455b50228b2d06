"""Looking at a dataset as a whole: a sample of its features, the inferred schema.

Names are imported on first use, so that a command needing only the schema does not
load the payload decoders that the sample needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy_names import lazy_names

if TYPE_CHECKING:  # what a type checker sees: the names of _WHERE (tested)
    from .sample import (
        SAMPLE as SAMPLE,
        choose_summary_keys as choose_summary_keys,
        feature_keys as feature_keys,
        feature_kinds as feature_kinds,
        sample_features as sample_features,
    )
    from .schema import infer_schema as infer_schema, sample_kinds as sample_kinds

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
