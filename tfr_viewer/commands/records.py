"""``info``, ``verify`` and ``list``: the record-level commands of the contract."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

import numpy as np

from ..cli_options import CommandSpec, Runs, add_paths, add_runs
from ..core import json_text
from ..core.io import Dataset, RecordStatus
from ..core.text import plural
from ..errors import EXIT_USAGE, UsageError
from .progress import (
    COMMAND_LINE,
    index_with_progress,
    print_warnings,
    warn_about_filter,
)

if TYPE_CHECKING:
    from ..core.query import Filter, Matched

_KINDS = [s.kind for s in RecordStatus]


def _open(paths: list[str]) -> Dataset:
    return Dataset.open(paths)


def _report_transfer(ds: Dataset) -> None:
    """What reading remote files cost, on stderr (stdout stays the report)."""
    transfer = ds.transfer()
    if transfer is not None:
        print(
            f"transferred {transfer.bytes / 1e6:,.2f} MB in "
            f"{plural(transfer.requests, 'request')} ({transfer.seconds:.2f} s)",
            file=sys.stderr,
        )


def cmd_info(args: argparse.Namespace) -> int:
    """Per file: compression, records, bytes, problems (header pass; payload CRCs
    unchecked); for a folder of several TensorFlow Datasets datasets, what it holds."""
    from ..app.info import info
    from ..core.io.paths import TfdsChoice

    try:
        opened = _open(args.paths)
    except TfdsChoice as choice:
        return _tfds_catalog(choice, args.json)
    with opened as ds:
        report = info(ds, COMMAND_LINE)
        invalid = report.invalid
        if args.json:
            print(json_text.dumps(report.to_json(), indent=2))
        else:
            print_warnings(ds, False, set(invalid))  # those are printed as errors below
            for reason in invalid:
                print(f"tfr-viewer info: {reason}", file=sys.stderr)
            width = max(len(f.path) for f in report.files)
            print(
                f"{'file':<{width}}  {'compression':>11}  {'records':>10}  "
                f"{'bytes':>14}  {'problems':>8}"
            )
            for row in report.files:
                print(
                    f"{row.path:<{width}}  {row.compression:>11}  {row.records:>10}  "
                    f"{row.bytes:>14}  {row.problems:>8}"
                )
            print(
                f"total: {plural(report.records, 'record')} in "
                f"{plural(len(report.files), 'file')}, {plural(report.problems, 'problem')} "
                "(header pass; run `verify` to check payloads)"
            )
            if (tfds := report.tfds) is not None:
                print(f"TFDS {tfds['name']} {tfds['version']}:")
                for split in tfds["splits"]:
                    print(
                        f"  {split['name']}: {plural(split['shards'], 'shard')}, "
                        f"{split['records']:,} records in dataset_info.json, "
                        f"{split['records_found']:,} here, {split['bytes']:,} bytes"
                    )
            if report.events is not None:
                print(report.events.to_text())
            _report_transfer(ds)
        return EXIT_USAGE if invalid else 0


def _tfds_catalog(choice: Any, as_json: bool) -> int:
    """``info`` of a TFDS data folder: each dataset, its versions and its newest
    version's splits (as its ``dataset_info.json`` describes them)."""
    from ..core.io.tfds import read_info

    out = []
    for entry in choice.entries:
        info = read_info(entry.newest())
        splits = [] if info is None else info.splits
        out.append(
            {
                "name": entry.name,
                "folder": entry.folder,
                "versions": list(entry.versions),
                "splits": [
                    {"name": s.name, "records": s.records, "shards": len(s.shard_lengths)}
                    for s in splits
                ],
            }
        )
    if as_json:
        print(json_text.dumps({"folder": choice.folder, "tfds_datasets": out}, indent=2))
        return 0
    print(f"{choice.folder}: TensorFlow Datasets, {plural(len(out), 'dataset')}")
    for item in out:
        versions = ", ".join(item["versions"])
        parts = ", ".join(f"{s['name']} {s['records']:,}" for s in item["splits"])
        print(f"  {item['name']}  versions {versions}  splits: {parts or 'none described'}")
    print("name one to open it: tfr-viewer info FOLDER/NAME (its newest version)")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Check both CRCs of every record; exit 1 when anything is wrong."""
    from ..app.verify import VerifyReport, verify

    runs = Runs.of(args)
    runs.asked()
    with _open(args.paths) as ds:
        if runs.runner:
            from ..beam.commands import verify_on_beam

            index_with_progress(ds, verify=False)
            verify_on_beam(ds, runs.runner, list(runs.pipeline_args))
            report = VerifyReport.of(ds)
        else:
            report = verify(ds, COMMAND_LINE, runs.for_dataset(ds, disk_bound=True))
        if args.json:
            print(json_text.dumps(report.to_json(), indent=2))
        else:
            print_warnings(ds, False)
            for p in report:
                print(f"{p.kind}: {p.message}")
            verdict = "OK" if not report.failed else plural(len(report), "problem")
            print(f"{plural(len(ds), 'record')} in {plural(len(ds.files), 'file')}: {verdict}")
            _report_transfer(ds)
        return 1 if report.failed else 0


def _compiled(text: str | None) -> Filter | None:
    """The ``--filter`` expression compiled (the query language is loaded only then)."""
    if not text:
        return None
    from ..core.query import compile_filter

    return compile_filter(text)


def cmd_list(args: argparse.Namespace) -> int:
    """One line per record, global index across shards, streamed while scanning."""
    if args.limit is not None and args.limit < 0:
        raise UsageError("--limit must be 0 or more")
    _compiled(args.filter)  # a mistake in it is refused before any read
    with _open(args.paths) as ds:
        shown = print_warnings(ds, args.json)
        if args.filter:
            warn_about_filter(ds, args.filter, verify=args.limit != 0)  # the listing verifies
        if args.limit == 0:
            return 0
        from ..app.filtering import matches

        out = sys.stdout
        left = args.limit
        for found in matches(ds, args.filter, COMMAND_LINE):
            keep = found.keep
            if left is not None:
                keep = keep[:left]
                left -= len(keep)
            out.write(_lines(ds.files[found.file].path, found, keep, args.json))
            if left == 0:
                break
        out.flush()
        ds.refuse_other_files()
        print_warnings(ds, args.json, shown)  # what the scan found (empty files)
        return 0


def _lines(path: str, block: Matched, keep: np.ndarray, as_json: bool) -> str:
    """The output lines of the records at positions ``keep`` of one block, formatted in
    one pass (the file name is the same for all of them)."""
    if not len(keep):
        return ""
    if as_json:
        name = json_text.dumps(path).replace("%", "%%")
        line = f'{{"index": %d, "file": {name}, "offset": %d, "length": %d, "status": "%s"}}\n'
    else:
        line = os.path.basename(path).replace("%", "%%").join(["%d\t", "\t%d\t%d\t%s\n"])
    rows = zip(
        (keep + block.first).tolist(),
        block.offsets[keep].tolist(),
        block.lengths[keep].tolist(),
        [_KINDS[s] for s in block.statuses[keep].tolist()],
        strict=True,
    )
    return "".join([line % row for row in rows])


def cmd_count(args: argparse.Namespace) -> int:
    """The number of whole records (that match): a header pass, or a verifying pass
    through a filter (:mod:`~..app.count`). A fragment (a frame cut short, or one whose
    length cannot be trusted) is not counted: it is a problem, and the exit code is 1."""
    from ..app.count import CountRequest

    _compiled(args.filter)  # a mistake in it is refused before any read
    with _open(args.paths) as ds:
        shown = print_warnings(ds, args.json)
        if args.filter:
            warn_about_filter(ds, args.filter, verify=True)  # a filtered count verifies
        report = CountRequest(args.filter or None).run(ds, COMMAND_LINE)
        print_warnings(ds, args.json, shown)  # what the scan found (empty files, not TFRecords)
        if args.json:
            print(json_text.dumps(report.to_json()))
        else:
            for p in report.problems:
                print(f"{p.kind}: {p.message}", file=sys.stderr)
            print(report.count)
        return 1 if report.failed else 0


# -- arguments -----------------------------------------------------------------


def info_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")


def verify_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p)
    p.add_argument("--json", action="store_true")
    add_runs(p)


def list_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p)
    p.add_argument(
        "--filter",
        metavar="EXPR",
        help="keep records matching EXPR (the filter language: docs/filter-language.md)",
    )
    p.add_argument("--limit", type=int, metavar="N", help="stop after N records")
    p.add_argument("--json", action="store_true", help="JSON Lines output")


def count_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p)
    p.add_argument("--filter", metavar="EXPR", help="count records matching EXPR")
    p.add_argument("--json", action="store_true")


COMMANDS = {
    "info": CommandSpec(info_arguments, cmd_info),
    "verify": CommandSpec(verify_arguments, cmd_verify, runs=True),
    "list": CommandSpec(list_arguments, cmd_list),
    "count": CommandSpec(count_arguments, cmd_count),
}
