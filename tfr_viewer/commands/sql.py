"""``sql QUERY [PATH ...] [--as NAME=PATH ...]``: a SQL query over datasets with DuckDB
(:mod:`..app.sql`): the PATHs as the table ``records`` (a TFDS folder's splits as tables
of their own), each ``--as`` as the table it names. The result as a table of text, as
``--json`` or ``--csv``, or written to ``-o FILE`` (``.csv``, ``.json``, ``.jsonl``,
``.parquet``) through the output layer. A query that cannot run is one line and exit 2."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..cli_options import CommandSpec, add_overwrite, add_reading_options
from ..errors import EXIT_OK, UsageError

if TYPE_CHECKING:
    from ..app.sql import SqlReport


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("query", metavar="QUERY", help='the query, e.g. "SELECT count(*) FROM records"')
    p.add_argument(
        "paths", nargs="*", metavar="PATH", help="the table records: file, glob, folder or name@N"
    )
    p.add_argument(
        "--as",
        dest="tables",
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="the dataset at PATH as the table NAME (again for more tables)",
    )
    p.add_argument("--json", action="store_true", help="the result as JSON")
    p.add_argument("--csv", action="store_true", help="the result as CSV on standard output")
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        default="",
        help="write the result to FILE (.csv, .json, .jsonl or .parquet)",
    )
    p.add_argument(
        "--html",
        metavar="FILE",
        default="",
        help="also write the self-contained HTML report of the query and its result",
    )
    add_overwrite(p)
    p.add_argument(
        "--memory",
        metavar="LIMIT",
        default=None,
        help="DuckDB's memory for the query (default 2GB; e.g. 500MB, 8GB)",
    )
    add_reading_options(p)


def _named(args: argparse.Namespace) -> dict[str, list[str]]:
    """The tables' paths by name: the PATHs as ``records``, then each ``--as``."""
    out: dict[str, list[str]] = {}
    if args.paths:
        out["records"] = list(args.paths)
    for given in args.tables:
        name, sep, path = given.partition("=")
        if not sep or not name.isidentifier() or not path:
            raise UsageError(
                f"--as {given}: give NAME=PATH, NAME a name of letters, digits and _ "
                "(e.g. --as val=data/val-*.tfrecord)"
            )
        out.setdefault(name, []).append(path)
    if not out:
        raise UsageError("give the dataset: PATH ... (the table records) or --as NAME=PATH")
    return out


def run(args: argparse.Namespace) -> int:
    from contextlib import ExitStack

    from ..app.sql import run_sql
    from ..core.io import Dataset
    from .progress import COMMAND_LINE

    named = _named(args)
    if args.csv and (args.json or args.output):
        raise UsageError("--csv writes the result on standard output: give it without "
                         f"{'--json' if args.json else '-o'}")  # fmt: skip
    with ExitStack() as stack:
        datasets = {n: stack.enter_context(Dataset.open(p)) for n, p in named.items()}
        inputs = [f.path for ds in datasets.values() for f in ds.files]
        if args.html:
            from .reports import refuse_early

            refuse_early([args.html], inputs, args.overwrite)
        report = run_sql(args.query, datasets, COMMAND_LINE, memory_limit=args.memory)
    if args.html:
        from ..core.report.sql_report import sql_html
        from .reports import write_report

        write_report(args.html, sql_html(report.to_json()), inputs, args.overwrite)
    if args.output:
        rows = _write(report, args.output, inputs, args.overwrite)
        if args.json:
            _print_json(
                {
                    "output": args.output,
                    "rows": rows,
                    "columns": report.columns(),
                    "warnings": list(report.warnings),
                }  # fmt: skip
            )
        else:
            print(f"{rows:,} rows written to {args.output}", file=sys.stderr)
    elif args.json:
        _print_json(report.to_json())
    elif args.csv:
        from ..core.write.table_file import TableWriter

        writer = TableWriter("csv", [n for n, _ in report.columns()], out=sys.stdout)
        writer.write(_cells(report, "csv"))
        writer.close()
    else:
        for line in report.lines():
            print(line)
        print(f"({report.table.num_rows:,} rows, {report.seconds:.2f} s)", file=sys.stderr)
    if not args.json:
        for warning in report.warnings:
            print(f"warning: {warning}", file=sys.stderr)
    return EXIT_OK


def _print_json(obj: Any) -> None:
    from ..core.json_text import dump

    dump(obj, sys.stdout, indent=None)
    sys.stdout.write("\n")


def _write(report: SqlReport, target: str, inputs: list[str], overwrite: bool) -> int:
    """The result written to ``target`` through the output layer; its rows."""
    from ..core.write.table_file import table_format

    fmt = table_format(target)
    if fmt == "parquet":
        import pyarrow.parquet as pq

        from ..core.write.output import OutputJob

        with OutputJob.over(inputs, overwrite) as job:
            job.plan(target)
            pq.write_table(report.table, job.temporary(target))
            job.commit()
        return int(report.table.num_rows)
    from ..core.write.table_file import write_table

    names = [n for n, _ in report.columns()]
    return write_table(target, names, [_cells(report, fmt)], inputs=inputs, overwrite=overwrite)


def _cells(report: SqlReport, fmt: str) -> dict[str, list[Any]]:
    """The result's values by column, as the format ``fmt`` holds them."""
    from ..core.analyze.sql_values import cell

    schema = report.table.schema
    return {
        name: [
            _flat(cell(v, schema.field(i).type), fmt) for v in report.table.column(i).to_pylist()
        ]
        for i, (name, _) in enumerate(report.columns())
    }


def _flat(value: Any, fmt: str) -> Any:
    """A JSON value as a CSV cell holds it: text as it is, bytes as their text (or
    ``base64:...``), lists and structs as their JSON; JSON formats keep it."""
    if fmt != "csv" or value is None or isinstance(value, (str, int, float)):
        return value
    if isinstance(value, dict) and "size" in value and len(value) == 2:
        return value["text"] if "text" in value else "base64:" + value["base64"]
    from ..core.json_text import dumps

    return dumps(value)


COMMANDS = {"sql": CommandSpec(_arguments, run, listed="paths")}
