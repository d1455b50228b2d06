"""How a filter runs over a dataset: the one policy, for the command line (``list``,
``count``, ``export --filter``), the window's filter bar and the Python API.

:func:`matches` indexes the dataset first when the filter's meaning needs the whole
index (it reads features, or a bare name that may be a feature's), then hands the
blocks of the core's one driver (:func:`~tfr_viewer.core.query.filtering.matching`) to
its caller as they come. :class:`FilterRequest` is the window's and the API's
operation: every match, told as it is found."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.io import Dataset
from ..core.query import Matched, compile_filter, matching, needs_index
from .indexing import index
from .task_state import QUIET, TaskState


def matches(
    ds: Dataset,
    text: str | None,
    state: TaskState = QUIET,
    *,
    verified: bool = True,
    edited: Mapping[int, bytes] | None = None,
    block: int = 1 << 14,
    as_indexed: bool = False,
) -> Iterator[Matched]:
    """Per block, the records filter ``text`` matches (every record, without one),
    stopping when ``state`` is cancelled. ``verified``: the statuses are a CRC pass's
    (a dataset indexed without them is scanned again, verifying); a front end that
    shows the statuses it has (the window) says False. A mistake in ``text`` is a
    :class:`~tfr_viewer.core.query.QueryError`; a key no record has, an
    :class:`~tfr_viewer.core.query.names.UnknownFeature`. ``as_indexed``: the records
    indexed so far and nothing more (the window's, while it indexes on its own thread).
    """
    flt = compile_filter(text) if text else None
    if (
        not as_indexed
        and needs_index(flt)
        and not all(f.index.complete and (f.index.verified or not verified) for f in ds.files)
    ):
        index(ds, verify=verified, state=state)
    found_blocks = matching(
        ds, flt, verified=verified, edited=edited, block=block, as_indexed=as_indexed
    )
    for found in found_blocks:
        yield found
        if state.cancelled:
            return


@dataclass(frozen=True)
class FilterReport:
    """The records a filter matched (global numbers, in order)."""

    records: np.ndarray
    filter: str

    def to_json(self) -> dict[str, Any]:
        return {"filter": self.filter, "count": len(self.records), "records": self.records.tolist()}


@dataclass(frozen=True)
class FilterRequest:
    """Filter ``text`` over a dataset, ``edited`` payloads (by global number) read
    instead of the files', the statuses as the index has them (a front end that shows
    its records' statuses, never a second verifying scan). ``as_indexed``: over the
    records indexed so far, never scanning (the window's: it may filter while its
    dataset is still indexed, on its own thread)."""

    text: str
    edited: Mapping[int, bytes] = field(default_factory=dict)
    block: int = 1 << 14
    as_indexed: bool = False

    def run(self, ds: Dataset, state: TaskState = QUIET) -> FilterReport:
        """Every match; each block's as a partial result (:meth:`TaskState.partial`),
        the progress in records."""
        found: list[np.ndarray] = []
        done = 0
        with state.phase("filtering", len(ds)) as step:
            parts = matches(
                ds,
                self.text,
                state,
                verified=False,
                edited=self.edited,
                block=self.block,
                as_indexed=self.as_indexed,
            )
            for part in parts:
                records = part.records
                done += len(part.offsets)
                if len(records):
                    found.append(records)
                    state.partial(records)
                step(done, None)
        records = np.concatenate(found) if found else np.zeros(0, np.int64)
        return FilterReport(records, self.text)
