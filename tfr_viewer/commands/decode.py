"""``show`` and ``schema``: the commands that decode payloads."""

from __future__ import annotations

import argparse
import json
import sys

from ..core.analyze import infer_schema
from ..core.decode import decode, payload_json
from ..core.io import Dataset
from ..errors import UsageError
from .progress import index_with_progress
from .render import render_payload


def show_record(ds: Dataset, index: int) -> dict[str, object]:
    """The contract's ``show --json`` object for global record ``index``."""
    status = ds.verify_record(index)
    ref = ds.ref(index)
    out: dict[str, object] = {
        "index": index,
        "file": ref.file,
        "offset": ref.offset,
        "length": ref.length,
        "status": status.kind,
    }
    decoded = decode(ds.read(index))
    out.update(payload_json(decoded))
    out["decoder"] = decoded.decoder
    return out


def cmd_show(args: argparse.Namespace) -> int:
    if args.index < 0:
        raise UsageError("INDEX must be 0 or more")
    with Dataset.open(args.paths) as ds:
        index_with_progress(ds, verify=False, until=args.index)
        if args.index >= len(ds):
            raise UsageError(f"record {args.index} does not exist: the dataset has {len(ds)}")
        record = show_record(ds, args.index)
        if args.json:
            print(json.dumps(record, indent=2))
        else:
            for line in render_payload(record):
                print(line)
        return 0


def cmd_schema(args: argparse.Namespace) -> int:
    if args.sample is not None and args.sample <= 0:
        raise UsageError("--sample must be 1 or more")
    with Dataset.open(args.paths) as ds:
        index_with_progress(ds, verify=False)
        records = None
        if args.sample is not None and args.sample < len(ds):
            step = len(ds) / args.sample
            records = sorted({int(i * step) for i in range(args.sample)})
        schema = infer_schema(ds, records)
        if args.json:
            print(json.dumps(schema.to_json(), indent=2))
        else:
            sys.stdout.write(schema.python())
        for conflict in schema.conflicts():
            print(f"warning: {conflict}", file=sys.stderr)
        return 0
