"""``slim``: a slimmer copy of a log folder's event files in a new folder, the same
runs, with tags, plugins, graphs, points or steps left out
(:mod:`..app.event_slim`); ``--json`` says what was written."""

from __future__ import annotations

import argparse

from ..cli_options import CommandSpec, add_overwrite, add_paths
from ..errors import EXIT_OK, UserError


def _steps(text: str) -> tuple[int | None, int | None]:
    """``A:B``, ``A:`` or ``:B`` as the first step kept and the first step not."""
    first, colon, stop = text.partition(":")
    if not colon:
        raise UserError(f"--steps {text}: give the steps as FIRST:STOP, e.g. 0:5000")
    try:
        return (int(first) if first.strip() else None, int(stop) if stop.strip() else None)
    except ValueError:
        raise UserError(
            f"--steps {text}: the steps are whole numbers, as FIRST:STOP (e.g. 1000:, :5000)"
        ) from None


def _arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p)
    p.add_argument(
        "-o", "--output", metavar="FOLDER", required=True, help="the folder the copy's runs go to"
    )
    p.add_argument(
        "--drop-tag",
        action="append",
        default=[],
        metavar="PATTERN",
        help="leave out the tags matching PATTERN (shell pattern, e.g. 'train/*'); repeatable",
    )
    p.add_argument(
        "--drop-plugin",
        action="append",
        default=[],
        metavar="NAME",
        help="leave out every tag of a plugin (images, histograms, text, audio…); repeatable",
    )
    p.add_argument(
        "--drop-graphs",
        action="store_true",
        help="leave out graph definitions and run metadata",
    )
    p.add_argument(
        "--every",
        type=int,
        default=1,
        metavar="N",
        help="keep the first and every Nth point after it of the tags --thin names",
    )
    p.add_argument(
        "--thin",
        action="append",
        default=[],
        metavar="PATTERN",
        help="the tags --every thins (default: every tag); repeatable",
    )
    p.add_argument(
        "--steps",
        default=":",
        metavar="FIRST:STOP",
        help="keep the summaries of steps FIRST (kept) to STOP (not), e.g. 0:5000 or 5000:",
    )
    add_overwrite(p)
    p.add_argument("--json", action="store_true", help="what was written, as JSON")


def _run(args: argparse.Namespace) -> int:
    from ..app.event_slim import SlimRequest
    from ..core.io import Dataset
    from ..core.write.event_slim import SlimRules
    from .analysis import print_report
    from .progress import COMMAND_LINE, print_warnings

    first, stop = _steps(args.steps)
    try:
        rules = SlimRules(
            tuple(args.drop_tag),
            tuple(args.drop_plugin),
            args.drop_graphs,
            args.every,
            tuple(args.thin) or ("*",),
            first,
            stop,
        )
    except ValueError as exc:
        raise UserError(f"slim: {exc}") from None
    request = SlimRequest(args.output, rules, args.overwrite)
    with Dataset.open(args.paths) as ds:
        report = request.run(ds, COMMAND_LINE)
        print_warnings(ds, args.json)
    print_report(report, args.json)
    return EXIT_OK


COMMANDS = {"slim": CommandSpec(_arguments, _run)}
