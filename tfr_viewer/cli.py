"""The ``tfr-viewer`` command line: argument parsing and dispatch.

Exit codes: 0 success, 1 problems found (``verify``, ``check``), 2 usage error or an
unreadable path. Subcommands never import Qt; only the GUI entry points do, lazily.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .cli_options import (
    Skipped,
    VersionAction,
    add_jobs,
    add_no_cache,
    add_output_options,
    add_overwrite,
    add_paths,
    add_runner,
    format_names,
)
from .errors import EXIT_OK, EXIT_USAGE, UserError

# numpy's BLAS threads are never used here; without this they start, and spin, anyway
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


class Parser(argparse.ArgumentParser):
    """The command line's parser, with each command's sub-parser by name."""

    commands: dict[str, argparse.ArgumentParser]


def build_parser(only: str | None = None) -> Parser:
    """The parser; ``parser.commands`` maps each command name to its sub-parser. With
    ``only``, the other commands get no sub-parser (building them all costs start-up
    time that a command run from a script should not pay)."""
    parser = Parser(
        prog="tfr-viewer",
        description="Inspect, verify and edit TensorFlow TFRecord files.",
    )
    parser.add_argument(
        "--version",
        action=VersionAction,
        nargs=0,
        help="show the versions of the app and libraries",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def add(name: str, **kwargs: object) -> Any:
        if only is not None and name != only:
            return Skipped()
        return sub.add_parser(name, **kwargs)  # type: ignore[arg-type]

    p = add("info", help="files, compression, record counts (header pass)")
    add_paths(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")

    p = add("verify", help="check every length and payload CRC")
    add_paths(p)
    p.add_argument("--json", action="store_true")
    add_jobs(p)
    add_runner(p)

    p = add("list", help="one line per record: index, file, offset, length, status")
    add_paths(p)
    p.add_argument("--filter", metavar="EXPR", help="keep records matching EXPR (see README)")
    p.add_argument("--limit", type=int, metavar="N", help="stop after N records")
    p.add_argument("--json", action="store_true", help="JSON Lines output")

    p = add(
        "show",
        help="decode one record",
        usage="tfr-viewer show [-h] [--json] INDEX PATH [PATH ...]  (or PATH ... INDEX)",
    )
    p.add_argument(
        "words", nargs="+", metavar="INDEX PATH", help="the global record number and the paths"
    )
    p.add_argument("--json", action="store_true")
    add_no_cache(p)

    p = add("count", help="the number of records (that match a filter)")
    add_paths(p)
    p.add_argument("--filter", metavar="EXPR", help="count records matching EXPR")
    p.add_argument("--json", action="store_true")

    p = add("head", help="the first N records decoded, like show")
    add_paths(p)
    p.add_argument("-n", type=int, default=10, metavar="N", help="how many (default 10)")
    p.add_argument("--json", action="store_true", help="JSON Lines, one show object a line")

    p = add("schema", help="infer the feature spec")
    add_paths(p)
    group = p.add_mutually_exclusive_group()
    group.add_argument("--json", action="store_true", help="figures per key")
    group.add_argument(
        "--python",
        action="store_true",
        help="a feature_description for tf.io.parse_single_example (default)",
    )
    p.add_argument("--sample", type=int, metavar="N", help="look at N records spread evenly")
    group.add_argument(
        "--infer",
        action="store_true",
        help="write the data-QA schema (kinds, presence, value counts, domains) for "
        "`check --schema` to -o FILE",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="where --infer writes the schema")
    add_overwrite(p)

    p = add("stats", help="statistics of every feature, the classes and the boxes")
    add_paths(p)
    p.add_argument("--json", action="store_true", help="all figures as JSON")
    add_jobs(p)
    add_runner(p)

    p = add("check", help="data-quality findings: each with its record, what and what to do")
    add_paths(p)
    p.add_argument("--json", action="store_true", help="the findings as JSON")
    p.add_argument(
        "--fail-on",
        choices=("error", "warning", "info"),
        default="warning",
        help="exit 1 when a finding is at least this severe (default: warning)",
    )
    p.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="list every finding (by default: each kind once with its first records, and "
        "only kinds at --fail-on or above)",
    )
    p.add_argument("--label-map", metavar="PBTXT", help="class ids must be in this label map")
    p.add_argument(
        "--schema", metavar="FILE", help="report records that break this schema (schema --infer)"
    )
    p.add_argument(
        "--quality",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an image-quality threshold: dark, light, odd_aspect_ratio, low_information, "
        "blurry, odd_size_iqr or near_bits (see README)",
    )
    add_jobs(p)
    add_runner(p)

    p = add("compare", help="drift per feature, keys in one only, images in both (leakage)")
    add_paths(p)
    p.add_argument(
        "--against", nargs="+", required=True, metavar="PATH", help="the dataset to compare with"
    )
    p.add_argument(
        "--threshold",
        type=float,
        default=0.1,
        metavar="T",
        help="exit 1 when a feature's drift exceeds T (default 0.1)",
    )
    p.add_argument(
        "--allow-leaks",
        action="store_true",
        help="pass although images are in both datasets (leakage fails by default)",
    )
    p.add_argument("--json", action="store_true", help="all figures as JSON")

    p = add("export", help="write records (all, or matching a filter) to new files")
    add_paths(p)
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="output file name")
    p.add_argument("--filter", metavar="EXPR", help="keep records matching EXPR")
    add_output_options(p)
    p.add_argument(
        "--format",
        default="tfrecord",
        choices=format_names() if only in (None, "export") else (),
        help="tfrecord (default); jsonl, csv, images into the folder OUT, parquet "
        "(tfr-viewer[parquet]), or webdataset tar shards (OUT with %%05d)",
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
    add_jobs(p)
    add_runner(p)

    p = add("convert", help="make TFRecords from images: class folders, CSV, VOC or COCO")
    p.add_argument(
        "source",
        metavar="SRC",
        help="a folder of class folders or of images, a CSV of labels or of boxes, a folder "
        "of Pascal VOC XML, or a COCO JSON; or a TFRecord dataset when OUT ends in .parquet, "
        "or with --images or --webdataset",
    )
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="output file name")
    p.add_argument(
        "--layout", default="tutorial", choices=["tutorial", "odapi", "tfds"], help="feature keys"
    )
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
    add_no_cache(p)
    p.add_argument("--json", action="store_true")
    add_jobs(p)
    add_runner(p)

    p = add("recover", help="write every intact record of damaged input to OUT")
    add_paths(p)
    p.add_argument("-o", "--output", required=True, metavar="OUT")
    p.add_argument("--compression", default="none", help="none, gzip or zlib")
    add_overwrite(p)
    p.add_argument("--json", action="store_true")

    p = add("index", help="build and cache the index of each file")
    add_paths(p)
    p.add_argument(
        "--tfindex",
        action="store_true",
        help="also write PATH.tfindex for the PyTorch tfrecord package (intact records)",
    )
    p.add_argument("--json", action="store_true")

    p = add("open", help="open the desktop window")
    p.add_argument("paths", nargs="*", metavar="PATH")
    p.add_argument("--select", type=int, metavar="N", help="select record N")
    p.add_argument(
        "--screenshot",
        metavar="PNG",
        help="wait for the index and previews, save the window to PNG, exit",
    )
    p.add_argument(
        "--new-instance",
        action="store_true",
        help="open a window in a new process even when the app is already running",
    )
    parser.commands = dict(sub.choices)
    return parser


# command -> (module under tfr_viewer.commands, function); imported only when run
_HANDLERS = {
    "info": ("records", "cmd_info"),
    "verify": ("records", "cmd_verify"),
    "list": ("records", "cmd_list"),
    "show": ("decode", "cmd_show"),
    "head": ("decode", "cmd_head"),
    "count": ("records", "cmd_count"),
    "schema": ("decode", "cmd_schema"),
    "stats": ("analyze", "cmd_stats"),
    "check": ("analyze", "cmd_check"),
    "compare": ("analyze", "cmd_compare"),
    "export": ("write", "cmd_export"),
    "convert": ("convert", "cmd_convert"),
    "recover": ("write", "cmd_recover"),
    "index": ("indexing", "cmd_index"),
    "open": ("window", "cmd_open"),
}


def _handler(command: str) -> Callable[[argparse.Namespace], int]:
    """The function that runs ``command``, importing only its own module."""
    module, name = _HANDLERS[command]
    return getattr(importlib.import_module(f".commands.{module}", __package__), name)


def _did_you_mean(word: str, choices: list[str]) -> str:
    import difflib

    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""


def _unknown_arguments(sub: argparse.ArgumentParser, extra: list[str]) -> int:
    """The sub-command's usage and the closest option for each unknown one; exit 2."""
    options = [o for action in sub._actions for o in action.option_strings]
    sub.print_usage(sys.stderr)
    for word in extra:
        hint = _did_you_mean(word.split("=")[0], options) if word.startswith("-") else ""
        print(f"{sub.prog}: error: unrecognized argument {word!r}{hint}", file=sys.stderr)
    return EXIT_USAGE


def _warn_fallback() -> None:
    """One line on stderr when the compiled core is missing (see ``fast``)."""
    from .core.fast import fallback_warning

    warning = fallback_warning()
    if warning:
        print(f"tfr-viewer: warning: {warning}", file=sys.stderr)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the command's own process so its output jobs clean up."""


def _terminate_like_an_interrupt() -> None:
    """SIGTERM ends a command as Ctrl+C does: every output job discards its temporaries
    on the way out, and the exit code is 143. A forked worker gets the default, at once."""
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return  # an embedding program has its own handler
    owner = os.getpid()

    def handler(signum: int, _frame: object) -> None:
        if os.getpid() != owner:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise Terminated

    try:
        signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: leave the signal as it is
        pass


def _tolerant_streams() -> None:
    """Text that cannot be encoded for the terminal (a file name holding the byte 0xff,
    with a strict UTF-8 stdout) is written with backslash escapes, never an error."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):  # a closed or detached stream: leave it
                pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return the exit code."""
    _tolerant_streams()
    if getattr(sys, "frozen", False):
        import multiprocessing

        multiprocessing.freeze_support()  # a frozen bundle re-enters here in worker processes
    args_list = list(sys.argv[1:] if argv is None else argv)
    command = args_list[0] if args_list else None
    parser = build_parser(command if command in _HANDLERS else None)
    if args_list and args_list[0] in ("-h", "--help", "--version"):
        parser.parse_args(args_list)
    if not args_list or args_list[0] not in _HANDLERS:
        # `tfr-viewer [PATH ...]` opens the window, but a mistyped command must not.
        from .core.io import PathError, expand

        try:
            expand([a for a in args_list if not a.startswith("-")])
        except PathError as exc:
            parser.print_usage(sys.stderr)
            word = args_list[0]
            hint = _did_you_mean(word, list(_HANDLERS))
            print(
                f"tfr-viewer: {word!r} is neither a command nor a path ({exc}){hint}",
                file=sys.stderr,
            )
            return EXIT_USAGE
        args_list = ["open", *args_list]
    try:
        args, extra = parser.parse_known_args(args_list)
    except SystemExit as exc:
        return int(exc.code or 0) and EXIT_USAGE
    # Positional words after an option (``show 0 --json FILE``) belong to the list.
    listed = "words" if hasattr(args, "words") else "paths"
    if extra and isinstance(getattr(args, listed, None), list):
        getattr(args, listed).extend(w for w in extra if not w.startswith("-"))
        extra = [w for w in extra if w.startswith("-")]
    if extra and getattr(args, "runner", None):
        args.pipeline_args, extra = extra, []  # Beam's own options, passed through
    if extra:
        return _unknown_arguments(parser.commands[args.command], extra)
    if getattr(args, "no_cache", False):
        os.environ["TFR_VIEWER_NO_CACHE"] = "1"
    if args.command != "open":  # the window shows it in its status bar
        _warn_fallback()
        _terminate_like_an_interrupt()
    try:
        return _handler(args.command)(args)
    except BrokenPipeError:
        return EXIT_OK
    except Terminated:
        print("tfr-viewer: terminated", file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print("tfr-viewer: interrupted", file=sys.stderr)
        return 130
    except UserError as exc:
        print(f"tfr-viewer {args.command}: {exc}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
