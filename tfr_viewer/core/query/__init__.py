"""The filter language (parsed with ast, run by a whitelist over numpy columns) and
filtering a dataset with it."""

from __future__ import annotations

from .filtering import block_of, filter_dataset
from .language import Filter, QueryError, compile_filter

__all__ = [
    "Filter",
    "QueryError",
    "block_of",
    "compile_filter",
    "filter_dataset",
]
