"""SQL over datasets, with DuckDB (the ``sql`` extra): each dataset a table
(:mod:`.sql_tables`), streamed to DuckDB as Arrow record batches, only the columns the
query names.

Safe by construction: one statement, a ``SELECT`` (``WITH``, ``VALUES``, set operations
within it) over the tables given and DuckDB's own functions, nothing else: no ``COPY``,
``ATTACH``, ``INSTALL``, ``SET``, ``PRAGMA``, no table function (``read_csv`` ...), and
the connection has no access to files or the network at all (DuckDB's
``enable_external_access`` off, its configuration locked), a memory limit, and can be
interrupted (:class:`Query`). Functions of ours: ``image_width(blob)``,
``image_height(blob)`` and ``image_format(blob)``, from a picture's header (NULL for
bytes that are no picture)."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from ..user_error import UserError
from .sql_pushdown import index_bounds
from .sql_row_filter import RowFilter, row_filter
from .sql_tables import SqlTable, arrow_schema, batches, with_key

MEMORY_LIMIT = "2GB"  # DuckDB's memory for one query (its limit, not ours alone)


_MISSING = re.compile(r'Referenced column "(.+?)" not found')


class _MissingColumn(Exception):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class SqlError(UserError):
    """A query that cannot run: DuckDB's own message (and where in the query), or what
    this program refuses."""


def require_duckdb() -> Any:
    try:
        import duckdb
    except ImportError as exc:
        raise SqlError(
            f"sql needs DuckDB, which is not installed ({exc}): pip install 'tfr-viewer[sql]'"
        ) from None
    return duckdb


@dataclass(frozen=True)
class Reads:
    """What a query reads: the tables it names (how many times each), every name it
    gives a column (in lower case: SQL's names are), and whether it asks for every
    column (``*``)."""

    tables: dict[str, int]
    names: frozenset[str]
    star: bool
    tree: dict[str, Any] = field(default_factory=dict, compare=False)  # DuckDB's parse


def reads(query: str) -> Reads:
    """What ``query`` reads (see :class:`Reads`); a :class:`SqlError` for anything but
    one ``SELECT`` over tables and functions."""
    duckdb = require_duckdb()
    try:
        statements = duckdb.extract_statements(query)
    except duckdb.Error as exc:
        raise SqlError(_said(exc, query)) from None
    if len(statements) != 1:
        raise SqlError(f"give one statement, not {len(statements)}")
    kind = statements[0].type
    if kind != duckdb.StatementType.SELECT:
        name = getattr(kind, "name", str(kind))
        raise SqlError(f"only a SELECT reads the data here: this is a {name} statement")
    con = duckdb.connect(config=_config())
    try:
        text = con.execute("SELECT json_serialize_sql(?)", [query]).fetchone()[0]
    finally:
        con.close()
    tree = json.loads(text)
    if tree.get("error"):
        raise SqlError(f"the query does not parse: {tree.get('error_message', '')}")
    tables: dict[str, int] = {}
    names: set[str] = set()
    star = False
    for node in _nodes(tree):
        kind_of = node.get("type")
        if kind_of == "BASE_TABLE":
            name = node.get("table_name", "")
            tables[name] = tables.get(name, 0) + 1
        elif kind_of == "TABLE_FUNCTION":
            raise SqlError(
                "the query calls a table function: only the datasets' tables are read here"
            )
        elif kind_of in ("STAR", "COLUMNS"):
            star = True
        for key in ("column_names", "using_columns"):
            value = node.get(key)
            if isinstance(value, list):
                names.update(v.lower() for v in value if isinstance(v, str))
    return Reads({t.lower(): n for t, n in tables.items()}, frozenset(names), star, tree)


def _nodes(tree: Any) -> Iterator[dict[str, Any]]:
    if isinstance(tree, dict):
        yield tree
        for value in tree.values():
            yield from _nodes(value)
    elif isinstance(tree, list):
        for value in tree:
            yield from _nodes(value)


def _place(query: str, name: str) -> str:
    """Where ``name`` is first written in ``query``, as `` (line L, column C)``."""
    found = re.search(rf'(?<![\w"]){re.escape(name)}(?![\w"])|"{re.escape(name)}"', query, re.I)
    if found is None:
        return ""
    before = query[: found.start()]
    line = before.count("\n") + 1
    return f" (line {line}, column {found.start() - (before.rfind(chr(10)) + 1) + 1})"


def _config(memory_limit: str | None = None) -> dict[str, Any]:
    return {
        "enable_external_access": False,
        "autoinstall_known_extensions": False,
        "autoload_known_extensions": False,
        "memory_limit": memory_limit or MEMORY_LIMIT,
    }


def _said(exc: BaseException, query: str) -> str:
    """DuckDB's message in one line, with the place in the query it names (its ``LINE
    n:`` and caret lines made a line and column)."""
    lines = str(exc).splitlines()
    said, where = [], ""
    for i, line in enumerate(lines):
        found = re.match(r"LINE (\d+): ", line)
        if found and i + 1 < len(lines) and "^" in lines[i + 1]:
            column = lines[i + 1].index("^") - len(found.group(0)) + 1
            where = f" (line {found.group(1)}, column {max(column, 1)})"
            break
        said.append(line)
    text = " ".join(" ".join(said).split()) or type(exc).__name__
    return text + where


@dataclass
class Query:
    """One query over ``tables`` (by name), run by :meth:`run`; :meth:`cancel` from
    another thread stops it (DuckDB interrupted, the reading of records stopped)."""

    text: str
    tables: dict[str, SqlTable]
    memory_limit: str | None = None  # DuckDB's spelling ("2GB"); None: MEMORY_LIMIT
    stop: Callable[[], bool] = lambda: False  # asked while the query runs: cancel it
    _con: Any = None
    _cancelled: threading.Event = field(default_factory=threading.Event)
    _failure: str = ""
    _stream_error: BaseException | None = None  # what stopped the reading of a table

    def cancel(self) -> None:
        self._cancelled.set()
        con = self._con
        if con is not None:
            try:
                con.interrupt()
            except Exception:  # noqa: BLE001 - a connection already closed
                pass

    @property
    def cancelled(self) -> bool:
        if not self._cancelled.is_set() and self.stop():
            self.cancel()
        return self._cancelled.is_set()

    def _watch(self, done: threading.Event) -> None:
        """Cancel the query when :attr:`stop` says so (asked ten times a second)."""
        while not done.wait(0.1):
            if self.cancelled:
                return

    def run(self) -> Any:
        """The result, a ``pyarrow.Table``; a :class:`SqlError` in one line for a query
        that cannot run, or a cancelled one. A column the query names that is a feature
        of records the tables' columns were not found in is looked for, and the query
        run again with it."""
        read = reads(self.text)
        by_name = {name.lower(): name for name in self.tables}
        tables = {by_name[t]: self.tables[by_name[t]] for t in read.tables if t in by_name}
        for name, table in tables.items():  # the records a WHERE on index leaves
            bounds = index_bounds(read.tree, name)
            if bounds is not None:
                tables[name] = replace(table, records=bounds.rows(len(table.ds), table.records))
        for _ in range(8):
            missing = None
            try:
                return self._run(read, tables)
            except _MissingColumn as exc:
                missing = exc.name
            for name, table in tables.items():
                more = with_key(table, missing)
                if more is not None:
                    tables[name] = more
                    break
            else:
                raise SqlError(self._failure) from None
        raise SqlError(self._failure)

    def _no_column(self, name: str, tables: dict[str, SqlTable]) -> str:
        columns = "; ".join(f"{t}: {', '.join(table.columns)}" for t, table in tables.items())
        return f"no column {name!r} in the tables ({columns})"

    def _run(self, read: Reads, tables: dict[str, SqlTable]) -> Any:
        duckdb = require_duckdb()
        try:
            con = duckdb.connect(config=_config(self.memory_limit))
        except duckdb.Error as exc:
            raise SqlError(f"--memory {self.memory_limit}: {_said(exc, '')}") from None
        self._con = con
        done = threading.Event()
        threading.Thread(target=self._watch, args=(done,), daemon=True).start()
        try:
            _functions(con)
            con.execute("SET lock_configuration = true")
            for name, table in tables.items():
                wanted = (
                    table.columns
                    if read.star
                    else [c for c in table.columns if c.lower() in read.names]
                ) or ["index"]  # rows to count, when the query names no column
                twice = read.tables[name.lower()] > 1
                where = row_filter(read.tree, name, table.listed_kinds())
                con.register(name, self._source(table, wanted, twice, where))
            if self.cancelled:
                raise SqlError("the query was cancelled")
            try:
                result = self._executed(con)
            except duckdb.InterruptException:
                raise SqlError("the query was cancelled") from None
            except duckdb.Error as exc:
                if self.cancelled:
                    raise SqlError("the query was cancelled") from None
                if self._stream_error is not None:  # a file changed, unreadable ...: its own
                    raise self._stream_error from None
                message = _said(exc, self.text)
                column = _MISSING.search(message)
                if column is not None:
                    name = column.group(1)
                    self._failure = self._no_column(name, tables) + _place(self.text, name)
                    raise _MissingColumn(column.group(1)) from None
                if "does not exist" in message and "Table" in message:
                    message += f" (the tables here: {', '.join(sorted(self.tables))})"
                raise SqlError(message) from None
            if self.cancelled:
                raise SqlError("the query was cancelled")
            return result
        finally:
            done.set()
            self._con = None
            _close(con)

    def _executed(self, con: Any) -> Any:
        """The query's result, computed on a thread of its own while this one waits: a
        Ctrl+C (or SIGTERM) here interrupts DuckDB and the reading of records, then is
        raised again once the query has stopped."""
        box: dict[str, Any] = {}
        finished = threading.Event()  # not join(): an interrupted join leaves it wrong

        def work() -> None:
            try:
                found = con.sql(self.text)
                box["result"] = (
                    found.to_arrow_table() if hasattr(found, "to_arrow_table") else found.arrow()
                )
            except BaseException as exc:  # noqa: BLE001 - raised again on the asking thread
                box["error"] = exc
            finally:
                finished.set()

        threading.Thread(target=work, daemon=True, name="tfr-sql").start()
        try:
            while not finished.wait(0.1):
                pass
        except BaseException:
            while not finished.is_set():  # asked again until DuckDB has heard it
                self.cancel()
                finished.wait(0.2)
            raise
        if "error" in box:
            error = box["error"]
            if isinstance(error, RuntimeError) and "interrupted" in str(error).lower():
                raise SqlError("the query was cancelled") from None
            raise error
        return box["result"]

    def _source(
        self, table: SqlTable, columns: list[str], twice: bool, where: RowFilter | None
    ) -> Any:
        """What DuckDB reads ``table`` from: a stream of record batches (the rows
        ``where`` may keep), or the table itself when the query reads it more than once
        (a stream is read once)."""
        import pyarrow as pa

        schema = arrow_schema(table, columns)
        parts = self._kept_error(batches(table, columns, lambda: self.cancelled, where))
        if twice:
            return pa.Table.from_batches(list(parts), schema=schema)
        return pa.RecordBatchReader.from_batches(schema, parts)

    def _kept_error(self, parts: Iterator[Any]) -> Iterator[Any]:
        """``parts``, what stops them kept: DuckDB says it as text of its own, the
        query raises it as it is."""
        try:
            yield from parts
        except Exception as exc:  # not a GeneratorExit: DuckDB done with the stream
            self._stream_error = exc
            raise


def _close(con: Any) -> None:
    """Close a connection, once the work an interrupted query left has ended (DuckDB
    refuses to close a connection busy with it)."""
    import duckdb

    for _ in range(100):
        try:
            con.close()
            return
        except duckdb.Error:
            time.sleep(0.05)


def _functions(con: Any) -> None:
    """Our functions: a picture's width, height and format from its header."""
    import duckdb

    from ..decode.detect import image_info

    def side(pick: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def of(data: bytes | None) -> Any:
            if data is None:
                return None
            info = image_info(data)
            return None if info is None else pick(info)

        return of

    blob, integer, text = (
        duckdb.sqltype("BLOB"),
        duckdb.sqltype("INTEGER"),
        duckdb.sqltype("VARCHAR"),
    )
    con.create_function("image_width", side(lambda i: i.width), [blob], integer, side_effects=False)
    con.create_function(
        "image_height", side(lambda i: i.height), [blob], integer, side_effects=False
    )
    con.create_function("image_format", side(lambda i: i.format), [blob], text, side_effects=False)
