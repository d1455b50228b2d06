"""``convert``: make TFRecords from a folder of images (class folders, or flat) or a CSV
of file names and labels."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..cli_options import (
    CommandSpec,
    Runs,
    add_output_options,
    add_overwrite,
    add_reading_options,
    add_runs,
)
from ..core import json_text
from ..core.decode.layouts.registry import DEFAULT_LAYOUT, names as layout_names
from ..core.text import plural
from ..core.write import ExportError
from ..errors import UsageError
from .export_request import export_options
from .progress import TaskProgress

if TYPE_CHECKING:
    from ..core.write.convert_sources import Listing


def _listing(args: argparse.Namespace) -> Listing:
    from ..core.analyze.label_map import read_label_map
    from ..core.write.convert import list_source

    names = None
    if args.label_map:
        names = {name: i for i, name in read_label_map(args.label_map).items()}
    return list_source(
        args.source,
        args.flat,
        args.file_column,
        args.label_column,
        args.image_dir,
        names,
        allow_outside=args.allow_outside,
    )


def _renames(settings: list[str]) -> dict[str, str]:
    out = {}
    for setting in settings:
        key, _, new = setting.partition("=")
        if not key or not new:
            raise UsageError(f"--rename {setting!r}: write KEY=NEW, e.g. image_raw=image")
        out[key] = new
    return out


def _to_images(args: argparse.Namespace) -> int:
    """``convert DATASET -o FOLDER --images [--boxes F]``: what ``export --format images``
    does."""
    from .export_request import ExportRequest
    from .write import run_export

    # export's own arguments beside convert's (which has the rest: boxes, outputs, runs)
    own = {"paths": [args.source], "format": "images", "filter": None, "raw_cells": False}
    return run_export(ExportRequest.of(argparse.Namespace(**{**vars(args), **own})))


def _write_intact(args: argparse.Namespace, name: str, doing: str, **options: Any) -> Any:
    """Every intact record of ``args.source`` through the writer ``name``, with a progress
    line saying ``doing``; returns ``(writer's result, intact records, damaged records)``."""
    from ..core.io import Dataset
    from ..core.write.writers import write
    from .progress import index_with_progress

    with Dataset.open([args.source]) as ds:
        index_with_progress(ds, verify=True)
        records = ds.undamaged(range(len(ds)))
        with TaskProgress(doing, len(records)) as progress:
            result = write(
                name,
                ds,
                records,
                args.output,
                overwrite=args.overwrite,
                progress=progress.update,
                **options,
            )
        return result, len(records), len(ds) - len(records)


def _to_parquet(args: argparse.Namespace) -> int:
    """``convert DATASET -o out.parquet``: one Parquet file of the Examples' features."""
    from ..core.write.parquet import require_pyarrow

    require_pyarrow()  # before reading anything: say at once what to install
    (path, rows, columns), intact, damaged = _write_intact(args, "parquet", "writing Parquet")
    left_out = intact - rows
    if args.json:
        out = {
            "file": path,
            "rows": rows,
            "columns": {k: {"type": a, "list": not scalar} for k, (a, scalar) in columns.items()},
            "not_examples": left_out,
            "skipped_damaged": damaged,
        }
        json_text.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    print(path)
    shown = ", ".join(f"{k} ({a}{'' if scalar else ' list'})" for k, (a, scalar) in columns.items())
    print(f"{plural(rows, 'row')}, {plural(len(columns), 'column')}: {shown}")
    if left_out or damaged:
        damaged_text = plural(damaged, "damaged record")
        print(f"left out: {plural(left_out, 'record')} not Examples, {damaged_text}")
    return 0


def _to_webdataset(args: argparse.Namespace) -> int:
    """``convert DATASET -o shards-%05d.tar --webdataset``."""
    (files, written, without), _, damaged = _write_intact(
        args, "webdataset", "writing shards", per_shard=args.shard_records
    )
    if args.json:
        out = {
            "files": files,
            "samples": written,
            "without_image": without,
            "skipped_damaged": damaged,
        }
        json_text.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    for path in files:
        print(path)
    print(
        f"{plural(written, 'sample')} in {plural(len(files), 'shard')}; "
        f"{plural(without, 'record')} without an image and "
        f"{plural(damaged, 'damaged record')} left out"
    )
    return 0


def cmd_convert(args: argparse.Namespace) -> int:
    """Convert, then print what was written, what was skipped and the checks' summary."""
    from ..app.writing import ConvertReport
    from ..core.write.convert import ConvertOptions, class_order, convert
    from ..core.write.convert_encode import Reencode

    other = args.images or args.webdataset or args.output.lower().endswith(".parquet")
    runs = Runs.of(args)
    if runs.runner and other:
        raise UsageError("--runner makes TFRecords from images; the other conversions run here")
    if (runs.asked() or 1) > 1 and other:
        raise UsageError(
            "--jobs makes TFRecords from images; the other conversions run in one process"
        )
    if args.images:
        return _to_images(args)
    if args.webdataset:
        return _to_webdataset(args)
    if args.output.lower().endswith(".parquet"):
        return _to_parquet(args)
    # every setting is checked before the source is read
    if args.boxes:
        raise UsageError("--boxes goes with --images (TFRecords to image files)")
    if args.max_side is not None and args.jpeg_quality is None:
        raise UsageError("--max-side needs --jpeg-quality: images are only resized when re-encoded")
    try:
        reencode = Reencode(args.jpeg_quality, args.max_side) if args.jpeg_quality else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    options = ConvertOptions(
        export_options(args),
        args.layout,
        _renames(args.rename),
        reencode,
        check=not args.no_check,
        inputs=tuple(p for p in (args.source, args.label_map) if p),
    )
    listing = _listing(args)
    try:
        if runs.runner:
            from ..beam.commands import convert_on_beam

            extra = list(runs.pipeline_args)
            summary = convert_on_beam(listing, options, runs.runner, extra)
        elif (jobs := runs.for_items(len(listing.items))) > 1:
            from ..core.analyze.split_check import check_each
            from ..core.io.split_pool import pool_each
            from ..core.write.convert import convert_each

            with TaskProgress("converting", 0, unit="parts") as progress:
                each = pool_each(jobs, progress.update)
                summary = convert_each(listing, options, each, lambda ds: check_each(ds, each))
        else:
            with TaskProgress("reading images", len(listing.items)) as progress:
                summary = convert(listing, options, progress=progress.update)
    except (ValueError, ExportError) as exc:
        raise UsageError(str(exc)) from None
    if args.shuffle is None and (unmixed := class_order(listing)):  # said of what was written
        print(f"warning: {unmixed}", file=sys.stderr)
    report = ConvertReport(summary, not args.no_check)
    if args.json:
        json_text.dump(report.to_json(), sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    for line in report.skipped_lines():
        print(line, file=sys.stderr)
    print(report.to_text())
    return 0


# -- arguments -----------------------------------------------------------------


def convert_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "source",
        metavar="SRC",
        help="a folder of class folders or of images, a CSV of labels or of boxes, a folder "
        "of Pascal VOC XML, or a COCO JSON; or a TFRecord dataset when OUT ends in .parquet, "
        "or with --images or --webdataset",
    )
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="output file name")
    p.add_argument("--layout", default=DEFAULT_LAYOUT, choices=layout_names(), help="feature keys")
    p.add_argument("--flat", action="store_true", help="SRC is a folder of unlabelled images")
    p.add_argument("--file-column", default="filename", metavar="NAME", help="CSV file column")
    p.add_argument("--label-column", default="label", metavar="NAME", help="CSV label column")
    p.add_argument("--label-map", metavar="PBTXT", help="class ids from this label map")
    p.add_argument("--image-dir", metavar="DIR", help="where a VOC or COCO source's images are")
    p.add_argument(
        "--allow-outside",
        action="store_true",
        help="read files a CSV or an annotation names outside the source's folder (and "
        "--image-dir); by default they are skipped",
    )
    p.add_argument(
        "--rename",
        action="append",
        default=[],
        metavar="KEY=NEW",
        help="write the layout's KEY under the name NEW (repeatable)",
    )
    add_output_options(p)
    p.add_argument(
        "--jpeg-quality",
        type=int,
        metavar="Q",
        help="re-encode every image as a JPEG of this quality (1-100); default: keep the bytes",
    )
    p.add_argument("--max-side", type=int, metavar="PX", help="with re-encoding: shrink to PX")
    p.add_argument(
        "--images",
        action="store_true",
        help="the other way: SRC is a TFRecord dataset, written as image files into the "
        "folder OUT (by class)",
    )
    p.add_argument(
        "--boxes", choices=["voc", "yolo", "coco"], help="with --images: the boxes' format"
    )
    p.add_argument(
        "--webdataset",
        action="store_true",
        help="the other way: SRC is a TFRecord dataset, written as WebDataset tar shards "
        "named by OUT (e.g. shards-%%05d.tar)",
    )
    p.add_argument(
        "--shard-records",
        type=int,
        default=10_000,
        metavar="N",
        help="with --webdataset: records a shard (default 10000)",
    )
    p.add_argument("--no-check", action="store_true", help="skip the data-quality checks")
    add_overwrite(p)
    add_reading_options(p)
    p.add_argument("--json", action="store_true")
    add_runs(p)


COMMANDS = {
    "convert": CommandSpec(convert_arguments, cmd_convert, listed=None, runs=True),
}
