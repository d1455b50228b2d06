"""``export``'s arguments, checked once at the boundary: a frozen :class:`ExportRequest`
that the rest of the command reads, so that no helper sees the raw arguments and every
combination a user can get wrong is refused (exit 2) before any file is read."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any

from ..cli_options import Runs
from ..core.io import Compression
from ..core.write import ExportOptions, parse_split
from ..errors import UsageError


def compression(text: str) -> Compression:
    """``--compression``'s value, or a usage error that lists the choices."""
    try:
        return Compression.parse(text)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def export_options(args: argparse.Namespace) -> ExportOptions:
    """The output options of a command that takes them
    (:func:`~..cli_options.add_output_options`) and ``--overwrite``."""
    try:
        split = parse_split(args.split) if args.split else ()
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    shards, max_mb = args.shards, args.max_shard_mb
    if shards is not None and shards < 1 or max_mb is not None and max_mb <= 0:
        raise UsageError("--shards and --max-shard-mb must be above 0")
    return ExportOptions(
        args.output,
        compression(args.compression),
        shards,
        int(max_mb * 1e6) if max_mb else None,
        args.shuffle,
        split,
        overwrite=args.overwrite,
    )


@dataclass(frozen=True)
class ExportRequest:
    """What ``export`` was asked to do: the inputs, the output and its options, the
    format and that format's own options (``boxes``, ``per_shard``, ``raw_cells``), a
    filter, where split work runs, and whether the report is JSON."""

    paths: tuple[str, ...]
    output: ExportOptions
    format: str = "tfrecord"
    filter: str | None = None
    runs: Runs = field(default_factory=Runs)
    as_json: bool = False
    format_options: dict[str, Any] = field(default_factory=dict)
    episodes: str | None = None  # the episode table's filter, choosing episodes

    @classmethod
    def of(cls, args: argparse.Namespace) -> ExportRequest:
        """Check the arguments of ``export`` (or of ``convert --images``, which gives
        the same) and keep them; UsageError names the first that does not fit."""
        fmt = args.format
        if args.boxes and fmt != "images":
            raise UsageError("--boxes goes with --format images")
        if args.raw_cells and fmt != "csv":
            raise UsageError("--raw-cells goes with --format csv")
        runs = Runs.of(args)
        if runs.runner and fmt != "tfrecord":
            raise UsageError(f"--runner writes TFRecord files; --format {fmt} runs here")
        episodes = getattr(args, "episodes", None)
        if episodes is not None:
            if runs.runner:
                raise UsageError("--episodes reads the episodes here; it takes no --runner")
            from ..core.analyze.episode_table import rows_matching

            rows_matching([], episodes)  # a wrong filter before any reading
        own: dict[str, Any] = {}
        if fmt == "images":
            own = {"boxes": args.boxes}
        elif fmt == "webdataset":
            own = {"per_shard": args.shard_records or 10_000}
        elif fmt == "csv" and args.raw_cells:
            own = {"raw_cells": True}
        elif fmt == "tfds":
            options = export_options(args)
            if options.compression is not Compression.NONE or options.max_shard_bytes:
                raise UsageError(
                    "--format tfds writes shards as TFDS does (uncompressed, about 1 GiB "
                    "each, or --shards N a split); drop --compression and --max-shard-mb"
                )
            own = {
                "split": options.split,
                "shuffle": options.shuffle_seed,
                "shards": options.shards,
            }
        return cls(
            tuple(args.paths),
            export_options(args),
            fmt,
            args.filter or None,
            runs,
            bool(args.json),
            own,
            episodes,
        )
