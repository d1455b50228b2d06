"""A table written as a file through the output layer: CSV, JSON, JSON lines or
Parquet, chosen by the target's suffix, written block by block (a table of a hundred
million rows is never whole in memory).

A table is its column names and an iterable of blocks, each a mapping of every column
to a sequence (a numpy array or a list) of the block's rows. Numbers are written
exactly: a float as the shortest text that reads back the same float64 (``NaN``,
``inf`` and ``-inf`` in CSV; strict JSON's strings in JSON, :mod:`..json_text`);
Parquet keeps each column's type."""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import IO, Any

import numpy as np

from ..user_error import UserError
from .output import OutputJob

FORMATS = {".csv": "csv", ".json": "json", ".jsonl": "jsonl", ".parquet": "parquet"}
Block = Mapping[str, Sequence[Any]]


def table_format(target: str) -> str:
    """The format of ``target`` by its suffix; a :class:`UserError` naming the
    suffixes there are for any other."""
    suffix = os.path.splitext(target)[1].lower()
    found = FORMATS.get(suffix)
    if found is None:
        raise UserError(
            f"{target}: cannot tell the table's format from its name; end it with "
            + ", ".join(FORMATS)
        )
    return found


def write_table(
    target: str,
    columns: Sequence[str],
    blocks: Iterable[Block],
    *,
    inputs: Iterable[str] = (),
    overwrite: bool = False,
) -> int:
    """Write the table to ``target`` (all of it or nothing, never replacing one of
    ``inputs`` or, without ``overwrite``, a file that exists); the number of rows."""
    fmt = table_format(target)
    with OutputJob.over(inputs, overwrite) as job:
        job.plan(target)
        if fmt == "parquet":
            rows = _parquet(job.temporary(target), columns, blocks)
        else:
            with job.create(target) as raw, io.TextIOWrapper(raw, "utf-8", newline="") as out:
                rows = write_text(out, fmt, columns, blocks)
        job.commit()
    return rows


def write_text(out: IO[str], fmt: str, columns: Sequence[str], blocks: Iterable[Block]) -> int:
    """Write the table to the text stream ``out`` as ``csv``, ``json`` or ``jsonl``;
    the number of rows."""
    rows = 0
    if fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        for block in blocks:
            cells = [_csv_cells(block[c]) for c in columns]
            writer.writerows(zip(*cells, strict=True))
            rows += len(cells[0]) if cells else 0
        return rows
    from ..json_text import dumps

    out.write("[" if fmt == "json" else "")
    for block in blocks:
        values = [_json_cells(block[c]) for c in columns]
        for row in zip(*values, strict=True):
            text = dumps(dict(zip(columns, row, strict=True)))
            if fmt == "json":
                out.write(("\n" if rows == 0 else ",\n") + text)
            else:
                out.write(text + "\n")
            rows += 1
    out.write("\n]\n" if fmt == "json" and rows else "]\n" if fmt == "json" else "")
    return rows


def _csv_cells(column: Sequence[Any]) -> list[Any]:
    if isinstance(column, np.ndarray):
        if column.dtype.kind == "f":
            return [_float_text(v) for v in column.tolist()]
        return list(column.tolist())
    return [_float_text(v) if isinstance(v, float) else "" if v is None else v for v in column]


def _float_text(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return repr(value)


def _json_cells(column: Sequence[Any]) -> list[Any]:
    return list(column.tolist()) if isinstance(column, np.ndarray) else list(column)


def _parquet(path: str, columns: Sequence[str], blocks: Iterable[Block]) -> int:
    from .parquet import require_pyarrow

    pa = require_pyarrow("a Parquet table")
    import pyarrow.parquet as pq

    rows = 0
    writer = None
    try:
        for table in _arrow_tables(pa, columns, blocks):
            if writer is None:
                writer = pq.ParquetWriter(path, table.schema)
            writer.write_table(table)
            rows += table.num_rows
        if writer is None:  # no block: the columns' names, no rows, typed as text
            empty = pa.table({c: pa.array([], pa.string()) for c in columns})
            pq.write_table(empty, path)
    finally:
        if writer is not None:
            writer.close()
    return rows


def _arrow_tables(pa: Any, columns: Sequence[str], blocks: Iterable[Block]) -> Iterator[Any]:
    schema = None
    for block in blocks:
        table = pa.table({c: _arrow_column(pa, block[c]) for c in columns})
        if schema is None:
            schema = table.schema
        elif table.schema != schema:
            table = table.cast(schema)
        yield table


def _arrow_column(pa: Any, column: Sequence[Any]) -> Any:
    if isinstance(column, np.ndarray):
        return pa.array(column)
    return pa.array(list(column))
