"""``export`` and ``recover``: write subsets to new files (never touching the sources)."""

from __future__ import annotations

import argparse
import sys

import numpy as np

from ..cli_options import (
    CommandSpec,
    Runs,
    add_output_options,
    add_overwrite,
    add_paths,
    add_runs,
    format_help,
    format_names,
)
from ..core import json_text
from ..core.io import Compression, Dataset
from ..core.query import compile_filter, filter_dataset
from ..core.text import plural
from ..core.write import ExportOptions, parse_split
from ..core.write.export import export
from ..errors import EXIT_PROBLEMS, UsageError
from .jobs import asked_jobs, local_jobs
from .progress import TaskProgress, index_with_progress, warn_about_filter


def _compression(text: str) -> Compression:
    try:
        return Compression.parse(text)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def export_options(args: argparse.Namespace) -> ExportOptions:
    """The export options of a command that takes the output options
    (:func:`~..cli_options.add_output_options`) and ``--overwrite``."""
    try:
        split = parse_split(args.split) if args.split else ()
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    shards, max_mb = args.shards, args.max_shard_mb
    if shards is not None and shards < 1 or max_mb is not None and max_mb <= 0:
        raise UsageError("--shards and --max-shard-mb must be above 0")
    return ExportOptions(
        args.output,
        _compression(args.compression),
        shards,
        int(max_mb * 1e6) if max_mb else None,
        args.shuffle,
        split,
        overwrite=args.overwrite,
    )


def _report(  # noqa: ANN001
    summary, as_json: bool, lost: list | None = None, warnings: list[str] | None = None
) -> None:
    if as_json:
        out = {
            "files": list(summary.files),
            "records": summary.records,
            "bytes": summary.bytes,
            "skipped_damaged": summary.skipped_damaged,
            "seconds": round(summary.seconds, 3),
            "per_file": summary.per_file,
        }
        if lost is not None:
            out["lost"] = lost
        if warnings is not None:
            out["warnings"] = warnings
        print(json_text.dumps(out, indent=2))
        return
    for path, count in summary.per_file.items():
        print(f"{path}: {plural(count, 'record')}")
    print(
        f"{plural(summary.records, 'record')}, {summary.bytes:,} bytes in "
        f"{plural(len(summary.files), 'file')}, "
        f"{plural(summary.skipped_damaged, 'damaged record')} skipped, {summary.seconds:.1f} s"
    )


def _export_by_splits(
    ds: Dataset, options: ExportOptions, args: argparse.Namespace, runs: Runs, jobs: int
) -> int:
    """The TFRecord export with its split work on ``--runner`` (Apache Beam) or on
    ``jobs`` processes here (:func:`~..core.write.split_export.export_each`)."""
    from ..core.query.names import resolve_names

    runner = runs.runner
    if args.format != "tfrecord":
        raise UsageError(f"--runner writes TFRecord files; --format {args.format} runs here")
    if args.filter:
        compile_filter(args.filter)  # a bad expression is refused before any work
    index_with_progress(ds, verify=False)
    # splits filter by what a bare record column name means in the whole dataset
    expression = resolve_names(ds, args.filter) if args.filter else None
    if runner:  # ExportError: exit 2
        from ..beam.commands import export_on_beam

        summary = export_on_beam(ds, expression, options, runner, list(runs.pipeline_args))
    else:
        from ..core.io.split_pool import pool_each
        from ..core.write.split_export import export_each

        with TaskProgress("exporting", 0, unit="parts") as progress:
            summary = export_each(ds, expression, options, pool_each(jobs, progress.update))
    _report(summary, args.json, warnings=_warnings(ds, summary.records, args, summary.warnings))
    return 0


def _warnings(
    ds: Dataset, written: int, args: argparse.Namespace, own: tuple[str, ...] = ()
) -> list[str]:
    """The export's warnings: the dataset's (empty files, missing shards), files that are
    not TFRecords, the export's ``own`` (fewer shards than asked), and an output that
    holds no record. Printed on stderr unless the
    output is JSON, which carries them."""
    warnings = ds.file_warnings() + list(own)
    if not written:
        what = "no intact record matches the filter" if args.filter else "no record is intact"
        warnings.append(f"{what}, so the output holds none")
    if not args.json:
        for warning in warnings:
            print(f"warning: {warning}", file=sys.stderr)
    return warnings


def cmd_export(args: argparse.Namespace) -> int:
    options = export_options(args)
    runs = Runs.of(args)
    asked_jobs(runs)
    with Dataset.open(args.paths) as ds:
        if args.filter:
            warn_about_filter(ds, args.filter)
        if runs.runner:
            return _export_by_splits(ds, options, args, runs, 1)
        if args.format == "tfrecord" and (jobs := local_jobs(ds, runs)) > 1:
            return _export_by_splits(ds, options, args, runs, jobs)
        index_with_progress(ds, verify=True)
        if args.filter:
            flt = compile_filter(args.filter)
            parts = list(filter_dataset(ds, flt))
            records = np.concatenate(parts) if parts else np.zeros(0, np.int64)
        else:
            records = np.arange(len(ds), dtype=np.int64)
        if args.format != "tfrecord":
            return _export_other(ds, records, args)
        summary = export(ds, records, options)
        _report(summary, args.json, warnings=_warnings(ds, summary.records, args, summary.warnings))
        return 0


def _export_other(ds: Dataset, records: np.ndarray, args: argparse.Namespace) -> int:
    """``--format`` other than tfrecord: through the registry of writers (and so the
    output layer's checks)."""
    from ..core.write.writers import write, writer

    intact = ds.undamaged(records).tolist()
    if args.boxes and args.format != "images":
        raise UsageError("--boxes goes with --format images")
    options = {"boxes": args.boxes} if args.format == "images" else {}
    if args.format == "webdataset":
        options = {"per_shard": args.shard_records or 10_000}
    if args.raw_cells:
        if args.format != "csv":
            raise UsageError("--raw-cells goes with --format csv")
        options = {"raw_cells": True}
    notes: list[str] = []
    with TaskProgress(f"writing {args.format}", len(intact)) as progress:
        result = write(
            args.format,
            ds,
            intact,
            args.output,
            overwrite=args.overwrite,
            progress=progress.update,
            notes=notes,
            **options,
        )
    count = result if isinstance(result, int) else result[1]
    out = {
        "output": args.output,
        "format": args.format,
        "written": count,
        "skipped_damaged": len(records) - len(intact),
        "warnings": _warnings(ds, count, args, tuple(notes)),
    }
    if isinstance(result, tuple) and isinstance(result[0], list):
        out["files"] = result[0]
    print(
        json_text.dumps(out, indent=2)
        if args.json
        else f"{args.output}: {count} {writer(args.format).counts}"
    )
    return 0


def cmd_recover(args: argparse.Namespace) -> int:
    """Every intact record to one new file; what was lost is listed with byte offsets.
    Exit 1, writing nothing, when no record is intact."""
    options = ExportOptions(args.output, _compression(args.compression), overwrite=args.overwrite)
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
        _report(summary, args.json, lost)
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
