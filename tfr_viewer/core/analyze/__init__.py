"""Looking at a dataset as a whole: a sample of its features, the inferred schema."""

from __future__ import annotations

from .sample import SAMPLE, choose_summary_keys, feature_keys, feature_kinds, sample_features
from .schema import infer_schema

__all__ = [
    "SAMPLE",
    "choose_summary_keys",
    "feature_keys",
    "feature_kinds",
    "sample_features",
    "infer_schema",
]
