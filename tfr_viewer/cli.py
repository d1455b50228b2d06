"""The ``tfr-viewer`` command line: argument parsing and dispatch.

Exit codes: 0 success, 1 problems found (``verify``, ``check``), 2 usage error or an
unreadable path. Subcommands never import Qt; only the GUI entry points do, lazily.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import os
import signal
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from .cli_options import CommandSpec, VersionAction, message_types_given
from .errors import EXIT_OK, EXIT_USAGE, UserError

# numpy's BLAS threads are never used here; without this they start, and spin, anyway
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


@dataclass(frozen=True)
class Command:
    """A subcommand as the command line lists it: its one-line help, and the module
    under :mod:`tfr_viewer.commands` whose ``COMMANDS`` gives its arguments and what
    runs it (a :class:`~.cli_options.CommandSpec`), imported only when it is used."""

    help: str
    module: str
    usage: str | None = None


COMMANDS: dict[str, Command] = {
    "info": Command("files, compression, record counts (header pass)", "records"),
    "verify": Command("check every length and payload CRC", "records"),
    "list": Command("one line per record: index, file, offset, length, status", "records"),
    "show": Command(
        "decode one record",
        "decode",
        "tfr-viewer show [-h] [--json] INDEX PATH [PATH ...]  (or PATH ... INDEX)",
    ),
    "cat": Command(
        "the bytes of one record's payload, or of one value of a bytes feature",
        "cat",
        "tfr-viewer cat [-h] [--key KEY] [--value N] [-o FILE] INDEX PATH [PATH ...]",
    ),
    "count": Command("the number of records (that match a filter)", "records"),
    "head": Command("the first N records decoded, like show", "decode"),
    "schema": Command("infer the feature spec", "decode"),
    "stats": Command("statistics of every feature, the classes and the boxes", "analyze"),
    "check": Command("data-quality findings: each with its record, what and what to do", "analyze"),
    "compare": Command("drift per feature, keys in one only, images in both (leakage)", "analyze"),
    "evaluate": Command("COCO-style AP and recall of a model's predictions, per class", "evaluate"),
    "sql": Command(
        "a SQL query over datasets (DuckDB): a table a dataset, a row a record",
        "sql",
        "tfr-viewer sql [-h] QUERY [PATH ...] [--as NAME=PATH] [--json] [-o FILE]",
    ),
    "export": Command("write records (all, or matching a filter) to new files", "write"),
    "convert": Command("make TFRecords from images: class folders, CSV, VOC or COCO", "convert"),
    "recover": Command("write every intact record of damaged input to OUT", "write"),
    "scalars": Command(
        "every scalar point of TensorBoard event files: run, tag, step, wall time, value",
        "event_tables",
    ),
    "histograms": Command(
        "every histogram of TensorBoard event files, a row a bucket", "event_tables"
    ),
    "hparams": Command(
        "the hyperparameters and metrics of each run of TensorBoard event files", "event_tables"
    ),
    "slim": Command(
        "a slimmer copy of TensorBoard event files: tags, plugins, graphs, steps left out",
        "event_slim",
    ),
    "index": Command("build and cache the index of each file", "indexing"),
    "open": Command("open the desktop window", "window"),
    "install-desktop": Command(
        "make .tfrecord files open with this command on a Linux desktop (--uninstall)",
        "desktop",
    ),
}


def commands() -> dict[str, Command]:
    """Every command: :data:`COMMANDS`, then each analysis of the registry
    (:mod:`.app.analyses`) under its name (never in place of a command)."""
    from .app.analyses import ANALYSES

    registered = {a.name: Command(a.help, "analysis") for a in ANALYSES if a.name not in COMMANDS}
    return {**COMMANDS, **registered}


def spec(name: str) -> CommandSpec:
    """Command ``name``'s arguments and runner, importing only its own module."""
    module = importlib.import_module(f".commands.{commands()[name].module}", __package__)
    found: CommandSpec = module.COMMANDS[name]
    return found


def build_parser(only: str | None = None) -> tuple[argparse.ArgumentParser, dict[str, Any]]:
    """The parser, and each command's sub-parser by name. With ``only``, that command's
    alone, with its arguments (building them all would import every command's module, a
    start-up cost that a command run from a script should not pay); without, every
    command is listed with its help, none with its arguments."""
    parser = argparse.ArgumentParser(
        prog="tfr-viewer",
        description="Inspect, verify and edit TensorFlow TFRecord files.",
    )
    parser.add_argument(
        "--version",
        action=VersionAction,
        nargs=0,
        help="show the versions of the app and libraries",
    )
    parser.set_defaults(no_cache=False)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    subs = {}
    for name, command in commands().items():
        if only is None or name == only:
            p = subs[name] = sub.add_parser(name, help=command.help, usage=command.usage)
        if name == only:
            spec(name).arguments(p)
    return parser, subs


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
    return _command_line(argv)[0]


def run() -> NoReturn:
    """The ``tfr-viewer`` program (the console script, ``python -m tfr_viewer`` and the
    bundle): :func:`main`, then the process ends. After a command other than the window,
    it ends as soon as the exit handlers have run and the standard streams are flushed,
    without the interpreter freeing its objects one by one first (a tenth of a short
    command's time, for nothing: the system frees the memory). Every file a command
    writes is closed before the command returns (:mod:`.core.write.output`)."""
    code, command = _command_line(None)
    if command == "open":
        sys.exit(code)  # Qt's objects and settings are saved as they are torn down
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: nothing more to say
            pass
    os._exit(code)


def _command_line(argv: Sequence[str] | None) -> tuple[int, str | None]:
    """:func:`main`'s work: the exit code, and the command that ran (None when none
    did)."""
    _tolerant_streams()
    if getattr(sys, "frozen", False):
        import multiprocessing

        multiprocessing.freeze_support()  # a frozen bundle re-enters here in worker processes
    args_list = list(sys.argv[1:] if argv is None else argv)
    command = args_list[0] if args_list else None
    known = commands()
    parser, subs = build_parser(command if command in known else None)
    if args_list and args_list[0] in ("-h", "--help", "--version"):
        parser.parse_args(args_list)
    if not args_list or args_list[0] not in known:
        # `tfr-viewer [PATH ...]` opens the window, but a mistyped command must not.
        from .core.io import PathError, expand

        try:
            expand([a for a in args_list if not a.startswith("-")])
        except PathError as exc:
            parser.print_usage(sys.stderr)
            word = args_list[0]
            hint = _did_you_mean(word, list(known))
            print(
                f"tfr-viewer: {word!r} is neither a command nor a path ({exc}){hint}",
                file=sys.stderr,
            )
            return EXIT_USAGE, None
        args_list = ["open", *args_list]
        parser, subs = build_parser("open")
    try:
        args, extra = parser.parse_known_args(args_list)
    except SystemExit as exc:
        return int(exc.code or 0) and EXIT_USAGE, None
    own = spec(args.command)
    # Positional words after an option (``show 0 --json FILE``) belong to the list.
    if extra and own.listed is not None:
        vars(args)[own.listed].extend(w for w in extra if not w.startswith("-"))
        extra = [w for w in extra if w.startswith("-")]
    if extra and own.runs and args.runner:
        args.pipeline_args, extra = extra, []  # Beam's own options, passed through
    if extra:
        return _unknown_arguments(subs[args.command], extra), args.command
    if args.no_cache:
        from .core.io import index_cache

        index_cache.turn_off()
    if args.command != "open":  # the window shows it in its status bar
        _warn_fallback()
        _terminate_like_an_interrupt()
    try:
        with message_types_given(args):
            code = own.run(args)
    except BrokenPipeError:
        code = EXIT_OK
    except Terminated:
        print("tfr-viewer: terminated", file=sys.stderr)
        code = 143
    except KeyboardInterrupt:
        print("tfr-viewer: interrupted", file=sys.stderr)
        code = 130
    except UserError as exc:
        print(f"tfr-viewer {args.command}: {exc}", file=sys.stderr)
        code = EXIT_USAGE
    return code, args.command


if __name__ == "__main__":
    run()
