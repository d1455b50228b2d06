"""A saved schema (kinds, presence, value counts, domains of small string features),
inferred from statistics, and the records that break it, as TFDV's anomalies.

The schema is plain JSON::

    {"format": "tfr-viewer schema", "version": 1, "records": N,
     "features": {key: {"kind": "int64", "required": true, "presence": 1.0,
                        "value_count": {"min": 1, "max": 1},
                        "domain": ["cat", "dog"]}}}       # domain: bytes keys only

``required`` is true when the key was in every parsed record; ``domain`` is kept for a
bytes key whose values are text with at most :data:`DOMAIN_LIMIT` distinct values, each
seen twice on average (names that are unique per record, such as file names, are no
category).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..query.extract import BYTES, FLOAT, INT64, FeatureColumn
from ..user_error import UserError
from .stats import Stats

FORMAT = "tfr-viewer schema"
DOMAIN_LIMIT = 50
_KIND_CODES = {"bytes": BYTES, "float": FLOAT, "int64": INT64}
_KIND_NAMES = {v: k for k, v in _KIND_CODES.items()}


class SchemaError(UserError, ValueError):
    """A schema file that cannot be used."""


def infer(stats: Stats) -> dict[str, Any]:
    """The schema of a dataset from its statistics."""
    parsed = stats.schema.examples + stats.schema.sequence_examples
    features: dict[str, Any] = {}
    for key, fs in sorted(stats.features.items()):
        if not fs.kinds:
            continue
        kind = fs.kinds.most_common(1)[0][0]
        counts = fs.value_counts
        entry: dict[str, Any] = {
            "kind": kind,
            "required": fs.present == parsed,
            "presence": fs.present / parsed if parsed else 0.0,
            "value_count": {"min": int(counts.min), "max": int(counts.max)},
        }
        texts = fs.texts
        if (
            kind == "bytes"
            and not texts.overflow
            and 0 < len(texts.counts) <= DOMAIN_LIMIT
            and 2 * len(texts.counts) <= fs.sizes.count  # values repeat: a category
            and sum(texts.counts.values()) == fs.sizes.count  # every value is text
        ):
            entry["domain"] = sorted(texts.counts)
        features[key] = entry
    return {"format": FORMAT, "version": 1, "records": stats.records, "features": features}


MAX_COUNT = (1 << 63) - 1  # a value count past this is no count of a real record


def load(path: str) -> dict[str, Any]:
    """A schema written by :func:`save`, checked field by field; raises
    :class:`SchemaError` (one line: the file, the feature and what is wrong) otherwise."""
    from ..io.side_files import SideFileError, read_json_side_file

    try:
        schema = read_json_side_file(path, "schema")
    except SideFileError as exc:
        raise SchemaError(str(exc)) from None
    if not isinstance(schema, dict) or schema.get("format") != FORMAT:
        raise SchemaError(
            f"{path} is not a tfr-viewer schema; write one with "
            "`tfr-viewer schema --infer -o SCHEMA.json PATH...`"
        )
    features = schema.get("features", {})
    if not isinstance(features, dict):
        raise SchemaError(f"{path}: `features` is not an object of feature keys")
    checked = {key: _entry(path, key, entry) for key, entry in features.items()}
    return {**schema, "features": checked}


def _entry(path: str, key: str, entry: object) -> dict[str, Any]:
    """One feature of a schema, with the types :class:`SchemaCheck` relies on."""

    def bad(what: str) -> SchemaError:
        return SchemaError(
            f"{path}: feature {key!r}: {what}; write the schema again with "
            "`tfr-viewer schema --infer`"
        )

    if not isinstance(entry, dict):
        raise bad("is not an object")
    kind = entry.get("kind")
    if not isinstance(kind, str) or kind not in _KIND_CODES:
        raise bad("has no valid kind (bytes, float, int64)")
    required = entry.get("required", False)
    if not isinstance(required, bool):
        raise bad("`required` is not true or false")
    counts = entry.get("value_count", {"min": 0, "max": MAX_COUNT})
    lo = counts.get("min") if isinstance(counts, dict) else None
    hi = counts.get("max") if isinstance(counts, dict) else None
    if not all(type(v) is int and 0 <= v <= MAX_COUNT for v in (lo, hi)) or lo > hi:  # type: ignore[operator]
        raise bad("`value_count` is not {min, max} with 0 <= min <= max < 2^63")
    out: dict[str, Any] = {
        "kind": kind,
        "required": required,
        "value_count": {"min": lo, "max": hi},
    }
    if "domain" in entry:
        domain = entry["domain"]
        if not isinstance(domain, list) or not all(isinstance(v, str) for v in domain):
            raise bad("`domain` is not a list of texts")
        out["domain"] = domain
    return out


Note = Callable[..., None]  # (kind, message, record, **where)


class SchemaCheck:
    """Reports, block by block, the records that break a schema."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.features: dict[str, Any] = schema["features"]
        self.domains = {k: set(e["domain"]) for k, e in self.features.items() if "domain" in e}

    def keys(self) -> list[str]:
        return sorted(self.features)

    def add(
        self,
        records: np.ndarray,
        columns: dict[str, FeatureColumn],
        parsed: np.ndarray,
        note: Note,
    ) -> None:
        """``parsed``: the rows that are intact Examples with at least one feature."""
        for key, column in columns.items():
            entry = self.features.get(key)
            present = column.present & parsed
            if entry is None:
                for r in np.flatnonzero(present).tolist():
                    note(
                        "schema_unexpected",
                        f"{key!r} is not in the schema",
                        int(records[r]),
                        feature=key,
                    )
                continue
            seen = _Seen(key, column, present, records, note)
            self._required(seen, entry, parsed)
            self._kinds(seen, entry)
            self._counts(seen, entry)
            if key in self.domains:
                self._domain(seen, self.domains[key])

    def _required(self, seen: _Seen, entry: dict[str, Any], parsed: np.ndarray) -> None:
        if entry["required"]:
            seen.each("schema_missing", parsed & ~seen.present, "is required by the schema")

    def _kinds(self, seen: _Seen, entry: dict[str, Any]) -> None:
        kinds = seen.column.kinds
        wrong = seen.present & (kinds != _KIND_CODES[entry["kind"]]) & (kinds != 0)
        seen.each(
            "schema_kind",
            wrong,
            lambda r: f"is {_KIND_NAMES[int(kinds[r])]}, the schema says {entry['kind']}",
        )

    def _counts(self, seen: _Seen, entry: dict[str, Any]) -> None:
        lo, hi = entry["value_count"]["min"], entry["value_count"]["max"]
        counts = np.diff(seen.column.rag.splits)
        odd = seen.present & ((counts < lo) | (counts > hi))
        span = str(lo) if lo == hi else f"{lo} to {hi}"
        seen.each(
            "schema_value_count",
            odd,
            lambda r: f"holds {counts[r]} values, the schema allows {span}",
        )

    def _domain(self, seen: _Seen, allowed: set[str]) -> None:
        values, splits = seen.column.rag.values, seen.column.rag.splits
        if values.dtype != object:
            return
        outside = {}  # row -> the first value of it the schema does not allow
        for r in np.flatnonzero(seen.present).tolist():
            for v in values[splits[r] : splits[r + 1]].tolist():
                text = v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
                if text not in allowed:
                    outside[r] = text
                    break
        rows = np.zeros(len(seen.present), dtype=bool)
        rows[list(outside)] = True
        seen.each(
            "schema_domain",
            rows,
            lambda r: f"has {outside[r]!r}, not among the schema's {len(allowed)} values",
        )


@dataclass(frozen=True)
class _Seen:
    """One key of a block being checked against the schema: its column, the rows that
    hold it, the rows' record numbers, and where its findings go."""

    key: str
    column: FeatureColumn
    present: np.ndarray
    records: np.ndarray
    note: Note

    def each(self, kind: str, rows: np.ndarray, message: str | Callable[[int], str]) -> None:
        """A finding ``kind`` for each row of ``rows`` (a mask): ``message`` (of the
        row), after the key."""
        for r in np.flatnonzero(rows).tolist():
            said = message if isinstance(message, str) else message(r)
            self.note(kind, f"{self.key!r} {said}", int(self.records[r]), feature=self.key)
