"""``index``: build (and cache) the index of each file; ``--tfindex`` also writes the
``.tfindex`` files that the PyTorch ``tfrecord`` package and NVIDIA DALI read for random
access; ``--check IDX`` checks such an index against its file."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

import numpy as np

from ..cli_options import CommandSpec, add_paths
from ..core import json_text
from ..core.io import Compression, Dataset, RecordStatus, index_cache
from ..core.io.remote import is_url
from ..core.text import plural
from ..errors import UsageError
from .progress import index_with_progress, print_warnings

if TYPE_CHECKING:
    from ..core.io.dataset import DatasetFile


def write_tfindex(
    path: str, offsets: np.ndarray, lengths: np.ndarray, inputs: list[str] | None = None
) -> None:
    """The ``.tfindex`` of the records (:mod:`..core.io.tfindex`), written through the
    output layer (a derived file: replaced when it exists, never over one of ``inputs``)."""
    from ..core.io.tfindex import index_text
    from ..core.write.output import save_file

    text = index_text(offsets, lengths)
    save_file(path, text.encode("ascii"), inputs=inputs or [], overwrite=True, role="index")


def check_index_file(args: argparse.Namespace) -> int:
    """``index --check IDX PATH``: exit 0 when the index fits its file, 1 when not."""
    from ..core.io.side_files import SideFileError, read_side_file
    from ..core.io.tfindex import MAX_INDEX_FILE, check_index

    if len(args.paths) != 1:
        raise UsageError("--check IDX takes the one TFRecord file the index is of")
    try:
        raw = read_side_file(args.check, "index", MAX_INDEX_FILE)
    except SideFileError as exc:
        raise UsageError(str(exc)) from None
    if not raw.isascii():  # read line by line below, never copied whole
        raise UsageError(f"{args.check} is not a text index ('offset size' lines)")
    with Dataset.open(args.paths) as ds:
        if len(ds.files) != 1:
            raise UsageError("--check IDX takes one TFRecord file; this path names several")
        index_with_progress(ds, verify=True)
        f = ds.files[0]
        if f.open().compression is not Compression.NONE:
            raise UsageError(
                f"{f.path} is compressed: an index gives offsets in a plain file, which "
                "readers seek in; decompress it first (tfr-viewer export --compression none)"
            )
        keep = f.index.statuses() == RecordStatus.OK
        problems = check_index(raw, f.index.offsets()[keep], f.index.lengths()[keep])
        records = int(keep.sum())
    if args.json:
        out = {
            "index": args.check,
            "path": f.path,
            "records": records,
            "valid": not problems,
            "problems": [p.to_json() for p in problems],
        }
        print(json_text.dumps(out, indent=2))
    else:
        for p in problems:
            print(f"{args.check}: {p.message}")
        verdict = "fits" if not problems else "does not fit"
        print(f"{args.check} {verdict} {f.path} ({plural(records, 'intact record')})")
    return 0 if not problems else 1


def cmd_index(args: argparse.Namespace) -> int:
    """Index every file with both CRCs checked; report where each index was kept."""
    if args.check:
        return check_index_file(args)
    with Dataset.open(args.paths) as ds:
        index_with_progress(ds, verify=True)
        print_warnings(ds, args.json)
        files = []
        failed = False
        for f in ds.files:
            source = f.open()
            kept = index_cache.kept(f.path)
            entry = None if kept is None else str(kept)
            item: dict[str, Any] = {
                "path": f.path,
                "records": len(f.index),
                "problems": f.index.problem_count(),
                "cache": entry,
            }
            if args.tfindex:
                item["tfindex"] = _tfindex(f, source.compression, [g.path for g in ds.files])
                failed = failed or item["tfindex"] is None
            files.append(item)
        if args.json:
            print(json_text.dumps({"records": len(ds), "files": files}, indent=2))
        else:
            for item in files:
                where = item["cache"] or "not cached (small file, or --no-cache)"
                line = f"{item['path']}: {plural(item['records'], 'record')}, index {where}"
                if item.get("tfindex"):
                    line += f", tfindex {item['tfindex']}"
                print(line)
        return 1 if failed else 0


def _tfindex(f: DatasetFile, compression: Compression, inputs: list[str]) -> str | None:
    """Write ``PATH.tfindex`` listing the intact records; None (with a message) when it
    cannot be used or written."""
    if compression is not Compression.NONE:
        print(
            f"tfr-viewer index: {f.path}: no .tfindex for a {compression.value.upper()} file: "
            "the tfrecord package seeks in the file itself, so decompress it first "
            "(tfr-viewer export --compression none)",
            file=sys.stderr,
        )
        return None
    if is_url(f.path):
        print(
            f"tfr-viewer index: {f.path}: a .tfindex is written next to a local file; "
            "download the file, or write the index of a local copy and upload it",
            file=sys.stderr,
        )
        return None
    statuses = f.index.statuses()
    keep = statuses == RecordStatus.OK
    target: str = f.path + ".tfindex"
    try:
        write_tfindex(target, f.index.offsets()[keep], f.index.lengths()[keep], inputs)
    except OSError as exc:
        print(f"tfr-viewer index: {target}: cannot write ({exc.strerror or exc})", file=sys.stderr)
        return None
    if not keep.all():
        print(
            f"warning: {f.path}: {plural(int((~keep).sum()), 'damaged record')} left out of "
            f"{target}",
            file=sys.stderr,
        )
    return target


# -- arguments -----------------------------------------------------------------


def index_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p)
    p.add_argument(
        "--tfindex",
        action="store_true",
        help="also write PATH.tfindex for the PyTorch tfrecord package (intact records)",
    )
    p.add_argument(
        "--check",
        metavar="IDX",
        help="check an existing index (PyTorch tfrecord or NVIDIA DALI, 'offset size' "
        "lines) against the one file PATH: exit 0 when it fits, 1 when not",
    )
    p.add_argument("--json", action="store_true")


COMMANDS = {
    "index": CommandSpec(index_arguments, cmd_index),
}
