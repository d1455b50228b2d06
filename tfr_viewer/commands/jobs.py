"""How many processes a batch command runs on this machine: ``--jobs N``, or by default
one per core from :data:`~..core.io.split_pool.POOL_BYTES` of local data on (1 for
remote data, where the transfers bound the work, and for work the disk bounds). More
than one runs the command's split work on :func:`~..core.io.split_pool.pool_each`.
Results do not depend on it."""

from __future__ import annotations

import sys

from ..cli_options import Runs
from ..core.io import Dataset
from ..core.io.remote import is_url
from ..core.io.split_pool import default_jobs, usable_jobs
from ..core.text import plural
from ..errors import UsageError


def asked_jobs(runs: Runs) -> int | None:
    """``--jobs`` as given (None without it); refused below 1, before any work."""
    asked = runs.jobs
    if asked is not None and asked < 1:
        raise UsageError(f"--jobs {asked}: give 1 or more processes")
    return asked


POOL_ITEMS = 1000  # from this many images on, convert without --jobs uses every core


def item_jobs(count: int, runs: Runs) -> int:
    """The processes to run for ``count`` local items (the images of ``convert``): one
    per core from :data:`POOL_ITEMS` on, or as ``--jobs`` asks (at most one per core)."""
    asked = asked_jobs(runs)
    jobs = asked if asked is not None else (usable_jobs(1 << 16) if count >= POOL_ITEMS else 1)
    return _usable(jobs, asked, runs)


def _usable(jobs: int, asked: int | None, runs: Runs) -> int:
    usable = usable_jobs(jobs)
    if asked is not None and usable < asked and not runs.quiet:
        print(
            f"tfr-viewer: note: --jobs {asked} runs {plural(usable, 'process', 'processes')}, "
            "one per core of this machine",
            file=sys.stderr,
        )
    return usable


def local_jobs(ds: Dataset, runs: Runs, disk_bound: bool = False) -> int:
    """The processes to run for ``ds``: at most one per core (with a note on stderr when
    ``--jobs`` asked for more, unless the output is JSON). ``disk_bound`` work defaults
    to one process, which reads several files at once on threads: processes would only
    take turns at the disk."""
    asked = asked_jobs(runs)
    if asked is not None:
        jobs = asked
    elif disk_bound or any(is_url(f.path) for f in ds.files):
        jobs = 1
    else:
        jobs = default_jobs(ds.compressed_size())
    return _usable(jobs, asked, runs)
