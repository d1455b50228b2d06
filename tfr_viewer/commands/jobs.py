"""How many processes a batch command runs on this machine: ``--jobs N``, or by default
one per core from :data:`~..core.io.split_pool.POOL_BYTES` of local data on (1 for
remote data, where the transfers bound the work). Results do not depend on it."""

from __future__ import annotations

import argparse
import sys

from ..core.io import Dataset
from ..core.io.remote import is_url
from ..core.io.split_pool import default_jobs, usable_jobs
from ..core.text import plural
from ..errors import UsageError


def asked_jobs(args: argparse.Namespace) -> int | None:
    """``--jobs`` as given (None without it); refused below 1, before any work."""
    asked = getattr(args, "jobs", None)
    if asked is not None and asked < 1:
        raise UsageError(f"--jobs {asked}: give 1 or more processes")
    return asked


def local_jobs(ds: Dataset, args: argparse.Namespace) -> int:
    """The processes to run for an indexed ``ds``: at most one per core (with a note on
    stderr when ``--jobs`` asked for more, unless the output is JSON)."""
    asked = asked_jobs(args)
    if asked is not None:
        jobs = asked
    elif any(is_url(f.path) for f in ds.files):
        jobs = 1
    else:
        jobs = default_jobs(ds.compressed_size())
    usable = usable_jobs(jobs)
    if asked is not None and usable < asked and not getattr(args, "json", False):
        print(
            f"tfr-viewer: note: --jobs {asked} runs {plural(usable, 'process', 'processes')}, "
            "one per core of this machine",
            file=sys.stderr,
        )
    return usable
