"""``sql``: a SQL query over datasets, each a table (:mod:`..core.analyze.sql`), the same
for the command line, the Python API and the window.

:class:`SqlRequest` runs on one dataset as the table ``records`` (with its TFDS splits
as tables of their own); :func:`run_sql` on several, by name. :class:`SqlReport` is the
result: a ``pyarrow.Table``, its JSON (``{query, columns: [{name, type}], rows: [[...]],
warnings}``) and its lines of text. A value in JSON: numbers as they are (a ``FLOAT`` as
the shortest text of its float32, a ``HUGEINT`` sum as a whole number), text, ``null``,
lists and structs as JSON's, bytes as ``{size, text}`` when they are UTF-8 text and
``{size, base64}`` otherwise."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.analyze.sql_values import cell, short
from .indexing import index
from .task_state import QUIET, TaskState

if TYPE_CHECKING:
    import numpy as np

    from ..core.analyze.sql_tables import SqlTable
    from ..core.io import Dataset


@dataclass(frozen=True)
class SqlReport:
    """What a query gave: ``table`` (a ``pyarrow.Table``), how long it took, and what
    was said of the tables (features read as NULL where a record holds another kind)."""

    query: str
    table: Any
    seconds: float
    warnings: tuple[str, ...] = ()

    def columns(self) -> list[tuple[str, str]]:
        """``(name, DuckDB's type as Arrow names it)`` of each column."""
        return [(f.name, str(f.type)) for f in self.table.schema]

    def to_json(self) -> dict[str, Any]:
        """``sql --json`` (see the module)."""
        rows = [[cell(v, f.type) for v, f in zip(row, self.table.schema, strict=True)]
                for row in _rows(self.table)]  # fmt: skip
        return {
            "query": self.query,
            "columns": [{"name": n, "type": t} for n, t in self.columns()],
            "rows": rows,
            "warnings": list(self.warnings),
        }

    def to_pandas(self) -> Any:
        return self.table.to_pandas()

    def lines(self, width: int = 40) -> list[str]:
        """The result as a table of text: a header, then a line a row (each value cut to
        ``width`` characters)."""
        names = [n for n, _ in self.columns()]
        body = [[short(cell(v, f.type), width) for v, f in zip(row, self.table.schema, strict=True)]
                for row in _rows(self.table)]  # fmt: skip
        widths = [max([len(n)] + [len(r[i]) for r in body]) for i, n in enumerate(names)]
        out = ["  ".join(n.ljust(w) for n, w in zip(names, widths, strict=True)).rstrip()]
        out += [
            "  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in body
        ]
        return out


def _rows(table: Any) -> list[tuple[Any, ...]]:
    columns = [table.column(i).to_pylist() for i in range(table.num_columns)]
    return list(zip(*columns, strict=True)) if columns else []


@dataclass
class KeptQueries:
    """The queries kept for one dataset: those run (the last first, at most ``limit``)
    and those saved by name; as JSON, ``{history: [...], saved: {name: query}}``."""

    history: list[str]
    saved: dict[str, str]
    limit: int = 20

    @classmethod
    def from_json(cls, obj: object, limit: int = 20) -> KeptQueries:
        """What ``obj`` holds of them (anything else in it is left out)."""
        found = obj if isinstance(obj, dict) else {}
        history = found.get("history")
        saved = found.get("saved")
        return cls(
            [q for q in history if isinstance(q, str)][:limit] if isinstance(history, list) else [],
            {k: v for k, v in saved.items() if isinstance(k, str) and isinstance(v, str)}
            if isinstance(saved, dict)
            else {},
            limit,
        )

    def to_json(self) -> dict[str, Any]:
        return {"history": list(self.history), "saved": dict(self.saved)}

    def ran(self, query: str) -> None:
        """``query`` was run: first in the history, once."""
        self.history = [query] + [q for q in self.history if q != query][: self.limit - 1]


@dataclass(frozen=True)
class SqlRequest:
    """``sql`` as a front end asks it: the query over the dataset as ``records`` (its
    TFDS splits as tables of their own)."""

    query: str
    memory_limit: str | None = None

    def run(self, ds: Dataset, state: TaskState = QUIET) -> SqlReport:
        return run_sql(self.query, {"records": ds}, state, memory_limit=self.memory_limit)


def frame_locator(ds: Dataset) -> Callable[[Any, Any], int | None]:
    """The record of ``ds`` a result row names by its ``file`` (as the table's column
    gives it, or its real path) and ``offset`` (where its frame starts): its global
    number, or None when no record of ``ds`` starts there."""
    import os

    import numpy as np

    numbers: dict[str, int] = {}
    for number, f in enumerate(ds.files):
        numbers.setdefault(f.path, number)
        numbers.setdefault(os.path.realpath(f.path), number)
    starts: dict[int, np.ndarray] = {}  # each file's frame offsets, read once

    def locate(file: Any, offset: Any) -> int | None:
        if not isinstance(file, str) or not isinstance(offset, int) or offset < 0:
            return None
        number = numbers.get(file, numbers.get(os.path.realpath(file)))
        if number is None:
            return None
        if number not in starts:
            starts[number] = np.asarray(ds.files[number].index.offsets(), dtype=np.int64)
        local = int(np.searchsorted(starts[number], offset))
        if local >= len(starts[number]) or int(starts[number][local]) != offset:
            return None
        return ds.start_of(number) + local

    return locate


def tables_of(
    datasets: Mapping[str, Dataset],
    state: TaskState = QUIET,
    records: Mapping[str, np.ndarray] | None = None,
) -> dict[str, SqlTable]:
    """Each dataset as the table of its name (indexed, headers only: the payload CRCs
    are checked as the records are read; ``records``, by name, the global numbers of
    the records of a table that holds only some), and the splits of a TFDS folder as
    tables of their own (``train``, ``test`` ...), unless a dataset has that name."""
    import numpy as np

    from ..core.analyze.sql_tables import table_of
    from ..core.io.tfds import info_of

    out: dict[str, SqlTable] = {}
    for name, ds in datasets.items():
        index(ds, verify=False, state=state)
        out[name] = table_of(name, ds, (records or {}).get(name))
    for ds in datasets.values():
        info = info_of([f.path for f in ds.files])
        if info is None:
            continue
        for split in info.splits:
            if split.name in out or not split.name.isidentifier():
                continue
            numbers = [n for n, f in enumerate(ds.files) if info.split_of(f.path) == split.name]
            if numbers:
                rows = np.concatenate(
                    [np.arange(ds.start_of(n), ds.start_of(n) + len(ds.files[n].index))
                     for n in numbers]
                )  # fmt: skip
                out[split.name] = table_of(split.name, ds, rows.astype(np.int64))
    return out


def run_sql(
    query: str,
    datasets: Mapping[str, Dataset],
    state: TaskState = QUIET,
    *,
    memory_limit: str | None = None,
    records: Mapping[str, np.ndarray] | None = None,
) -> SqlReport:
    """``query`` over ``datasets`` (by table name; ``records`` as :func:`tables_of`
    takes them); stops when ``state`` is cancelled (a
    :class:`~..core.analyze.sql.SqlError` then). Its warnings: the datasets' own (empty
    files, missing shards, the message type a file was read as), then the features read
    as NULL where records hold them as another kind."""
    from ..core.analyze.sql import Query

    started = time.perf_counter()
    tables = tables_of(datasets, state, records)
    running = Query(query, tables, memory_limit, lambda: state.cancelled)
    with state.phase("running the query", 0):
        result = running.run()
    said = [str(w) for ds in datasets.values() for w in ds.file_warnings()]
    warnings = [*dict.fromkeys(said)] + [
        f"{name}: feature {key!r} is read as NULL in {n:,} records that hold it as another "
        "kind than its column's"
        for name, table in tables.items()
        for key, n in sorted(table.other_kinds.items())
    ]
    return SqlReport(query, result, time.perf_counter() - started, tuple(warnings))
