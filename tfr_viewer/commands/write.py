"""``export`` and ``recover``: write subsets to new files (never touching the sources)."""

from __future__ import annotations

import argparse
import sys

import numpy as np

from ..app.filtering import matches
from ..app.writing import ExportRecordsRequest, ExportReport, export_warnings
from ..cli_options import (
    CommandSpec,
    add_output_options,
    add_overwrite,
    add_paths,
    add_runs,
    format_help,
    format_names,
)
from ..core import json_text
from ..core.io import Dataset
from ..core.query import compile_filter, matches_of
from ..core.text import plural
from ..core.write import ExportOptions
from ..core.write.export import export
from ..errors import EXIT_PROBLEMS
from .export_request import ExportRequest, compression
from .progress import COMMAND_LINE, TaskProgress, index_with_progress, warn_about_filter


def _print(report: ExportReport, as_json: bool) -> None:
    """``report`` on stdout, as JSON or as text (its warnings on stderr first)."""
    if as_json:
        print(json_text.dumps(report.to_json(), indent=2))
        return
    for warning in report.warnings or ():
        print(f"warning: {warning}", file=sys.stderr)
    print(report.to_text())


def _export_by_splits(ds: Dataset, request: ExportRequest, jobs: int) -> int:
    """The TFRecord export with its split work on ``--runner`` (Apache Beam) or on
    ``jobs`` processes here (:func:`~..core.write.split_export.export_each`)."""
    from ..core.query.names import resolve_names

    runs, options = request.runs, request.output
    if request.filter:
        compile_filter(request.filter)  # a bad expression is refused before any work
    index_with_progress(ds, verify=False)
    # splits filter by what a bare record column name means in the whole dataset
    expression = resolve_names(ds, request.filter) if request.filter else None
    if runs.runner:  # ExportError: exit 2
        from ..beam.commands import export_on_beam

        summary = export_on_beam(ds, expression, options, runs.runner, list(runs.pipeline_args))
    else:
        from ..core.decode.message_types import worker_setup
        from ..core.io.split_pool import pool_each
        from ..core.write.split_export import export_each

        with TaskProgress("exporting", 0, unit="parts") as progress:
            each = pool_each(jobs, progress.update, worker_setup(ds.message_type))
            summary = export_each(ds, expression, options, each)
    _print(ExportReport.of(ds, summary, request.filter), request.as_json)
    return 0


def _warnings(
    ds: Dataset, written: int, request: ExportRequest, own: tuple[str, ...] = ()
) -> list[str]:
    """The export's warnings: the dataset's (empty files, missing shards), files that are
    not TFRecords, the export's ``own`` (fewer shards than asked), and an output that
    holds no record. Printed on stderr unless the
    output is JSON, which carries them."""
    warnings = list(export_warnings(ds, written, request.filter or request.episodes, own))
    if not request.as_json:
        for warning in warnings:
            print(f"warning: {warning}", file=sys.stderr)
    return warnings


def cmd_export(args: argparse.Namespace) -> int:
    return run_export(ExportRequest.of(args))


def run_export(request: ExportRequest) -> int:
    """``export`` as ``request`` asks: checked already, so nothing here reads arguments."""
    runs = request.runs
    runs.asked()
    with Dataset.open(list(request.paths)) as ds:
        whole = request.format != "tfrecord" or request.episodes is not None  # read here
        jobs = 1 if runs.runner or whole else runs.for_dataset(ds)
        split = bool(runs.runner) or jobs > 1  # the splits verify on their workers
        if request.filter:
            warn_about_filter(ds, request.filter, verify=not split)
        if split:
            return _export_by_splits(ds, request, jobs)
        index_with_progress(ds, verify=True)
        every = np.arange(len(ds), dtype=np.int64)  # without a filter, every record
        records = matches_of(matches(ds, request.filter, COMMAND_LINE)) if request.filter else every
        if request.episodes is not None:
            from ..app.episode_table import episodes_among

            records = episodes_among(ds, records, request.episodes, COMMAND_LINE)
        if request.format != "tfrecord":
            return _export_other(ds, records, request)
        report = ExportRecordsRequest(records, request.output, filter=request.filter).run(
            ds, COMMAND_LINE
        )
        _print(report, request.as_json)
        return 0


def _export_other(ds: Dataset, records: np.ndarray, request: ExportRequest) -> int:
    """``--format`` other than tfrecord: through the registry of writers (and so the
    output layer's checks)."""
    from ..core.write.writers import write, writer

    fmt, out_path = request.format, request.output.out
    intact = ds.undamaged(records).tolist()
    notes: list[str] = []
    with TaskProgress(f"writing {fmt}", len(intact)) as progress:
        result = write(
            fmt,
            ds,
            intact,
            out_path,
            overwrite=request.output.overwrite,
            progress=progress.update,
            notes=notes,
            **request.format_options,
        )
    count = result if isinstance(result, int) else result[1]
    out = {
        "output": out_path,
        "format": fmt,
        "written": count,
        "skipped_damaged": len(records) - len(intact),
        "warnings": _warnings(ds, count, request, tuple(notes)),
    }
    if isinstance(result, tuple) and isinstance(result[0], list):
        out["files"] = result[0]
    print(
        json_text.dumps(out, indent=2)
        if request.as_json
        else f"{out_path}: {count} {writer(fmt).counts}"
    )
    return 0


def cmd_recover(args: argparse.Namespace) -> int:
    """Every intact record to one new file; what was lost is listed with byte offsets.
    Exit 1, writing nothing, when no record is intact."""
    options = ExportOptions(args.output, compression(args.compression), overwrite=args.overwrite)
    with Dataset.open(args.paths) as ds:
        index_with_progress(ds, verify=True)
        problems = ds.problems()
        lost = [{**p.to_json(), "message": p.without_hint()} for p in problems]
        if not args.json:
            for p in problems:
                print(f"lost: {p.without_hint()}")
        if not len(ds.intact()):
            what = "no record is intact" if len(ds) else "no record was found"
            msg = f"{what} ({plural(len(problems), 'problem')}); nothing was written"
            if args.json:
                print(json_text.dumps({"files": [], "records": 0, "lost": lost, "message": msg}))
            print(f"tfr-viewer recover: {msg}", file=sys.stderr)
            return EXIT_PROBLEMS
        summary = export(ds, np.arange(len(ds), dtype=np.int64), options)
        _print(ExportReport(summary, None, tuple(lost)), args.json)
        if not args.json:
            garbage = len(problems) - summary.skipped_damaged
            print(
                f"left out: {plural(summary.skipped_damaged, 'damaged record')} and "
                f"{plural(garbage, 'region')} of bytes that belong to no record "
                f"({plural(len(problems), 'problem')} listed above)"
            )
        return 0


# -- arguments -----------------------------------------------------------------


def export_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p)
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="output file name")
    p.add_argument("--filter", metavar="EXPR", help="keep records matching EXPR")
    p.add_argument(
        "--episodes",
        metavar="EXPR",
        help="keep the robot-learning episodes matching EXPR over the episode table's "
        'columns (len(findings) == 0, len(steps) >= 5, instruction != "")',
    )
    add_output_options(p)
    p.add_argument(
        "--format",
        default="tfrecord",
        choices=format_names(),
        help=format_help(),
    )
    p.add_argument(
        "--raw-cells",
        action="store_true",
        help="with --format csv: write text that starts with = + - @ as it is (by default "
        "a ' goes before it, so that a spreadsheet does not run it as a formula)",
    )
    p.add_argument(
        "--shard-records",
        type=int,
        default=10_000,
        metavar="N",
        help="with --format webdataset: records a shard (default 10000)",
    )
    p.add_argument(
        "--boxes",
        choices=["voc", "yolo", "coco"],
        help="with --format images: write the boxes too (Pascal VOC XML, YOLO text, COCO JSON)",
    )
    add_overwrite(p)
    p.add_argument("--json", action="store_true")
    add_runs(p)


def recover_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p)
    p.add_argument("-o", "--output", required=True, metavar="OUT")
    p.add_argument("--compression", default="none", help="none, gzip or zlib")
    add_overwrite(p)
    p.add_argument("--json", action="store_true")


COMMANDS = {
    "export": CommandSpec(export_arguments, cmd_export, runs=True),
    "recover": CommandSpec(recover_arguments, cmd_recover),
}
