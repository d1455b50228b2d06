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
every record (:func:`with_key`).

Records of a project's own message type (the type the dataset's first file is read
as), and TensorBoard's events and serialized tensors, are a column a field path instead
(:mod:`.sql_messages`)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..io.dataset_blocks import iter_blocks
from ..io.records import RecordStatus
from ..query.extract import BYTES, FLOAT, INT64, extract
from .sql_row_filter import ListColumn, RowFilter

if TYPE_CHECKING:
    from ..decode.message_types import MessageType
    from ..io import Dataset

RECORD_COLUMNS = ("index", "file", "offset", "length", "status")
SAMPLE = 64  # records of each file whose features make the table's columns ...
SAMPLE_BYTES = 32 << 20  # ... and at most this many bytes of them all (a record a file)
CHUNK = 1 << 14  # records a record batch ...
CHUNK_BYTES = 256 << 20  # ... and at most this many bytes of them
AHEAD = 2  # batches read on threads while one is used
BINARY_LIMIT = 1 << 31  # bytes of a binary column past which pa.array makes it
_KIND_CODES = {"int64": INT64, "float": FLOAT, "bytes": BYTES}
_STATUS_NAMES = {int(s): s.kind for s in RecordStatus}
_DTYPES = {"int64": np.int64, "uint64": np.uint64, "float": np.float32, "double": np.float64,
           "bool": np.bool_}  # fmt: skip
_COUNTING = threading.Lock()


@dataclass
class SqlTable:
    """A dataset (``records`` of it, global numbers in order; None: every one) as the
    table ``name``: its ``features`` by kind, in name order (a message type's field
    paths, in the order it declares them: ``message`` the type, ``plain`` the paths
    that are no lists)."""

    name: str
    ds: Dataset
    features: dict[str, str]
    records: np.ndarray | None = None
    other_kinds: dict[str, int] = field(default_factory=dict)  # rows read as NULL
    message: MessageType | None = None
    plain: frozenset[str] = frozenset()
    keys: dict[str, str] = field(default_factory=dict)  # a renamed column's key

    def key_of(self, column: str) -> str:
        """The feature (or field path) the column ``column`` holds."""
        return self.keys.get(column, column)

    def listed_kinds(self) -> dict[str, str]:
        """The kinds of the columns that are lists."""
        return {k: v for k, v in self.features.items() if k not in self.plain}

    @property
    def columns(self) -> list[str]:
        return [*RECORD_COLUMNS, *self.features]


def column_name(key: str) -> str:
    """The column of the feature (or field path) ``key``: its own name, or
    ``feature:KEY`` when it is a record column's (SQL's names are not case-sensitive)."""
    return f"feature:{key}" if key.lower() in RECORD_COLUMNS else key


def _renamed(table: SqlTable, found: dict[str, str]) -> SqlTable:
    """``table`` with the features ``found`` (by key) as columns of their names."""
    features = {**table.features, **{column_name(k): kind for k, kind in found.items()}}
    keys = {**table.keys, **{column_name(k): k for k in found if column_name(k) != k}}
    return replace(table, features=features, keys=keys)


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
    read = (ds.read(record) for record in ds.undamaged(chosen).tolist())  # each alone
    kind = _message_type(ds)
    if kind is not None:
        from .sql_messages import sampled

        columns = sampled(kind, read)
        plain = frozenset(column_name(k) for k, c in columns.items() if not c.listed)
        empty = SqlTable(name, ds, {}, records, message=kind, plain=plain)
        return _renamed(empty, {k: c.kind for k, c in columns.items()})
    schema = Schema()
    for payload in read:
        add_payload(schema, payload)
    return _renamed(
        SqlTable(name, ds, {}, records),
        {k: schema.features[k].kind for k in sorted(schema.features)},
    )


def _message_type(ds: Dataset) -> MessageType | None:
    """The message type the dataset's first file (with records) is read as: the user's,
    or the built-in one of a payload TensorFlow writes that is no Example
    (:data:`~.sql_messages.BUILT_IN_TABLES`); None for Examples."""
    from ..decode.file_payloads import file_decoder, message_type_of
    from ..decode.message_types import built_in_type
    from .sql_messages import BUILT_IN_TABLES

    numbers = [n for n, f in enumerate(ds.files) if len(f.index)]
    if not numbers:
        return None
    kind = message_type_of(ds, numbers[0])
    if kind is None:
        built_in = BUILT_IN_TABLES.get(file_decoder(ds, numbers[0]))
        kind = built_in_type(built_in) if built_in is not None else None
    return None if kind is None or kind.name == "tensorflow.Example" else kind


def with_key(table: SqlTable, name: str) -> SqlTable | None:
    """``table`` with the feature named ``name`` (SQL's names are not case-sensitive)
    that some record holds though the records its columns were found in do not (every
    record looked at; of a message type, the path the type declares); None when there
    is none."""
    if table.message is not None:
        from .sql_messages import declared

        have = {table.key_of(c) for c in table.features}
        columns = declared(
            table.message, lambda path: column_name(path).lower() == name.lower(), have
        )
        if not columns:
            return None
        plain = table.plain | {column_name(k) for k, c in columns.items() if not c.listed}
        more = _renamed(table, {k: c.kind for k, c in columns.items()})
        return replace(more, plain=frozenset(plain))
    from .schema import infer_schema

    schema = infer_schema(table.ds, table.records, steps=False)  # None: every record
    have = {table.key_of(c) for c in table.features}
    found = {
        k: s.kind for k, s in schema.features.items()
        if column_name(k).lower() == name.lower() and k not in have
    }  # fmt: skip
    if not found:
        return None
    more = _renamed(table, found)
    return replace(more, features=dict(sorted(more.features.items())))


def arrow_schema(table: SqlTable, columns: Iterable[str]) -> Any:
    """The Arrow schema of ``columns`` of ``table`` (in the table's order)."""
    import pyarrow as pa

    from .sql_messages import arrow_item

    wanted = set(columns)
    types = {
        "index": pa.int64(),
        "file": pa.string(),
        "offset": pa.int64(),
        "length": pa.int64(),
        "status": pa.string(),
    }
    fields = [(c, types[c]) for c in RECORD_COLUMNS if c in wanted]
    fields += [
        (k, arrow_item(kind) if k in table.plain else pa.large_list(arrow_item(kind)))
        for k, kind in table.features.items()
        if k in wanted
    ]
    return pa.schema(fields)


def batches(
    table: SqlTable,
    columns: Iterable[str],
    cancelled: Callable[[], bool] = lambda: False,
    where: RowFilter | None = None,
) -> Iterator[Any]:
    """The rows of ``table`` as Arrow record batches of ``columns`` (in the table's
    order), in record order; the payload CRCs of the records read checked as they are
    read (a record found damaged then: its features NULL, its status said). ``where``:
    the rows its terms may hold for only (and every record that could not be read). The
    next batches are read on threads of their own while one is used (:data:`AHEAD`)."""
    from collections import deque
    from concurrent.futures import Future, ThreadPoolExecutor

    schema = arrow_schema(table, columns)
    pending: deque[Future[Any]] = deque()
    with ThreadPoolExecutor(AHEAD, thread_name_prefix="tfr-sql-read") as pool:
        try:
            for piece in _pieces(table):
                if cancelled():
                    return
                pending.append(pool.submit(_batch, table, piece, schema, where))
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


def _batch(table: SqlTable, chunk: np.ndarray, schema: Any, where: RowFilter | None) -> Any:
    """The record batch of the records ``chunk`` (those ``where`` keeps)."""
    import pyarrow as pa

    names = schema.names
    keys = sorted({n for n in names if n in table.features} | (where.keys if where else set()))
    verify = bool(keys) or "status" in names  # a status said once its payload is checked
    kept, lists = _features(table, chunk, keys, where) if verify else (None, {})
    if kept is not None and not kept.all():
        chunk = chunk[kept]
        lists = {k: column.take(kept) for k, column in lists.items()}
    ds = table.ds
    paths = [f.path for f in ds.files]
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
            arrays.append(_arrow(lists[name], table.features[name], name in table.plain))
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


def _features(
    table: SqlTable, chunk: np.ndarray, keys: list[str], where: RowFilter | None = None
) -> tuple[np.ndarray, dict[str, ListColumn]]:
    """The records of ``chunk`` to keep, and the list column of each key over them all
    (not valid where a record does not hold it as the column's kind, or could not be
    read); their payloads checked. With ``where``, its keys are extracted first, block by
    block, the rows its terms may hold for kept (and every record that could not be
    read), and the other keys extracted from those only."""
    ds, n = table.ds, len(chunk)
    kept = np.ones(n, dtype=bool)
    lengths = {k: np.zeros(n, dtype=np.int64) for k in keys}
    valid = {k: np.zeros(n, dtype=bool) for k in keys}
    pieces: dict[str, list[np.ndarray]] = {k: [] for k in keys}
    first = sorted(where.keys & set(keys)) if where is not None else []
    rest = [k for k in keys if k not in first]

    def take(
        block: Any, wanted: list[str], rows: np.ndarray
    ) -> tuple[np.ndarray, dict[str, ListColumn]]:
        """The keys ``wanted`` of the block's rows into the chunk's columns; the rows
        read, and each key's column over the block."""
        status, found = _columns(table, block, wanted)
        ok = status == 0
        mine = {}
        for k in wanted:
            values, other = _values(table, k, found[k], ok)
            keep = ok & found[k].present & ~other
            if other.any():
                with _COUNTING:  # batches are read on several threads
                    table.other_kinds[k] = table.other_kinds.get(k, 0) + int(other.sum())
            every = np.diff(found[k].rag.splits)
            counts = np.where(keep, every, 0)
            values = values[np.repeat(keep, every)]
            lengths[k][rows] = counts
            valid[k][rows] = keep
            pieces[k].append(values)
            mine[k] = ListColumn(keep, counts, values)
        return ok, mine

    readable = ds.undamaged(chunk)  # in the chunk's order: a row found by a search
    for positions, block in iter_blocks(ds, readable, verify=True, reuse=True):
        rows = np.searchsorted(chunk, readable[positions])
        if first:
            assert where is not None
            ok, mine = take(block, first, rows)
            held = where.keep(mine, block.rows) | ~ok
            kept[rows] = held
            block = replace(block, starts=np.where(held, block.starts, -1))
        if rest:
            take(block, rest, rows)
    out = {}
    for k in keys:  # the blocks come in the chunk's order: their values in row order
        dtype = _DTYPES.get(table.features[k], object)
        values = np.concatenate(pieces[k]) if pieces[k] else np.zeros(0, dtype=dtype)
        out[k] = ListColumn(valid[k], lengths[k], values.astype(dtype, copy=False))
    return kept, out


def _columns(table: SqlTable, block: Any, columns: list[str]) -> tuple[np.ndarray, dict[str, Any]]:
    """Each row's parse status and, by column, its key's column over the block's records."""
    keys = [table.key_of(c) for c in columns]
    if table.message is None:
        status, found = extract(block, keys)
    else:
        from ..query.message_columns import message_columns

        status, found = message_columns(block, keys, table.message)
    return status, {c: found[k] for c, k in zip(columns, keys, strict=True)}


def _values(table: SqlTable, key: str, column: Any, ok: np.ndarray) -> tuple[np.ndarray, Any]:
    """A key's values as its column's items, and the rows that hold it as another kind
    (read as NULL)."""
    kind = table.features[key]
    if table.message is None:
        other = ok & column.present & (column.kinds != _KIND_CODES[kind])
        return column.rag.values, other
    from ..query.columns import per_row_any
    from .sql_messages import typed

    values, fits = typed(column.rag.values, kind)
    return values, ok & per_row_any(column.rag, ~fits)


def _arrow(column: ListColumn, kind: str, plain: bool) -> Any:
    """The column as an Arrow ``large_list`` of the kind's items, or the items
    themselves when it is ``plain`` (NULL where not valid)."""
    import pyarrow as pa

    from .sql_messages import arrow_item

    items = arrow_item(kind)
    if kind == "bytes":
        values = _binary(column.values.tolist())
    elif column.values.dtype == object:
        values = pa.array(column.values.tolist(), items)
    else:
        values = pa.array(column.values, items)
    if plain:
        return _plain(values, column.valid)
    offsets = pa.array(np.concatenate([[0], np.cumsum(column.lengths)]).astype(np.int64))
    return pa.LargeListArray.from_arrays(offsets, values, mask=pa.array(~column.valid))


def _binary(items: list[bytes]) -> Any:
    """``items`` as an Arrow ``binary`` array: their bytes joined once, their offsets
    counted (``pa.array`` takes them one at a time); by ``pa.array`` past 2 GB."""
    import pyarrow as pa

    sizes = np.fromiter(map(len, items), dtype=np.int64, count=len(items))
    if int(sizes.sum()) >= BINARY_LIMIT:
        return pa.array(items, pa.binary())
    offsets = np.zeros(len(items) + 1, dtype=np.int32)
    np.cumsum(sizes, out=offsets[1:])
    data = b"".join(items)
    return pa.Array.from_buffers(
        pa.binary(), len(items), [None, pa.py_buffer(offsets), pa.py_buffer(data)]
    )


def _plain(values: Any, valid: np.ndarray) -> Any:
    """The items ``values`` of the rows where ``valid`` is set (one each, in row order)
    as a column of every row, NULL elsewhere."""
    import pyarrow as pa

    at = np.zeros(len(valid), dtype=np.int64)
    at[valid] = np.arange(int(valid.sum()))
    return values.take(pa.array(at, pa.int64(), mask=~valid))
