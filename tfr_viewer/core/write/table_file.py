"""A table written as a file through the output layer, or as text on a stream: CSV,
JSON, JSON lines or Parquet, chosen by the target's suffix, written block by block as
the blocks come (a table of a hundred million rows is never whole in memory).

A table is its column names and blocks, each a mapping of every column to its values
for the block's rows: a numpy array, a list, or :class:`Coded` (indexes into names, as
a run or a tag repeats over millions of rows; Parquet keeps it as a dictionary column).
Numbers are written exactly: a float as the shortest text that reads back the same
float64 (``NaN``, ``inf`` and ``-inf`` in CSV; strict JSON's strings in JSON,
:mod:`..json_text`); Parquet keeps each column's type."""

from __future__ import annotations

import csv
import io
import math
import os
import queue
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

import numpy as np

from ..user_error import UserError
from .output import OutputJob

FORMATS = {".csv": "csv", ".json": "json", ".jsonl": "jsonl", ".parquet": "parquet"}


@dataclass(frozen=True)
class Coded:
    """A column of texts as ``codes`` (int32) into ``names``."""

    codes: np.ndarray
    names: Sequence[str]

    def __len__(self) -> int:
        return len(self.codes)

    def texts(self) -> list[str]:
        return np.asarray(self.names, dtype=object)[self.codes].tolist()  # type: ignore[no-any-return]


Column = Sequence[Any] | np.ndarray | Coded
Block = Mapping[str, Column]


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


class TableWriter:
    """Blocks written one after another to ``out`` (a text stream) as ``csv``,
    ``json`` or ``jsonl``, or to the file ``path`` as ``parquet``; :meth:`close` ends
    the table and says how many rows it has."""

    def __init__(
        self, fmt: str, columns: Sequence[str], *, out: IO[str] | None = None, path: str = ""
    ) -> None:
        self.fmt, self.columns, self.rows = fmt, list(columns), 0
        self._out, self._path = out, path
        self._parquet: Any = None
        self._schema: Any = None
        self._behind: _WriteBehind
        if fmt == "csv":
            assert out is not None
            self._csv = csv.writer(out, lineterminator="\n")
            self._csv.writerow(self.columns)
        elif fmt == "json":
            assert out is not None
            out.write("[")

    def write(self, block: Block) -> None:
        if self.fmt == "parquet":
            self._write_parquet(block)
            return
        out = self._out
        assert out is not None
        if self.fmt == "csv":
            cells = [_csv_cells(block[c]) for c in self.columns]
            self._csv.writerows(zip(*cells, strict=True))
            self.rows += len(cells[0]) if cells else 0
            return
        from ..json_text import dumps

        values = [_json_cells(block[c]) for c in self.columns]
        for row in zip(*values, strict=True):
            text = dumps(dict(zip(self.columns, row, strict=True)))
            if self.fmt == "json":
                out.write(("\n" if self.rows == 0 else ",\n") + text)
            else:
                out.write(text + "\n")
            self.rows += 1

    def _write_parquet(self, block: Block) -> None:
        from .parquet import require_pyarrow

        pa = require_pyarrow("a Parquet table")
        import pyarrow.parquet as pq

        table = pa.table({c: arrow_column(pa, block[c]) for c in self.columns})
        if self._parquet is None:
            self._schema = table.schema
            coded = [c for c in self.columns if isinstance(block[c], Coded)]
            self._parquet = pq.ParquetWriter(
                self._path,
                table.schema,
                use_dictionary=coded or False,  # texts that repeat; numbers as they are
                write_statistics=[c for c in self.columns if c not in coded],
            )
            self._behind = _WriteBehind(self._parquet.write_table)
        elif table.schema != self._schema:
            table = table.cast(self._schema)
        self._behind.put(table)
        self.rows += table.num_rows

    def abandon(self) -> None:
        """Stop writing after an error elsewhere: the writer's thread ended, its file
        closed (the output layer removes it)."""
        if self._parquet is not None:
            try:
                self._behind.finish()
            except BaseException:  # noqa: BLE001 - the error that abandons it is the one said
                pass
            self._parquet.close()
            self._parquet = None

    def close(self) -> int:
        if self.fmt == "parquet":
            if self._parquet is None:  # no block: the columns' names, no rows, as text
                from .parquet import require_pyarrow

                pa = require_pyarrow("a Parquet table")
                import pyarrow.parquet as pq

                pq.write_table(
                    pa.table({c: pa.array([], pa.string()) for c in self.columns}), self._path
                )
            else:
                self._behind.finish()
                self._parquet.close()
        elif self.fmt == "json":
            assert self._out is not None
            self._out.write("\n]\n" if self.rows else "]\n")
        return self.rows


class _WriteBehind:
    """Tables written on a thread of their own while the next is made (pyarrow lets
    go of the interpreter as it encodes), one at most waiting; the writer's error
    comes out of the next :meth:`put` or of :meth:`finish`."""

    def __init__(self, write: Any) -> None:
        self._write = write
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=1)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="table-writer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (table := self._queue.get()) is not None:
            if self._error is None:
                try:
                    self._write(table)
                except BaseException as exc:  # noqa: BLE001 - raised on the caller's thread
                    self._error = exc

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error

    def put(self, table: Any) -> None:
        self._raise()
        self._queue.put(table)

    def finish(self) -> None:
        self._queue.put(None)
        self._thread.join()
        self._raise()


def arrow_column(pa: Any, column: Column) -> Any:
    """A column as an Arrow array (a :class:`Coded` one as a dictionary)."""
    if isinstance(column, Coded):
        return pa.DictionaryArray.from_arrays(
            pa.array(column.codes, pa.int32()), pa.array(list(column.names), pa.string())
        )
    if isinstance(column, np.ndarray):
        return pa.array(column)
    return pa.array(list(column))


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
    with TableTarget(target, columns, inputs=inputs, overwrite=overwrite) as writer:
        for block in blocks:
            writer.write(block)
    return writer.rows


class TableTarget:
    """The file ``target`` written as a table through the output layer, as a context:
    :meth:`write` each block; leaving it without an error puts the file in place
    (checked against ``inputs`` and the overwrite rule first), with one leaves
    nothing."""

    def __init__(
        self,
        target: str,
        columns: Sequence[str],
        *,
        inputs: Iterable[str] = (),
        overwrite: bool = False,
    ) -> None:
        self.target, self.columns = target, columns
        self._fmt = table_format(target)
        self._job = OutputJob.over(inputs, overwrite)
        self._text: io.TextIOWrapper | None = None
        self._writer: TableWriter | None = None

    def __enter__(self) -> TableTarget:
        self._job.__enter__()
        try:
            self._job.plan(self.target)
            if self._fmt == "parquet":
                self._writer = TableWriter(
                    self._fmt, self.columns, path=self._job.temporary(self.target)
                )
            else:
                raw = self._job.create(self.target)
                self._text = io.TextIOWrapper(raw, "utf-8", newline="")
                self._writer = TableWriter(self._fmt, self.columns, out=self._text)
        except BaseException:
            self._job.__exit__(None, None, None)
            raise
        return self

    @property
    def rows(self) -> int:
        """The rows written so far."""
        return self._writer.rows if self._writer is not None else 0

    def write(self, block: Block) -> None:
        assert self._writer is not None
        self._writer.write(block)

    def __exit__(self, kind: object, *rest: object) -> None:
        try:
            if kind is None and self._writer is not None:
                self._writer.close()
            elif self._writer is not None:
                self._writer.abandon()
            if self._text is not None:
                self._text.close()
            if kind is None:
                self._job.commit()
        finally:
            self._job.__exit__(kind, *rest)


def _csv_cells(column: Column) -> list[Any]:
    if isinstance(column, Coded):
        return column.texts()
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


def _json_cells(column: Column) -> list[Any]:
    if isinstance(column, Coded):
        return column.texts()
    return list(column.tolist()) if isinstance(column, np.ndarray) else list(column)
