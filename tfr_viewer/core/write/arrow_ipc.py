"""TFRecords to one Arrow IPC file (``.arrow``, also called Feather version 2), through
pyarrow (the optional extra ``tfr-viewer[parquet]``): the same columns as Parquet, one
per feature key (see :mod:`.parquet`), uncompressed so that pandas, Polars, DuckDB and
Hugging Face ``datasets`` can map the file into memory without reading it. Only
Examples flatten to columns; other records are left out, and a dataset without
Examples is refused with a message that says so."""

from __future__ import annotations

from collections.abc import Sequence

from ..io import CancelToken, Dataset
from .output import OutputJob
from .parquet import Columns, Progress, require_pyarrow, write_tables


def export_arrow(
    ds: Dataset,
    records: Sequence[int],
    out: str,
    job: OutputJob,
    *,
    cancel: CancelToken | None = None,
    progress: Progress = None,
) -> tuple[str, int, Columns]:
    """Write ``records`` (intact Examples) of an indexed dataset to ``out`` (a target
    of ``job``) as an Arrow IPC file; returns the path, the rows written and the columns
    (key: arrow type, scalar)."""
    pa = require_pyarrow("Arrow")
    return write_tables(ds, records, out, job, pa.ipc.new_file, cancel=cancel, progress=progress)
