"""The tables of a log folder's event files, every point of every run and tag, as
``tfr-viewer scalars|histograms|hparams PATH... [-o FILE]`` writes them and the Python
API returns them (``to_arrow``, ``to_pandas``):

- ``scalars``: ``run, tag, step, wall_time, value, record``, a row a point;
- ``histograms``: ``run, tag, step, wall_time, left, right, count, record``, a row a
  bucket of a histogram at a step;
- ``hparams``: ``run``, then a column a hyperparameter, then a column a metric (the
  last value of a scalar tag of the run or of a run below it, ``group/tag`` then, or
  the metrics the experiment names), a row a run that logged its hyperparameters.

``record`` is the record of the dataset that holds the point, numbered as every
command numbers records."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import IO, Any, Protocol

from ..core.analyze.event_log import EventLog
from ..core.analyze.scalar_columns import ScalarChunk
from ..core.io import Dataset
from ..core.user_error import UserError
from ..core.write.table_file import Coded, Column
from .task_state import QUIET, TaskState

TABLES = ("scalars", "histograms", "hparams")
SCALAR_COLUMNS = ("run", "tag", "step", "wall_time", "value", "record")
HISTOGRAM_COLUMNS = ("run", "tag", "step", "wall_time", "left", "right", "count", "record")
BLOCK_ROWS = 1 << 18  # rows a block of a table holds


@dataclass(frozen=True)
class EventTable:
    """A table: its ``name``, ``columns`` and ``blocks`` (each a column name to the
    block's values, a numpy array or a list)."""

    name: str
    columns: tuple[str, ...]
    blocks: tuple[Mapping[str, Column], ...] = ()

    @property
    def rows(self) -> int:
        return sum(len(b[self.columns[0]]) for b in self.blocks) if self.columns else 0

    def to_arrow(self) -> Any:
        """The table as a ``pyarrow.Table`` (needs pyarrow); runs and tags as
        dictionary columns (pandas' categories)."""
        from ..core.write.parquet import require_pyarrow
        from ..core.write.table_file import arrow_column

        pa = require_pyarrow("to_arrow")
        if not self.blocks:
            return pa.table({c: pa.array([], pa.string()) for c in self.columns})
        tables = [pa.table({c: arrow_column(pa, b[c]) for c in self.columns}) for b in self.blocks]
        return pa.concat_tables(tables, promote_options="permissive").unify_dictionaries()

    def to_pandas(self) -> Any:
        """The table as a pandas DataFrame (needs pyarrow and pandas)."""
        from .tables import require_pandas

        require_pandas()
        return self.to_arrow().to_pandas()


def scalar_block(chunk: ScalarChunk) -> dict[str, Column]:
    """A block of the scalars table: the points of ``chunk``."""
    return {
        "run": Coded(chunk.run, chunk.runs),
        "tag": Coded(chunk.tag, chunk.tags),
        "step": chunk.step,
        "wall_time": chunk.wall_time,
        "value": chunk.value,
        "record": chunk.record,
    }


def scalar_table(log: EventLog) -> EventTable:
    """Every scalar point the log gathered and still holds, in the order of the
    records."""
    parts = log.scalars.parts()  # a block a part, never copied into one
    return EventTable("scalars", SCALAR_COLUMNS, tuple(scalar_block(p) for p in parts if len(p)))


def histogram_table(log: EventLog) -> EventTable:
    """Every bucket of every histogram, in the order of the records."""
    blocks = []
    for lo in range(0, len(log.histograms), 4096):
        rows: dict[str, list[Any]] = {c: [] for c in HISTOGRAM_COLUMNS}
        for h in log.histograms[lo : lo + 4096]:
            k = len(h.buckets)
            rows["run"] += [h.run] * k
            rows["tag"] += [h.tag] * k
            rows["step"] += [h.step] * k
            rows["wall_time"] += [h.wall_time] * k
            rows["left"] += h.buckets[:, 0].tolist()
            rows["right"] += h.buckets[:, 1].tolist()
            rows["count"] += h.buckets[:, 2].tolist()
            rows["record"] += [h.record] * k
        blocks.append(rows)
    return EventTable("histograms", HISTOGRAM_COLUMNS, tuple(blocks))


def hparams_table(log: EventLog) -> EventTable:
    """A row a run that logged hyperparameters: their values, then its metrics."""
    runs = [run for run in log.runs() if run in log.hparams]
    names = list(dict.fromkeys(name for run in runs for name in log.hparams[run]))
    last = _last_values(log) if runs else {}
    metrics = {run: _metrics(log, run, last) for run in runs}
    metric_names = list(dict.fromkeys(m for run in runs for m in metrics[run]))
    columns = ("run", *names, *(m for m in metric_names if m not in names and m != "run"))
    rows: dict[str, list[Any]] = {c: [] for c in columns}
    for run in runs:
        rows["run"].append(run)
        for name in columns[1:]:
            found = log.hparams[run].get(name) if name in names else metrics[run].get(name)
            rows[name].append(found)
    return EventTable("hparams", columns, (rows,) if runs else ())


def _last_values(log: EventLog) -> dict[tuple[str, str], float]:
    """The last value of each scalar tag of each run, by ``(run, tag)``."""
    return {key: t.last_value for key, t in log.tags.items() if t.last_value is not None}


def _metrics(log: EventLog, run: str, last: dict[tuple[str, str], float]) -> dict[str, float]:
    """The last value of each scalar tag of ``run`` and of the runs below it (named
    ``group/tag`` for those), or of those the run's experiment names."""
    below = run + "/" if run != "." else ""
    found: dict[str, float] = {}
    for (name, tag), value in last.items():
        if name == run:
            found[tag] = value
        elif name.startswith(below):
            found[f"{name[len(below) :]}/{tag}"] = value
    named = log.metric_names.get(run)
    if named:
        wanted = [f"{g}/{t}" if g else t for g, t in named]
        return {m: found[m] for m in wanted if m in found}
    return found


_MAKERS = {"scalars": scalar_table, "histograms": histogram_table, "hparams": hparams_table}


@dataclass(frozen=True)
class TableReport:
    """A table of a log folder, of ``runs``: kept in ``table``, or written to
    ``output`` (``written`` rows; the scalars are then not kept, their table empty);
    ``damaged`` records could not be read, ``flagged`` ones were read although their
    CRC is wrong."""

    table: EventTable
    runs: tuple[str, ...]
    output: str = ""
    damaged: int = 0
    written: int = 0  # rows written to ``output``
    flagged: int = 0

    @property
    def rows(self) -> int:
        return self.written if self.output else self.table.rows

    def to_json(self) -> dict[str, Any]:
        """``{table, rows, runs, columns, output, damaged, flagged}``."""
        return {
            "table": self.table.name,
            "rows": self.rows,
            "runs": list(self.runs),
            "columns": list(self.table.columns),
            "output": self.output or None,
            "damaged": self.damaged,
            "flagged": self.flagged,
        }

    def to_text(self) -> str:
        from ..core.text import plural

        where = f" to {self.output}" if self.output else ""
        return (
            f"wrote {plural(self.rows, 'row')} of {self.table.name} of "
            f"{plural(len(self.runs), 'run')}{where}"
        )


@dataclass(frozen=True)
class TableRequest:
    """The table ``table`` (scalars, histograms or hparams) of the dataset's event
    files; written to ``output`` (CSV, JSON, JSON lines or Parquet by its suffix,
    through the output layer) when given."""

    table: str = "scalars"
    output: str = ""
    overwrite: bool = False
    inputs: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.table not in _MAKERS:
            raise UserError(f"no table {self.table!r}: the tables are {', '.join(TABLES)}")
        if self.output:
            from ..core.write.table_file import table_format

            table_format(self.output)  # a name of no format, before any reading

    def run(self, ds: Dataset, state: TaskState = QUIET) -> TableReport:
        from ..core.write.table_file import TableTarget
        from .event_log import read_log

        if not self.output:
            read = read_log(ds, state, scalars=self.table == "scalars")
            table = _MAKERS[self.table](read.log)
            return TableReport(
                table, tuple(read.log.runs()), "", read.damaged, flagged=len(read.flagged)
            )
        inputs = [*(f.path for f in ds.files), *self.inputs]
        from ..core.write.output import check_target, input_ids

        check_target(self.output, input_ids(inputs), self.overwrite)  # before any reading

        def target(columns: Sequence[str]) -> TableTarget:
            return TableTarget(self.output, columns, inputs=inputs, overwrite=self.overwrite)

        return self._written(ds, state, target)

    def to_stream(self, ds: Dataset, out: IO[str], state: TaskState = QUIET) -> TableReport:
        """The table written to the text stream ``out`` as CSV, as it is read."""
        from ..core.write.table_file import TableWriter

        @contextmanager
        def target(columns: Sequence[str]) -> Iterator[TableWriter]:
            writer = TableWriter("csv", columns, out=out)
            yield writer
            writer.close()

        return self._written(ds, state, target)

    def _written(
        self,
        ds: Dataset,
        state: TaskState,
        target: Callable[[Sequence[str]], AbstractContextManager[Sink]],
    ) -> TableReport:
        """The table written to the sink ``target`` opens for its columns: the scalars
        as they are read (never all in memory), the other tables once read."""
        from .event_log import read_log

        if self.table != "scalars":
            read = read_log(ds, state, scalars=False)
            table = _MAKERS[self.table](read.log)
            with target(table.columns) as sink:
                for block in table.blocks:
                    sink.write(block)
        else:
            with target(SCALAR_COLUMNS) as sink:

                def write(log: EventLog) -> None:
                    chunk = log.scalars.take()
                    if len(chunk):
                        sink.write(scalar_block(chunk))

                read = read_log(ds, state, each_block=write)
            table = EventTable("scalars", SCALAR_COLUMNS)
        runs = tuple(read.log.runs())
        return TableReport(table, runs, self.output, read.damaged, sink.rows, len(read.flagged))


class Sink(Protocol):
    """Where a table's blocks go, counting its rows."""

    @property
    def rows(self) -> int: ...

    def write(self, block: Mapping[str, Column]) -> None: ...
