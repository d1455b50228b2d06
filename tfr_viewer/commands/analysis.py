"""The command of each analysis of the registry (:mod:`..app.analyses`):
``tfr-viewer NAME PATH... [--json] [--OPTION VALUE...]``, one option per field of its
request, the report's text (or ``--json``) on stdout, progress on stderr, exit 1 when
the report failed."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Iterator, Mapping
from typing import Any

from ..app.analyses import Analysis, failed, named
from ..cli_options import CommandSpec, add_paths
from ..errors import EXIT_OK, EXIT_PROBLEMS


def _option(p: argparse.ArgumentParser, field: dataclasses.Field[Any]) -> None:
    """``--FIELD``: typed as the field's default is (a bool one a flag with its
    ``--no-`` form), required without a default, helped by its ``help`` metadata and
    its value named by its ``metavar`` (else the field's name)."""
    flag = "--" + field.name.replace("_", "-")
    helped = field.metadata.get("help")
    has_default = field.default is not dataclasses.MISSING
    default = field.default if has_default else None
    if isinstance(default, bool):
        p.add_argument(
            flag, dest=field.name, action=argparse.BooleanOptionalAction, default=default
        )
        return
    kind = type(default) if isinstance(default, int | float | str) else str
    p.add_argument(
        flag,
        dest=field.name,
        type=kind,
        default=default,
        required=not has_default,
        metavar=field.metadata.get("metavar", field.name.upper()),
        help=helped,
    )


def _arguments(analysis: Analysis, p: argparse.ArgumentParser) -> None:
    add_paths(p)
    p.add_argument("--json", action="store_true", help="the report as JSON")
    for field in analysis.options():
        _option(p, field)


def _run(analysis: Analysis, args: argparse.Namespace) -> int:
    from ..core.io import Dataset
    from .progress import COMMAND_LINE, print_warnings

    options = {f.name: getattr(args, f.name) for f in analysis.options()}
    request = analysis.make_request(options)  # a refused option before any reading
    with Dataset.open(args.paths) as ds:
        report = request.run(ds, COMMAND_LINE)
        print_warnings(ds, args.json)
    print_report(report, args.json)
    return EXIT_PROBLEMS if failed(report) else EXIT_OK


def print_report(report: Any, as_json: bool) -> None:
    """A report on stdout: its JSON with ``--json``, else its text."""
    from ..core import json_text

    if as_json:
        json_text.dump(report.to_json(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(report.to_text())


class _Registered(Mapping[str, CommandSpec]):
    """Each analysis' command, made when it is looked up (the registry may grow after
    this module is imported)."""

    def __getitem__(self, name: str) -> CommandSpec:
        analysis = named(name)
        return CommandSpec(lambda p: _arguments(analysis, p), lambda args: _run(analysis, args))

    def __iter__(self) -> Iterator[str]:
        from ..app.analyses import ANALYSES

        return iter([a.name for a in ANALYSES])

    def __len__(self) -> int:
        from ..app.analyses import ANALYSES

        return len(ANALYSES)


COMMANDS = _Registered()
