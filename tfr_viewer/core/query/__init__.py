"""The filter language (parsed with ast, run by a whitelist over numpy columns) and
filtering a dataset with it."""

from __future__ import annotations

from .filtering import Matched, block_of, matches_of, matching, needs_index
from .language import Filter, QueryError, compile_filter
from .lint import lint_filter
from .sorting import FIELDS, sort_records

__all__ = [
    "lint_filter",
    "FIELDS",
    "sort_records",
    "Filter",
    "QueryError",
    "block_of",
    "compile_filter",
    "Matched",
    "matches_of",
    "matching",
    "needs_index",
]
