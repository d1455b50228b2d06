"""What the commands of :mod:`.cli` share: the :class:`CommandSpec` each command module
gives for each of its commands, the options several commands take, and :class:`Runs`,
where a batch command's split work runs (``--jobs``, ``--runner``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class CommandSpec:
    """One command's own part: ``arguments(parser)`` adds its arguments to its
    sub-parser, ``run(args)`` runs it and returns the exit code. ``listed`` names the
    positional list that words found after the options join (``show 0 --json FILE``;
    None: the command takes no list);
    ``runs`` when it takes ``--jobs`` and ``--runner`` (and passes unknown
    ``--key=value`` options on to a Beam pipeline)."""

    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    listed: Literal["paths", "words"] | None = "paths"
    runs: bool = False


@dataclass(frozen=True)
class Runs:
    """Where a batch command's split work runs: ``jobs`` processes here as ``--jobs``
    asks (None: the command's default), or Beam's ``runner`` with the pipeline's own
    options; ``quiet`` keeps notes off stderr (the output is JSON)."""

    jobs: int | None = None
    runner: str | None = None
    pipeline_args: tuple[str, ...] = ()
    quiet: bool = False

    @classmethod
    def of(cls, args: argparse.Namespace) -> Runs:
        """The runs of a command whose parser has :func:`add_runs`."""
        return cls(args.jobs, args.runner, tuple(args.pipeline_args), args.json)


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


def format_names() -> Sequence[str]:
    from .core.write.writers import NAMES

    return NAMES


def format_help() -> str:
    """``--format``'s help, from the registry of writers (``%`` escaped for argparse)."""
    from .core.write.writers import formats_help

    return formats_help().replace("%", "%%")


def add_runs(p: argparse.ArgumentParser) -> None:
    """``--jobs`` and ``--runner`` (read back with :meth:`Runs.of`)."""
    p.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="N processes on this machine, one split of the shards at a time (default: one "
        "per core from 1 GB of local data on, else 1)",
    )

    p.add_argument(
        "--runner",
        choices=["direct", "dataflow", "flink", "spark"],
        help="run as an Apache Beam pipeline (tfr-viewer[beam]); other --key=value options "
        "are passed to the pipeline",
    )
    p.set_defaults(pipeline_args=[])
