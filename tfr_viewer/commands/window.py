"""``open`` (and ``tfr-viewer PATH``): the window; Qt is imported only here."""

from __future__ import annotations

import argparse

from ..cli_options import CommandSpec
from ..errors import UsageError


def cmd_open(args: argparse.Namespace) -> int:
    """The GUI; Qt is imported only here."""
    if args.select is not None and args.select < 0:
        raise UsageError("--select must be 0 or more")
    if args.screenshot and not args.paths:
        raise UsageError("--screenshot needs a PATH to open")
    if args.screenshot:  # refused before the window opens, and again when written
        from ..core.io import expand
        from ..core.write.output import check_target, input_ids

        check_target(args.screenshot, input_ids(expand(args.paths)), True, role="screenshot")
    from .qt_libraries import missing, missing_message, needs_x11

    if needs_x11():  # said in one line, before Qt aborts on them
        import ctypes

        lacking = missing(ctypes.CDLL)
        if lacking:
            raise UsageError(missing_message(lacking))
    if args.paths:  # the child that indexes them starts while Qt is imported
        from ..ui.standby import prestart

        prestart()
    from ..ui.app import run

    return run(args.paths, args.select, args.screenshot, args.new_instance)


# -- arguments -----------------------------------------------------------------


def open_arguments(p: argparse.ArgumentParser) -> None:
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


COMMANDS = {
    "open": CommandSpec(open_arguments, cmd_open),
}
