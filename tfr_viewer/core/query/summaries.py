"""Short cell texts of chosen feature keys for many records at once, from the columnar
extractor: the table's summary columns parse a block of rows in one call instead of
decoding each record."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..io import Dataset
from ..io.dataset_blocks import iter_blocks
from ..text import float_text
from .extract import BYTES, FLOAT, INT64, extract

_KIND_NAMES = {BYTES: "bytes", FLOAT: "float", INT64: "int64"}


CELL_CHARS = 48  # a cell's text shows values up to about this long


def summarise(values: Any, kind: str, names: Sequence[str] = ()) -> str:
    """A short cell text for a feature's values of ``kind`` (bytes, float or int64): the
    values themselves, as many as fit, then how many there are (``3, 1, 4, … (12
    values)``); text bytes as text, other bytes by their size; class ids with their
    ``names`` (``2 triangle``) when the dataset names them."""
    if kind == "bytes":
        texts = []
        for v in values:
            try:
                text = bytes(v).decode("utf-8")
            except UnicodeDecodeError:
                text = ""
            if not text.isprintable() or len(text) > 40 or (not text and len(v)):
                return f"<{len(v)} bytes>" if len(values) == 1 else f"[{len(values)} values]"
            texts.append(text)
        return _fitted(texts)
    items = np.asarray(values).tolist()
    if kind == "int64" and names:
        return _fitted([f"{v} {names[v]}" if 0 <= v < len(names) else str(v) for v in items])
    as_text = float_text if kind == "float" else str
    return _fitted([as_text(v) for v in items])


def _fitted(texts: list[str]) -> str:
    """``texts`` joined by commas, cut to about :data:`CELL_CHARS` with the count."""
    out = ", ".join(texts)
    if len(out) <= CELL_CHARS:
        return out
    shown: list[str] = []
    used = 0
    for t in texts:
        if used + len(t) + 2 > CELL_CHARS - 14:
            break
        shown.append(t)
        used += len(t) + 2
    return f"{', '.join(shown)}, … ({len(texts)} values)" if shown else f"[{len(texts)} values]"


def summary_texts(
    ds: Dataset,
    records: Sequence[int] | np.ndarray,
    keys: Sequence[str],
    edited: Mapping[int, bytes] | None = None,
    names: Mapping[str, Sequence[str]] | None = None,
) -> dict[int, dict[str, str]]:
    """``{record: {key: text}}`` for indexed global ``records``: empty text where the key
    is missing (or the payload has no features), as TensorFlow's parser sees them (a
    SequenceExample's context is its features). ``edited`` payloads replace the file's;
    ``names`` gives class names by key (a TFDS folder's ClassLabel files)."""
    names = names or {}
    records = np.asarray(records, dtype=np.int64)
    out: dict[int, dict[str, str]] = {}
    for positions, block in iter_blocks(ds, records, edited=edited):
        _, columns = extract(block, keys)
        for i, position in enumerate(positions.tolist()):
            row: dict[str, str] = {}
            for key in keys:
                column = columns[key]
                kind = _KIND_NAMES.get(int(column.kinds[i]))
                if not column.present[i] or kind is None:
                    row[key] = ""
                    continue
                lo, hi = column.rag.splits[i], column.rag.splits[i + 1]
                row[key] = summarise(column.rag.values[lo:hi], kind, names.get(key, ()))
            out[int(records[position])] = row
    return out
