"""``install-desktop``: the pip-installed command registered as the program that opens
TFRecord files (Linux); ``--uninstall`` undoes it."""

from __future__ import annotations

import argparse

from ..cli_options import CommandSpec


def cmd_install_desktop(args: argparse.Namespace) -> int:
    from ..desktop import linux

    if args.uninstall:
        print(linux.describe(linux.uninstall(), installed=False))
    else:
        print(linux.describe(linux.install(), installed=True))
    return 0


def install_desktop_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--uninstall",
        action="store_true",
        help="remove the desktop entry, MIME type and icons install-desktop wrote",
    )


COMMANDS = {
    "install-desktop": CommandSpec(install_desktop_arguments, cmd_install_desktop, listed=None),
}
