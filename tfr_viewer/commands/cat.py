"""``cat``: the bytes of one record, as they are in the file: its whole payload (a
serialized Example, for ``protoc --decode_raw`` or a test fixture), or one value of a
bytes feature (``--key image/encoded``: the encoded image, ready to open).

The payload's CRC is checked first: a damaged record's bytes are never written (exit 1,
with the file and byte offset). The bytes go to ``-o FILE`` through the output layer
(never over an input, an existing file only with ``--overwrite``), or to standard
output when it is not a terminal.
"""

from __future__ import annotations

import argparse
import difflib
import sys

from ..cli_options import CommandSpec, add_overwrite, add_reading_options
from ..core.decode import decode, features_of
from ..core.text import plural
from ..errors import EXIT_OK, EXIT_PROBLEMS, UsageError
from .decode import index_and_paths, no_record
from .progress import index_with_progress


def _feature_bytes(payload: bytes, key: str, value: int, where: str) -> bytes:
    """Value number ``value`` of bytes feature ``key`` in ``payload``, as TensorFlow
    parses the record; a UsageError says what is there instead."""
    decoded = decode(payload)
    features = features_of(decoded.payload)
    if features is None:
        raise UsageError(
            f"{where} is not an Example (its payload is {decoded.payload.type}), so it has "
            "no features; without --key, cat writes its whole payload"
        )
    feature = features.get(key)
    if feature is None:
        close = difflib.get_close_matches(key, list(features), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        keys = ", ".join(sorted(features)[:20]) or "none"
        raise UsageError(f"{where} has no feature {key!r}{hint} (its keys: {keys})")
    if feature.kind != "bytes":
        raise UsageError(
            f"feature {key!r} of {where} holds {feature.kind} values, not bytes; "
            "`tfr-viewer show` prints them"
        )
    values = feature.items()
    if not 0 <= value < len(values):
        raise UsageError(
            f"feature {key!r} of {where} holds {plural(len(values), 'value')}; "
            f"--value {value} is not one of them"
        )
    return bytes(values[value])


def cmd_cat(args: argparse.Namespace) -> int:
    index, paths = index_and_paths(args.words, "cat")
    stdout = getattr(sys.stdout, "buffer", None)  # None: text only (an embedding program)
    if args.output is None and (stdout is None or sys.stdout.isatty()):
        where = "the terminal" if stdout is not None else "a text stream"
        raise UsageError(f"the bytes would go to {where}: give -o FILE, or redirect (> FILE)")
    from ..core.io import Dataset, RecordStatus
    from ..core.write.output import save_file

    with Dataset.open(paths) as ds:
        index_with_progress(ds, verify=False, until=index)
        if index >= len(ds):
            raise UsageError(no_record(ds, f"record {index} does not exist"))
        payload, status = ds.read_verified(index)
        ref = ds.ref(index)
        where = f"record {index} ({ref.file}, byte {ref.offset:,})"
        if status is not RecordStatus.OK:
            print(
                f"tfr-viewer: {where} is damaged ({status.kind}): its bytes are not "
                "written; `tfr-viewer recover` saves the intact records",
                file=sys.stderr,
            )
            return EXIT_PROBLEMS
        data = payload if args.key is None else _feature_bytes(payload, args.key, args.value, where)
        if args.output is None:
            assert stdout is not None
            sys.stdout.flush()
            stdout.write(data)
            stdout.flush()
        else:
            save_file(
                args.output, data, inputs=[f.path for f in ds.files], overwrite=args.overwrite
            )
    return EXIT_OK


def cat_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "words", nargs="+", metavar="INDEX PATH", help="the global record number and the paths"
    )
    p.add_argument(
        "--key", metavar="KEY", help="write one value of this bytes feature, not the payload"
    )
    p.add_argument(
        "--value", type=int, default=0, metavar="N", help="with --key: which value (default 0)"
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: stdout)")
    add_overwrite(p)
    add_reading_options(p)


COMMANDS = {"cat": CommandSpec(cat_arguments, cmd_cat, listed="words")}
