"""``show``, ``head`` and ``schema``: the commands that decode payloads."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from ..cli_options import CommandSpec, add_overwrite, add_paths, add_reading_options
from ..core import json_text
from ..core.decode.record_json import record_json
from ..core.json_text import write_json
from ..core.text import plural, whole_number
from ..errors import UsageError
from .progress import COMMAND_LINE, index_with_progress, print_message_types, print_warnings

if TYPE_CHECKING:
    from ..core.io import Dataset


def show_record(ds: Dataset, index: int) -> dict[str, object]:
    """The contract's ``show --json`` object for global record ``index`` (numeric values
    as numpy arrays: write it with ``write_json``)."""
    from ..core.decode.file_payloads import file_decoder

    payload, status = ds.read_verified(index)
    ref = ds.ref(index)
    within = file_decoder(ds, ref.file_number)
    return record_json(index, ref.file, ref.offset, ref.length, status, payload, within)


def cached_record(index: int, paths: list[str]) -> dict[str, object] | None:
    """``show``'s object for record ``index`` read straight from the index cache (no
    index is built, numpy is not loaded), or None when the cache cannot tell: also when
    the payload's type depends on the rest of its file (it does not name it alone)."""
    from ..core.decode.payloads import certain
    from ..core.io import cached_record, expand

    found = cached_record.find(expand(paths), index)
    if found is None or not certain(found.payload):
        return None
    return record_json(index, found.file, found.offset, found.length, found.status, found.payload)


def _is_number(word: str) -> bool:
    return whole_number(word) is not None and not os.path.exists(word)


def index_and_paths(words: list[str], command: str = "show") -> tuple[int, list[str]]:
    """``INDEX PATH...`` or ``PATH... INDEX``: the record number may come first or last,
    when that is unambiguous (a word that names an existing file is a path). Messages
    name ``command``."""
    if len(words) < 2:
        raise UsageError(f"give a record number and at least one PATH: {command} INDEX PATH...")
    first, last = _is_number(words[0]), _is_number(words[-1])
    if first and last:
        raise UsageError(
            f"both {words[0]!r} and {words[-1]!r} could be the record number; "
            f"write it first: {command} INDEX PATH..."
        )
    if not (first or last):
        raise UsageError(f"no record number given: {command} INDEX PATH... (or PATH... INDEX)")
    index, paths = (int(words[0]), words[1:]) if first else (int(words[-1]), words[:-1])
    if index < 0:
        raise UsageError("INDEX must be 0 or more")
    return index, paths


def _print_record(record: dict[str, object], as_json: bool, indent: int | None) -> None:
    if as_json:
        write_json(record, sys.stdout.write, indent)
        sys.stdout.write("\n")
    else:
        from .render import render_payload

        for line in render_payload(record):
            print(line)


def cmd_show(args: argparse.Namespace) -> int:
    index, paths = index_and_paths(args.words)
    users = args.proto is not None or args.descriptor_set is not None  # the user's type
    record = None if users else cached_record(index, paths)
    if record is not None:
        _print_record(record, args.json, indent=2)
        return 0
    from ..core.io import Dataset

    with Dataset.open(paths) as ds:
        index_with_progress(ds, verify=False, until=index)
        if index >= len(ds):
            raise UsageError(no_record(ds, f"record {index} does not exist"))
        _print_record(show_record(ds, index), args.json, indent=2)
        print_message_types(ds, args.json)
        return 0


def no_record(ds: Dataset, what: str) -> str:
    """The message for a record number past the end, in one line: ``what``, the size
    of the whole scanned dataset, and the reasons when files in it are not TFRecords or
    are empty."""
    reasons = ds.not_tfrecord() or ([] if len(ds) else ds.warnings)
    return "; ".join([f"{what}: the dataset has {plural(len(ds), 'record')}", *reasons])


def cmd_head(args: argparse.Namespace) -> int:
    """The first ``-n`` records as ``show`` gives them; JSON Lines with ``--json``."""
    if args.n < 0:
        raise UsageError("-n must be 0 or more")
    from ..core.io import Dataset

    with Dataset.open(args.paths) as ds:
        if args.n:
            index_with_progress(ds, verify=False, until=args.n - 1)
        for index in range(min(args.n, len(ds))):
            _print_record(show_record(ds, index), args.json, indent=None)
            if not args.json:
                print()
        if len(ds) < args.n:  # every file was scanned: say what held nothing
            print_warnings(ds, args.json)
        else:
            print_message_types(ds, args.json)
        return 0


def cmd_schema(args: argparse.Namespace) -> int:
    if args.sample is not None and args.sample <= 0:
        raise UsageError("--sample must be 1 or more")
    if args.infer:
        from .analyze import infer_schema_file

        return infer_schema_file(args)
    if args.output:
        raise UsageError("-o is for --infer: `schema --infer -o SCHEMA.json PATH...`")
    from ..app.schema import schema
    from ..core.io import Dataset

    with Dataset.open(args.paths) as ds:
        report = schema(ds, COMMAND_LINE, args.sample)
        if args.json:
            print(json_text.dumps(report.to_json(), indent=2))
        else:
            sys.stdout.write(report.python())
        for conflict in report.conflicts():
            print(f"warning: {conflict}", file=sys.stderr)
        return 0


# -- arguments -----------------------------------------------------------------


def show_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "words", nargs="+", metavar="INDEX PATH", help="the global record number and the paths"
    )
    p.add_argument("--json", action="store_true")
    add_reading_options(p)


def head_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p)
    p.add_argument("-n", type=int, default=10, metavar="N", help="how many (default 10)")
    p.add_argument("--json", action="store_true", help="JSON Lines, one show object a line")


def schema_arguments(p: argparse.ArgumentParser) -> None:
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


COMMANDS = {
    "show": CommandSpec(show_arguments, cmd_show, listed="words"),
    "head": CommandSpec(head_arguments, cmd_head),
    "schema": CommandSpec(schema_arguments, cmd_schema),
}
