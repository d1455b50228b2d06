"""Looking at a dataset as a whole: the inferred schema."""

from __future__ import annotations

from .schema import infer_schema

__all__ = [
    "infer_schema",
]
