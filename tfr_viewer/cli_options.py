"""The options several commands of :mod:`.cli` share, added to their sub-parsers."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any


def add_paths(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH", help="file, glob, folder or name@N")
    add_no_cache(p)


def add_no_cache(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="neither read nor write the persistent index cache",
    )


class VersionAction(argparse.Action):
    """``--version``: the app's version and those of its libraries, one per line."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:  # noqa: ANN001
        from .versions import version_text

        print(version_text())
        parser.exit()


def add_output_options(p: argparse.ArgumentParser) -> None:
    """How new TFRecord files are written: compression, shards, shuffle, split."""
    p.add_argument("--compression", default="none", help="none, gzip or zlib")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--shards", type=int, metavar="N", help="split into N files")
    group.add_argument("--max-shard-mb", type=float, metavar="M", help="at most M MB a file")
    p.add_argument("--shuffle", type=int, metavar="SEED", help="shuffle with this seed")
    p.add_argument("--split", metavar="NAME=FRAC,...", help="e.g. train=0.8,val=0.2")


def add_overwrite(p: argparse.ArgumentParser) -> None:
    p.add_argument("--overwrite", action="store_true", help="replace outputs that exist already")


class Skipped:
    """Stands in for the sub-parser of a command that is not being run."""

    def add_argument(self, *args: object, **kwargs: object) -> None:
        pass

    def add_mutually_exclusive_group(self, *args: object, **kwargs: object) -> Skipped:
        return self


def format_names() -> Sequence[str]:
    from .core.write.writers import NAMES

    return NAMES


def add_jobs(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="N processes on this machine, one split of the shards at a time (default: one "
        "per core from 1 GB of local data on, else 1)",
    )


def add_runner(p: Any) -> None:
    p.add_argument(
        "--runner",
        choices=["direct", "dataflow", "flink", "spark"],
        help="run as an Apache Beam pipeline (tfr-viewer[beam]); other --key=value options "
        "are passed to the pipeline",
    )
