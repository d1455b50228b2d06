"""What the commands of :mod:`.cli` share: the :class:`CommandSpec` each command module
gives for each of its commands, the options several commands take, and :class:`Runs`,
where a batch command's split work runs (``--jobs``, ``--runner``) and on how many
processes."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from .core.io import Dataset


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


POOL_ITEMS = 1000  # from this many images on, convert without --jobs uses every core


@dataclass(frozen=True)
class Runs:
    """Where a batch command's split work runs: ``jobs`` processes here as ``--jobs``
    asks (None: the command's default), or Beam's ``runner`` with the pipeline's own
    options; ``quiet`` keeps notes off stderr (the output is JSON).

    How many processes that is on this machine: ``--jobs N``, or by default one per core
    from :data:`~.core.io.split_pool.POOL_BYTES` of local data on (1 for remote data,
    where the transfers bound the work, and for work the disk bounds); never more than
    one per core. More than one runs the command's split work on
    :func:`~.core.io.split_pool.pool_each`. Results do not depend on it."""

    jobs: int | None = None
    runner: str | None = None
    pipeline_args: tuple[str, ...] = ()
    quiet: bool = False

    @classmethod
    def of(cls, args: argparse.Namespace) -> Runs:
        """The runs of a command whose parser has :func:`add_runs`."""
        return cls(args.jobs, args.runner, tuple(args.pipeline_args), args.json)

    def asked(self) -> int | None:
        """``--jobs`` as given (None without it); refused below 1, before any work."""
        from .errors import UsageError

        if self.jobs is not None and self.jobs < 1:
            raise UsageError(f"--jobs {self.jobs}: give 1 or more processes")
        return self.jobs

    def for_items(self, count: int) -> int:
        """The processes for ``count`` local items (the images of ``convert``): one per
        core from :data:`POOL_ITEMS` on, or as ``--jobs`` asks."""
        from .core.io.split_pool import usable_jobs

        asked = self.asked()
        jobs = asked if asked is not None else (usable_jobs(1 << 16) if count >= POOL_ITEMS else 1)
        return self._usable(jobs, asked)

    def for_dataset(self, ds: Dataset, disk_bound: bool = False) -> int:
        """The processes for ``ds`` (with a note on stderr when ``--jobs`` asked for
        more than there are cores, unless the output is JSON). ``disk_bound`` work
        defaults to one process, which reads several files at once on threads:
        processes would only take turns at the disk."""
        from .core.io.remote import is_url
        from .core.io.split_pool import default_jobs

        asked = self.asked()
        if asked is not None:
            jobs = asked
        elif disk_bound or any(is_url(f.path) for f in ds.files):
            jobs = 1
        else:
            jobs = default_jobs(ds.compressed_size())
        return self._usable(jobs, asked)

    def _usable(self, jobs: int, asked: int | None) -> int:
        from .core.io.split_pool import usable_jobs
        from .core.text import plural

        usable = usable_jobs(jobs)
        if asked is not None and usable < asked and not self.quiet:
            print(
                f"tfr-viewer: note: --jobs {asked} runs "
                f"{plural(usable, 'process', 'processes')}, one per core of this machine",
                file=sys.stderr,
            )
        return usable


def add_paths(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH", help="file, glob, folder or name@N")
    add_reading_options(p)


def add_reading_options(p: argparse.ArgumentParser) -> None:
    """How a command reads its datasets: ``--no-cache``, and the message type of
    records that hold a project's own protobuf (:func:`give_message_types`)."""
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="neither read nor write the persistent index cache",
    )
    p.add_argument(
        "--proto",
        metavar="PATH",
        help="read the records as a message type of this .proto file or folder of them "
        "(needs grpcio-tools: the proto extra)",
    )
    p.add_argument(
        "--descriptor-set",
        metavar="FILE",
        help="read the records as a message type of this FileDescriptorSet "
        "(protoc --include_imports --descriptor_set_out=FILE)",
    )
    p.add_argument(
        "--message",
        metavar="NAME",
        help="the message type of the records (its full name); without it, the type "
        "that reads a file's records best is chosen, and said",
    )


@contextlib.contextmanager
def message_types_given(args: argparse.Namespace) -> Iterator[None]:
    """The command's run with its message type given (:func:`give_message_types`) and
    taken back after it (a program that runs commands in turn reads each one's own)."""
    give_message_types(args)
    try:
        yield
    finally:
        if any(getattr(args, n, None) for n in ("proto", "descriptor_set", "message")):
            from .core.decode import message_types

            message_types.give(None)


def give_message_types(args: argparse.Namespace) -> None:
    """The message type ``--proto`` or ``--descriptor-set`` and ``--message`` name, for
    every dataset the command reads (:func:`~.core.decode.message_types.give`); a
    :class:`~.errors.UsageError` for ``--message`` alone or both sources."""
    proto = getattr(args, "proto", None)
    descriptor_set = getattr(args, "descriptor_set", None)
    message = getattr(args, "message", None)
    if proto is None and descriptor_set is None:
        if message is not None:  # one of the messages TensorFlow writes, by name
            from .core.decode import message_types
            from .errors import UsageError

            kind = message_types.built_in_type(message)
            if kind is None:
                raise UsageError(
                    f"--message {message}: give its --proto or --descriptor-set too (the "
                    f"built-in types: {', '.join(message_types.BUILT_IN)})"
                )
            message_types.give(kind)
        return
    if proto is not None and descriptor_set is not None:
        from .errors import UsageError

        raise UsageError("give --proto or --descriptor-set, not both")
    from .core.decode import message_types

    types = message_types.load(proto, descriptor_set)
    message_types.give(types.get(message) if message is not None else types)


class VersionAction(argparse.Action):
    """``--version``: the app's version and those of its libraries, one per line."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
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


def add_html(p: argparse.ArgumentParser, what: str) -> None:
    """``--html FILE``: ``what`` the command reports, also as a page (see
    :mod:`.commands.reports`)."""
    p.add_argument(
        "--html",
        metavar="FILE",
        help=f"also write {what} as one self-contained HTML file (charts and pictures "
        "inline; needs the report extra: matplotlib)",
    )


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
