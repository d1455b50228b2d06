"""``scalars``, ``histograms`` and ``hparams``: the tables of a log folder's event
files, every point of every run and tag (:mod:`..app.event_tables`), written to
``-o FILE`` (CSV, JSON, JSON lines or Parquet by its suffix) or, without it, as CSV on
stdout; ``--json`` says what was written."""

from __future__ import annotations

import argparse
import sys

from ..cli_options import CommandSpec, add_overwrite, add_paths
from ..errors import EXIT_OK


def _arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p)
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        default="",
        help="write the table to FILE (.csv, .json, .jsonl or .parquet); CSV on stdout without",
    )
    add_overwrite(p)
    p.add_argument("--json", action="store_true", help="what was written, as JSON")


def _runner(table: str) -> CommandSpec:
    def run(args: argparse.Namespace) -> int:
        from ..app.event_tables import TableRequest
        from ..core.io import Dataset
        from .analysis import print_report
        from .progress import COMMAND_LINE, print_warnings

        request = TableRequest(table, args.output, args.overwrite)
        with Dataset.open(args.paths) as ds:
            if not args.output:
                request.to_stream(ds, sys.stdout, COMMAND_LINE)
                print_warnings(ds, False)
                return EXIT_OK
            report = request.run(ds, COMMAND_LINE)
            print_warnings(ds, args.json)
        print_report(report, args.json)
        return EXIT_OK

    return CommandSpec(_arguments, run)


COMMANDS = {name: _runner(name) for name in ("scalars", "histograms", "hparams")}
