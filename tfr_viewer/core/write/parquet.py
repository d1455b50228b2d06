"""TFRecords to Parquet, through pyarrow (the optional extra ``tfr-viewer[parquet]``),
from the columnar extractor: one column per feature key.

A key that every Example holds with exactly one value becomes a plain column; any other
key a list column, null where a record lacks the key. int64 stays int64, floats are
float32 (as TensorFlow stores them), bytes are binary, or string when every value is
UTF-8 text. Images stay encoded bytes. Only Examples flatten to columns: a dataset of
SequenceExamples, tensors or other payloads is refused with a message that says so.
The file is written block by block to a temporary of the output layer's job
(:mod:`.output`), whose owner moves it into place at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ..analyze.key_kinds import kinds_shown
from ..io import Cancelled, CancelToken, Dataset
from ..io.dataset_blocks import iter_blocks
from ..query.extract import extract
from ..user_error import UserError, one_line
from .output import OutputJob, disk_errors

Progress = Callable[[int, int], None] | None
_ARROW = {"int64": "int64", "float": "float32", "bytes": "binary"}


class ParquetError(UserError, ValueError):
    """A dataset that cannot be written as Parquet; the message says why and what to do."""


class MissingFeature(ParquetError, KeyError):
    """A column asked for that no record holds (a KeyError too, as a mapping's would be)."""

    def __str__(self) -> str:  # the message as it is, not as KeyError quotes it
        return one_line(str(self.args[0]) if self.args else "") + self.detail


def require_pyarrow(what: str = "Parquet") -> Any:
    """pyarrow, or a :class:`ParquetError` that says how to install it (for ``what``)."""
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise ParquetError(
            f"writing {what} needs pyarrow, an optional part of tfr-viewer: "
            "pip install 'tfr-viewer[parquet]'"
        ) from None
    return pyarrow


def _text_keys(ds: Dataset, records: np.ndarray, keys: list[str]) -> set[str]:
    """The bytes features of ``keys`` whose every value is UTF-8 text: one pass over all
    the records, ended as soon as no key is left."""
    text = set(keys)
    for _, block in iter_blocks(ds, records):
        if not text:
            break
        _, columns = extract(block, sorted(text))
        for key, column in columns.items():
            for v in column.rag.values.tolist():
                if isinstance(v, bytes):
                    try:
                        v.decode("utf-8")
                    except UnicodeDecodeError:
                        text.discard(key)
                        break
    return text


def plan_columns(
    ds: Dataset, records: np.ndarray, keys: Sequence[str] | None = None
) -> dict[str, tuple[str, bool]]:
    """``{key: (arrow type name, scalar)}`` for the dataset's Example features (those of
    ``keys``, in that order, when given: a key no record holds is a ParquetError)."""
    from ..analyze.schema import infer_schema

    schema = infer_schema(ds, records)
    if schema.sequence_examples:
        raise ParquetError(
            f"{schema.sequence_examples:,} records are SequenceExamples, whose feature "
            "lists do not flatten to columns; export the Examples only, or use --format "
            "jsonl, which keeps every step"
        )
    if not schema.examples:
        raise ParquetError(
            "no record is a tf.train.Example with features (tensors or other payloads do "
            "not flatten to columns); `tfr-viewer show` shows what they are"
        )
    if keys is not None:
        missing = [k for k in keys if k not in schema.features]
        if missing:
            raise MissingFeature(
                f"no record holds a feature {missing[0]!r}; the keys are "
                f"{', '.join(sorted(schema.features))}"
            )
    chosen = list(dict.fromkeys(keys)) if keys is not None else sorted(schema.features)
    out = {}
    for key in chosen:
        stats = schema.features[key]
        if stats.conflict:
            raise ParquetError(
                f"feature {key!r} has several kinds ({kinds_shown(stats.kinds)}), and a "
                "column has one (tf.io parsing fails on the records of the other kind: "
                "`tfr-viewer check` lists them); choose the keys to export without it"
            )
        scalar = stats.present == schema.examples and stats.min_count == stats.max_count == 1
        out[key] = (_ARROW[stats.kind], scalar)
    binary = [k for k, (arrow, _) in out.items() if arrow == "binary"]
    for key in _text_keys(ds, records, binary):
        out[key] = ("string", out[key][1])
    return out


def _list_column(pa: Any, arrow: str, rag: Any, present: np.ndarray) -> Any:
    """A list column (null where the key is absent) from a ragged column."""
    kind = _types(pa)[arrow]
    if arrow in ("binary", "string"):
        items = rag.values.tolist()
        if arrow == "string":
            items = [v.decode("utf-8") if isinstance(v, bytes) else v for v in items]
        flat = pa.array(items, type=kind)
    else:
        dtype = np.float32 if arrow == "float32" else np.int64
        flat = pa.array(np.asarray(rag.values, dtype=dtype), type=kind)
    offsets = pa.array(np.asarray(rag.splits, dtype=np.int64))
    return pa.LargeListArray.from_arrays(offsets, flat, mask=pa.array(~present))


def _types(pa: Any) -> dict[str, Any]:
    return {
        "int64": pa.int64(),
        "float32": pa.float32(),
        "binary": pa.binary(),
        "string": pa.string(),
    }


Columns = dict[str, tuple[str, bool]]  # key: (arrow type name, scalar)


def tables(
    ds: Dataset,
    records: Sequence[int] | np.ndarray,
    *,
    cancel: CancelToken | None = None,
    progress: Progress = None,
    keys: Sequence[str] | None = None,
) -> tuple[Columns, Any, Iterator[Any]]:
    """The columns (``keys``, or every feature) of ``records`` (intact Examples) of an
    indexed dataset, their Arrow schema, and the rows as Arrow tables block by block, in
    the order asked for; records that are not Examples are left out. Shared by every
    Arrow-based format."""
    pa = require_pyarrow()
    chosen = np.asarray(records, dtype=np.int64)
    columns = plan_columns(ds, chosen, keys)
    keys = list(columns)
    kinds = _types(pa)
    schema = pa.schema(
        [(k, kinds[a] if scalar else pa.large_list(kinds[a])) for k, (a, scalar) in columns.items()]
    )

    def blocks() -> Iterator[Any]:
        done = 0
        for positions, block in iter_blocks(ds, chosen):
            if cancel is not None and cancel.cancelled:
                raise Cancelled()
            status, found = extract(block, keys)
            lists = [_list_column(pa, columns[k][0], found[k].rag, found[k].present) for k in keys]
            # rows in the order asked for, Examples only (a scalar key is in each)
            keep = (status == 0) & (block.starts >= 0)
            for k in keys:
                if columns[k][1]:
                    keep &= found[k].present & (found[k].rag.lengths() == 1)
            order = np.argsort(positions, kind="stable")
            order = order[keep[order]]
            picked = pa.array(order)
            arrays = []
            for k, column in zip(keys, lists, strict=True):
                column = column.take(picked)
                arrays.append(column.flatten() if columns[k][1] else column)
            yield pa.Table.from_arrays(arrays, schema=schema)
            done += block.rows
            if progress is not None:
                progress(done, len(chosen))

    return columns, schema, blocks()


def write_tables(
    ds: Dataset,
    records: Sequence[int],
    out: str,
    job: OutputJob,
    opens: Callable[[Any, Any], Any],
    *,
    cancel: CancelToken | None = None,
    progress: Progress = None,
) -> tuple[str, int, Columns]:
    """Write the :func:`tables` of ``records`` to ``out`` (a target of ``job``) through
    the table writer ``opens(file, schema)`` gives (a context manager with
    ``write_table``); returns the path, the rows written and the columns."""
    job.plan(out)
    columns, schema, blocks = tables(ds, records, cancel=cancel, progress=progress)
    rows = 0
    with disk_errors(out), job.create(out) as raw, opens(raw, schema) as writer:
        for table in blocks:
            writer.write_table(table)
            rows += table.num_rows
    return out, rows, columns


def export_parquet(
    ds: Dataset,
    records: Sequence[int],
    out: str,
    job: OutputJob,
    *,
    cancel: CancelToken | None = None,
    progress: Progress = None,
) -> tuple[str, int, Columns]:
    """Write ``records`` (intact Examples) of an indexed dataset to ``out`` (a target
    of ``job``); returns the path, the rows written and the columns (key: arrow type,
    scalar). Records that are not Examples are left out."""
    require_pyarrow()
    import pyarrow.parquet as pq

    return write_tables(ds, records, out, job, pq.ParquetWriter, cancel=cancel, progress=progress)
