"""How a dataset is indexed for a purpose: the one place of the policy.

``index`` for a header pass (or a verifying scan), stopping early when a record number
is all that is needed; ``verifies_in_one_scan`` for a front end that shows rows as they
come (the window's child, :mod:`.index_jobs`); ``verify`` for every CRC checked, in one
verifying scan or as a header pass followed by the files' parts checked side by side,
whichever the dataset reads faster
(:meth:`~tfr_viewer.core.io.Dataset.verifies_in_parts`), and in place for a dataset a
header pass indexed already: the statuses are the same either way."""

from __future__ import annotations

from ..core.io import Dataset, index_cache
from ..core.io.header_scan import hops_far
from .task_state import QUIET, TaskState


def index(
    ds: Dataset,
    verify: bool,
    state: TaskState = QUIET,
    until: int | None = None,
    *,
    other_files: bool = False,
) -> None:
    """Index ``ds``; with ``until``, stop as soon as global record ``until`` is known.
    A file that turns out not to be a TFRecord at all is refused
    (:meth:`Dataset.refuse_other_files`) unless ``other_files`` (the caller reports
    it itself); a dataset past the size that deserves a warning is told once. Stops,
    the index incomplete, when ``state`` is cancelled."""
    warned = False
    with state.scanning(ds, verify) as scanned:
        for number, chunk in ds.scan(verify=verify):
            scanned(number, chunk.position)
            if not warned and (warning := ds.size_warning()) is not None:
                state.warn(warning)
                warned = True
            if (until is not None and len(ds) > until) or state.cancelled:
                return
    if not other_files:
        ds.refuse_other_files()


def verify(ds: Dataset, state: TaskState = QUIET) -> None:
    """Index ``ds`` with every CRC checked, the faster way for this dataset: a dataset
    indexed already (a header pass) has its payloads checked in place."""
    indexed = bool(ds.files) and all(f.index.complete for f in ds.files)
    if not indexed and not ds.verifies_in_parts():
        index(ds, verify=True, state=state)
        return
    from ..core.io.verify import FINISHED

    if not indexed:
        index(ds, verify=False, state=state)
    done = 0
    with state.phase("verifying", len(ds)) as step:
        for _number, first, end in ds.verify():
            if first != FINISHED:
                done += end - first
                step(done, None)


def verifies_in_one_scan(ds: Dataset) -> bool:
    """Whether one verifying scan should index ``ds`` for a front end that shows its
    rows as they come (the window), rather than a header pass and then the CRCs: its
    first file holds nothing for a header pass to hop over, and the cache holds no
    index of it (a cached index gives the rows and the count at once, and a verifying
    scan never uses one). :func:`verify` asks the other question: the fastest way to
    every CRC, rows or not."""
    if not ds.files:
        return True
    first = ds.files[0]
    if hops_far(first.open()):
        return False
    return index_cache.kept(first.path) is None
