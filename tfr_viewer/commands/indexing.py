"""``index``: build (and cache) the index of each file; ``--tfindex`` also writes the
``.tfindex`` files that the PyTorch ``tfrecord`` package reads for random access."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np

from ..cli_options import CommandSpec, add_paths
from ..core import json_text
from ..core.io import Compression, Dataset, RecordStatus, index_cache
from ..core.io.framing import FRAME_OVERHEAD
from ..core.io.remote import is_url
from ..core.text import plural
from .progress import index_with_progress, print_warnings


def write_tfindex(
    path: str, offsets: np.ndarray, lengths: np.ndarray, inputs: list[str] | None = None
) -> None:
    """One line per record, ``start_offset total_frame_length``, written through the
    output layer (a derived file: replaced when it exists, never over one of ``inputs``)."""
    from ..core.write.output import save_file

    lines = np.char.add(
        np.char.add(offsets.astype(np.uint64).astype(str), " "),
        (lengths.astype(np.uint64) + FRAME_OVERHEAD).astype(str),
    )
    text = "\n".join(lines.tolist()) + "\n" if len(lines) else ""
    save_file(path, text.encode("ascii"), inputs=inputs or [], overwrite=True, role="index")


def cmd_index(args: argparse.Namespace) -> int:
    """Index every file with both CRCs checked; report where each index was kept."""
    with Dataset.open(args.paths) as ds:
        index_with_progress(ds, verify=True)
        print_warnings(ds, args.json)
        files = []
        failed = False
        for f in ds.files:
            source = f.open()
            kept = index_cache.entry_for(f.path) if index_cache.enabled() else None
            entry = str(kept) if kept is not None and kept.exists() else None
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


def _tfindex(f, compression: Compression, inputs: list[str]) -> str | None:
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
    target = f.path + ".tfindex"
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
    p.add_argument("--json", action="store_true")


COMMANDS = {
    "index": CommandSpec(index_arguments, cmd_index),
}
