"""Example -> columns: the values of chosen feature keys for a block of records.

Both paths give identical columns. The compiled core parses the buffer in one call and
returns flat arrays; the pure-Python path parses each payload with upb
(:mod:`..decode.keyed_read`). Parsing is TensorFlow's lenient view: a SequenceExample's
context is seen as its features, a key that is not UTF-8 is read and named as
:mod:`..decode.key_text` says, and a payload that is not an Example (upb rejects it for
more than its keys) has none.

A column holds a :class:`~.columns.Rag` of values and a per-row ``present`` flag. Its
values are int64 when every value is an int64, float64 when they are floats (float32
widened exactly) or a mix of floats and ints, and an object array of Python values when
any is bytes.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import fast, kernels
from ..io.payload_block import PayloadBlock
from ..kernels import ColumnPiece
from .columns import Rag

NONE, BYTES, FLOAT, INT64 = 0, 1, 2, 3
_KIND_OF = {"bytes_list": BYTES, "float_list": FLOAT, "int64_list": INT64}
ROW_OK, ROW_MALFORMED, ROW_UPB = 0, 1, 2
fast.agree(ROW_OK=ROW_OK, ROW_MALFORMED=ROW_MALFORMED, ROW_UPB=ROW_UPB)


@dataclass(frozen=True)
class FeatureColumn:
    """One key over a block: values by row, whether the key is there, and its kind
    (``NONE`` for a Feature with no list, or for an absent key)."""

    rag: Rag
    present: np.ndarray  # bool
    kinds: np.ndarray  # uint8


def extract(
    block: PayloadBlock, keys: Iterable[str], views_from: int | None = None
) -> tuple[np.ndarray, dict[str, FeatureColumn]]:
    """Per-row parse status (``ROW_OK`` or ``ROW_MALFORMED``) and a column per key.

    With ``views_from``, the values of a bytes-only column that are at least that long
    may come as read-only memoryviews of the block's buffer instead of copies (valid
    while the buffer is; equal to, and hashing as, the bytes they show)."""
    wanted = sorted(set(keys))
    if kernels.compiled_in_use() and block.rows:
        status, columns = _extract_compiled(block, wanted, views_from)
        if not (status == ROW_UPB).any():
            return status, columns
    return _extract_python(block, wanted)


def _extract_compiled(
    block: PayloadBlock, wanted: list[str], views_from: int | None = None
) -> tuple[np.ndarray, dict[str, FeatureColumn]]:
    keys = tuple(k.encode("utf-8") for k in wanted)
    results = on_every_core(
        lambda a, b: _compiled_part(block, a, b, keys, kernels.extract), parts(block.rows)
    )
    status = np.concatenate([r[0] for r in results])
    columns = {}
    for c, key in enumerate(wanted):
        pieces = [r[1][c] for r in results]
        present = np.concatenate([p.present for p in pieces])
        kinds_arr = np.concatenate([p.kinds for p in pieces])
        splits_arr = _joined_splits([p.splits for p in pieces])
        by_kind = _by_kind(pieces)
        values = _typed_values(block, kinds_arr, splits_arr, by_kind, views_from)
        columns[key] = FeatureColumn(Rag(values, splits_arr), present, kinds_arr)
    return status, columns


def _compiled_part(
    block: PayloadBlock, a: int, b: int, keys: tuple[bytes, ...], kernel: Callable[..., Any]
) -> tuple[np.ndarray, list[ColumnPiece]]:
    """Rows ``a`` to ``b`` of ``block`` through ``kernel`` (the compiled core must be in
    use: it was when the extraction began)."""
    found: tuple[np.ndarray, list[ColumnPiece]] | None = kernel(
        block.buf, block.starts[a:b], block.lengths[a:b], keys
    )
    if found is None:
        raise RuntimeError("the compiled core was switched off during an extraction")
    return found


def _by_kind(pieces: list[ColumnPiece]) -> dict[int, np.ndarray]:
    """The values of each kind of one key's pieces, joined."""
    return {
        INT64: np.concatenate([p.int64 for p in pieces]),
        FLOAT: np.concatenate([p.float64 for p in pieces]),
        BYTES: np.concatenate([p.byte_spans for p in pieces]),
    }


PARALLEL_ROWS = 1 << 13  # fewer rows than this are extracted on one thread


def parts(rows: int) -> list[tuple[int, int]]:
    workers = min(os.cpu_count() or 1, 8, max(1, rows // PARALLEL_ROWS))
    cuts = [rows * i // workers for i in range(workers + 1)]
    return list(zip(cuts[:-1], cuts[1:], strict=True))


def on_every_core(
    work: Callable[[int, int], tuple[Any, ...]], parts: list[tuple[int, int]]
) -> list[Any]:
    """``work(a, b)`` for every part, the first on this thread and the others on threads
    of their own (compiled calls release the GIL); results in order, and the first
    exception raised again here."""
    results: list[Any] = [None] * len(parts)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            results[i] = work(*parts[i])
        except BaseException as exc:  # noqa: BLE001 - raised again by the caller
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(1, len(parts))]
    for t in threads:
        t.start()
    run(0)
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results


def _joined_splits(splits: list[np.ndarray]) -> np.ndarray:
    """Row splits of consecutive slices as one array."""
    if len(splits) == 1:
        return splits[0]
    out = [splits[0]]
    total = splits[0][-1]
    for part in splits[1:]:
        out.append(part[1:] + total)
        total += part[-1]
    return np.concatenate(out)


def _typed_values(
    block: PayloadBlock,
    kinds: np.ndarray,
    splits: np.ndarray,
    by_kind: dict[int, np.ndarray],
    views_from: int | None = None,
) -> np.ndarray:
    """One flat array in row order from the per-kind arrays."""
    filled = [kind for kind in (INT64, FLOAT, BYTES) if len(by_kind[kind])]
    if not filled or filled == [INT64]:  # the per-kind arrays hold only surviving values
        return by_kind[INT64]
    if filled == [FLOAT]:
        return by_kind[FLOAT]
    counts = np.diff(splits)
    seen = {k for k, n in enumerate(np.bincount(kinds[counts > 0], minlength=4).tolist()) if n}
    if not seen or seen == {INT64}:
        return by_kind[INT64]
    if seen == {FLOAT}:
        return by_kind[FLOAT]
    if seen == {BYTES} and views_from is not None:
        return _bytes_and_views(block, by_kind[BYTES], views_from)
    parts: dict[int, np.ndarray] = {}
    for kind in seen:
        if kind == BYTES:
            out = np.empty(len(by_kind[BYTES]) // 2, dtype=object)
            out[:] = kernels.take_bytes(block.buf, by_kind[BYTES])
            parts[kind] = out
        else:
            parts[kind] = by_kind[kind]
    if seen == {BYTES}:
        return parts[BYTES]
    dtype = object if BYTES in seen else np.float64
    values = np.empty(int(splits[-1]), dtype=dtype)
    for kind, arr in parts.items():
        rows = np.flatnonzero((kinds == kind) & (counts > 0))
        lens = counts[rows]
        firsts = np.repeat(splits[rows] - (np.cumsum(lens) - lens), lens)
        positions = np.arange(int(lens.sum())) + firsts
        values[positions] = arr.tolist() if dtype is object else arr
    return values


def _bytes_and_views(block: PayloadBlock, spans: np.ndarray, views_from: int) -> np.ndarray:
    """The bytes values of ``spans`` (int64 offset, size pairs): copies below
    ``views_from`` bytes, read-only memoryviews of the buffer from there on."""
    pairs = spans.reshape(-1, 2)
    out = np.empty(len(pairs), dtype=object)
    big = pairs[:, 1] >= views_from
    small = np.flatnonzero(~big)
    if len(small):
        out[small] = kernels.take_bytes(block.buf, np.ascontiguousarray(pairs[small]))
    view = block.buf.data.toreadonly()
    for i, (offset, size) in zip(np.flatnonzero(big).tolist(), pairs[big].tolist(), strict=True):
        out[i] = view[offset : offset + size]  # one item at a time: never read as an array
    return out


def _extract_python(
    block: PayloadBlock, wanted: list[str]
) -> tuple[np.ndarray, dict[str, FeatureColumn]]:
    from ..decode.keyed_read import example_features

    rows = block.rows
    status = np.zeros(rows, dtype=np.uint8)
    lists: list[tuple[list[Any], list[int], list[bool], list[int], set[int]]] = [
        ([], [0], [], [], set()) for _ in wanted
    ]
    for r in range(rows):
        fmap = example_features(block.payload(r))
        if fmap is None:
            status[r] = ROW_MALFORMED
            fmap = {}
        for key, (values, splits, present, kinds, seen) in zip(wanted, lists, strict=True):
            kind = NONE
            if key in fmap:
                present.append(True)
                feature = fmap[key]
                which = feature.WhichOneof("kind")
                if which:
                    kind = _KIND_OF[which]
                    got = getattr(feature, which).value
                    if len(got):
                        seen.add(kind)
                        values.extend(got)
            else:
                present.append(False)
            kinds.append(kind)
            splits.append(len(values))
    columns = {}
    for key, (values, splits, present, kinds, seen) in zip(wanted, lists, strict=True):
        columns[key] = FeatureColumn(
            Rag(_python_values(values, seen), np.array(splits, dtype=np.int64)),
            np.array(present, dtype=bool),
            np.array(kinds, dtype=np.uint8),
        )
    return status, columns


def _python_values(values: list[Any], seen: set[int]) -> np.ndarray:
    if not seen or seen == {INT64}:
        return np.array(values, dtype=np.int64) if values else np.zeros(0, dtype=np.int64)
    if BYTES not in seen:
        return np.array(values, dtype=np.float64)
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out
