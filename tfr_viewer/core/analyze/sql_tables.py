"""A dataset as a table of SQL (:mod:`.sql`): a row a record, streamed as Arrow record
batches from the compiled column extractor, only the columns a query names.

The columns: the record's own, ``index`` (its number in the dataset), ``file`` (its
file, as every command names it), ``offset`` and ``length`` (its frame's), ``status``
(``ok``, ``bad_data_crc``, ...), then one a feature of its Examples (a SequenceExample's
context), as the list it is: ``int64`` as ``BIGINT[]``, ``float`` as ``FLOAT[]``,
``bytes`` as ``BLOB[]`` (DuckDB's lists count from 1: ``label[1]``; ``unnest(label)``
gives a row a value). A feature is NULL in a record that does not hold it, that is
damaged, or that holds it as another kind than its column's (counted in
:attr:`SqlTable.other_kinds`).

The features and their kinds are those of records spread over every file (at most
:data:`SAMPLE` of each and :data:`SAMPLE_BYTES` of them all, one of each file at least;
the kind a key has most often there); a key the query names that they do not hold is looked for in
every record (:func:`with_key`)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..io.dataset_blocks import iter_blocks
from ..io.records import RecordStatus
from ..query.extract import BYTES, FLOAT, INT64, extract

if TYPE_CHECKING:
    from ..io import Dataset

RECORD_COLUMNS = ("index", "file", "offset", "length", "status")
SAMPLE = 64  # records of each file whose features make the table's columns ...
SAMPLE_BYTES = 32 << 20  # ... and at most this many bytes of them all (a record a file)
CHUNK = 1 << 14  # records a record batch ...
CHUNK_BYTES = 256 << 20  # ... and at most this many bytes of them
AHEAD = 2  # batches read on threads while one is used
_KIND_CODES = {"int64": INT64, "float": FLOAT, "bytes": BYTES}
_STATUS_NAMES = {int(s): s.kind for s in RecordStatus}
_COUNTING = threading.Lock()


@dataclass
class SqlTable:
    """A dataset (``records`` of it, global numbers in order; None: every one) as the
    table ``name``: its ``features`` by kind, in name order."""

    name: str
    ds: Dataset
    features: dict[str, str]
    records: np.ndarray | None = None
    other_kinds: dict[str, int] = field(default_factory=dict)  # rows read as NULL

    @property
    def columns(self) -> list[str]:
        return [*RECORD_COLUMNS, *self.features]


def table_of(name: str, ds: Dataset, records: np.ndarray | None = None) -> SqlTable:
    """The table of an indexed dataset, its features found in records spread over every
    file (see the module)."""
    from .schema import Schema, add_payload

    sample = []
    budget = SAMPLE_BYTES // max(1, len(ds.files))  # each file's share of the bytes
    for number, f in enumerate(ds.files):
        count = len(f.index)
        if count:
            local = np.unique(np.linspace(0, count - 1, min(count, SAMPLE)).astype(np.int64))
            lengths = np.array([f.index.length(int(i)) for i in local], dtype=np.int64)
            kept = max(1, int(np.searchsorted(np.cumsum(lengths), budget, side="right")))
            sample.append(local[:kept] + ds.start_of(number))
    chosen = np.concatenate(sample) if sample else np.zeros(0, dtype=np.int64)
    schema = Schema()
    for record in ds.undamaged(chosen).tolist():  # each alone: the bytes between unread
        add_payload(schema, ds.read(record))
    features = {k: schema.features[k].kind for k in sorted(schema.features)}
    return SqlTable(name, ds, features, records)


def with_key(table: SqlTable, name: str) -> SqlTable | None:
    """``table`` with the feature named ``name`` (SQL's names are not case-sensitive)
    that some record holds though the records its columns were found in do not (every
    record looked at); None when no record holds one."""
    from .schema import infer_schema

    schema = infer_schema(table.ds, table.records, steps=False)  # None: every record
    found = {k: s.kind for k, s in schema.features.items() if k.lower() == name.lower()}
    found = {k: kind for k, kind in found.items() if k not in table.features}
    if not found:
        return None
    return replace(table, features=dict(sorted({**table.features, **found}.items())))


def arrow_schema(table: SqlTable, columns: Iterable[str]) -> Any:
    """The Arrow schema of ``columns`` of ``table`` (in the table's order)."""
    import pyarrow as pa

    wanted = set(columns)
    types = {
        "index": pa.int64(),
        "file": pa.string(),
        "offset": pa.int64(),
        "length": pa.int64(),
        "status": pa.string(),
    }
    items = {"int64": pa.int64(), "float": pa.float32(), "bytes": pa.binary()}
    fields = [(c, types[c]) for c in RECORD_COLUMNS if c in wanted]
    fields += [(k, pa.large_list(items[kind])) for k, kind in table.features.items() if k in wanted]
    return pa.schema(fields)


def batches(
    table: SqlTable, columns: Iterable[str], cancelled: Callable[[], bool] = lambda: False
) -> Iterator[Any]:
    """The rows of ``table`` as Arrow record batches of ``columns`` (in the table's
    order), in record order; the payload CRCs of the records read checked as they are
    read (a record found damaged then: its features NULL, its status said). The next
    batches are read on threads of their own while one is used (:data:`AHEAD`)."""
    from collections import deque
    from concurrent.futures import Future, ThreadPoolExecutor

    schema = arrow_schema(table, columns)
    pending: deque[Future[Any]] = deque()
    with ThreadPoolExecutor(AHEAD, thread_name_prefix="tfr-sql-read") as pool:
        try:
            for piece in _pieces(table):
                if cancelled():
                    return
                pending.append(pool.submit(_batch, table, piece, schema))
                if len(pending) > AHEAD:
                    yield pending.popleft().result()
            while pending:
                if cancelled():
                    return
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()


def _pieces(table: SqlTable) -> Iterator[np.ndarray]:
    """The table's records, a batch's at a time: at most :data:`CHUNK` records, and at
    most :data:`CHUNK_BYTES` of them past the first."""
    from ..io.payload_block import block_spans

    total = len(table.ds) if table.records is None else len(table.records)
    for start in range(0, total, CHUNK):
        chunk = (
            np.arange(start, min(start + CHUNK, total), dtype=np.int64)
            if table.records is None
            else table.records[start : start + CHUNK]
        )
        lengths = table.ds.frame_facts(chunk)[2].astype(np.int64)
        for lo, hi in block_spans(lengths, CHUNK, CHUNK_BYTES):
            yield chunk[lo:hi]


def _batch(table: SqlTable, chunk: np.ndarray, schema: Any) -> Any:
    """The record batch of the records ``chunk``."""
    import pyarrow as pa

    names = schema.names
    keys = [n for n in names if n in table.features]
    ds = table.ds
    paths = [f.path for f in ds.files]
    lists = _features(table, chunk, keys) if keys else {}
    numbers, offsets, lengths, statuses = ds.frame_facts(chunk)
    arrays = []
    for name in names:
        if name == "index":
            arrays.append(pa.array(chunk, pa.int64()))
        elif name == "file":
            arrays.append(pa.DictionaryArray.from_arrays(numbers, paths).cast(pa.string()))
        elif name == "offset":
            arrays.append(pa.array(offsets.astype(np.int64), pa.int64()))
        elif name == "length":
            arrays.append(pa.array(lengths.astype(np.int64), pa.int64()))
        elif name == "status":
            arrays.append(pa.array([_STATUS_NAMES[s] for s in statuses.tolist()], pa.string()))
        else:
            arrays.append(lists[name])
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


def _features(table: SqlTable, chunk: np.ndarray, keys: list[str]) -> dict[str, Any]:
    """The list column of each key over the records ``chunk`` (NULL where a record does
    not hold it as the column's kind, or could not be read)."""
    import pyarrow as pa

    ds, n = table.ds, len(chunk)
    lengths = {k: np.zeros(n, dtype=np.int64) for k in keys}
    valid = {k: np.zeros(n, dtype=bool) for k in keys}
    pieces: dict[str, list[tuple[np.ndarray, Any]]] = {k: [] for k in keys}
    readable = ds.undamaged(chunk)  # in the chunk's order: a row found by a search
    for positions, block in iter_blocks(ds, readable, verify=True, reuse=True):
        rows = np.searchsorted(chunk, readable[positions])
        status, found = extract(block, keys)
        ok = status == 0
        for k in keys:
            column = found[k]
            code = _KIND_CODES[table.features[k]]
            keep = ok & column.present & (column.kinds == code)
            other = ok & column.present & (column.kinds != code)
            if other.any():
                with _COUNTING:  # batches are read on several threads
                    table.other_kinds[k] = table.other_kinds.get(k, 0) + int(other.sum())
            counts = np.diff(column.rag.splits)
            lengths[k][rows[keep]] = counts[keep]
            valid[k][rows[keep]] = True
            taken = np.repeat(keep, counts)
            pieces[k].append((rows[keep], column.rag.values[taken]))
    out = {}
    items = {"int64": pa.int64(), "float": pa.float32(), "bytes": pa.binary()}
    for k in keys:
        kind = table.features[k]
        ordered = sorted(pieces[k], key=lambda p: int(p[0][0]) if len(p[0]) else -1)
        flat = [v for _, vals in ordered for v in (vals.tolist() if kind == "bytes" else [vals])]
        if kind == "bytes":
            array = pa.array(flat, items[kind])
        else:
            dtype = np.int64 if kind == "int64" else np.float32
            joined = np.concatenate(flat) if flat else np.zeros(0)
            array = pa.array(joined.astype(dtype), items[kind])
        offsets = pa.array(np.concatenate([[0], np.cumsum(lengths[k])]).astype(np.int64))
        out[k] = pa.LargeListArray.from_arrays(offsets, array, mask=pa.array(~valid[k]))
    return out
