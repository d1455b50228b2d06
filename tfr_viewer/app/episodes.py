"""A dataset's robot-learning episodes (RLDS), read for every front end: each record
that keeps steps, shaped by the ``features.json`` of the TFDS folder that holds the
files (:mod:`..core.decode.episodes`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace

import numpy as np

from ..core.analyze.episode_table import EpisodeRow
from ..core.analyze.findings import Finding
from ..core.decode.episode_bytes import episode_in
from ..core.decode.episodes import Episode
from ..core.io import Dataset
from ..core.io.tfds import info_of
from .task_state import QUIET, TaskState


class EpisodeReader:
    """Reads episodes of the indexed ``ds``, shaped by the ``features.json`` of the TFDS
    folder that holds its files (read once, here), if any."""

    def __init__(self, ds: Dataset) -> None:
        self.dataset = ds
        info = info_of(f.path for f in ds.files)
        self.specs = info.features if info is not None else None

    def episode(self, record: int, payload: bytes | None = None) -> Episode | None:
        """Record ``record``'s episode (``payload``: its bytes as edited, when they
        are); None when it keeps no steps (or is no Example)."""
        data = self.dataset.read(record) if payload is None else payload
        return episode_in(data, self.specs, record)


def dataset_episodes(ds: Dataset, records: Iterable[int]) -> Iterator[Episode]:
    """The episodes among ``records`` of the indexed ``ds`` (those that keep steps),
    shaped by the ``features.json`` of the TFDS folder that holds its files, if any."""
    reader = EpisodeReader(ds)
    for record in records:
        episode = reader.episode(record)
        if episode is not None:
            yield episode


def episode_pass(
    ds: Dataset,
    state: TaskState = QUIET,
    edited: Mapping[int, bytes] | None = None,
    deleted: frozenset[int] = frozenset(),
) -> tuple[list[Finding], list[EpisodeRow]]:
    """One read of every intact record of ``ds`` that keeps steps (as ``edited`` has
    them, but those ``deleted``): the findings of the episode checks, and a row of the
    episode table an episode, with the kinds of its findings."""
    from ..core.analyze.episode_checks import EpisodeChecks
    from ..core.analyze.episode_table import episode_row
    from ..core.analyze.findings import sort_key

    reader = EpisodeReader(ds)
    edited = edited or {}
    info = info_of(f.path for f in ds.files)

    def where(record: int) -> tuple[str, int]:
        ref = ds.ref(record)
        return ref.file, ref.offset

    checks = EpisodeChecks(where)
    rows = []
    splits: dict[str, str | None] = {}
    records = ds.undamaged(np.arange(len(ds), dtype=np.int64)).tolist()
    with state.phase("checking episodes", len(records)) as step:
        for done, record in enumerate(records):
            if state.cancelled:
                break
            if record in deleted:
                continue
            try:
                episode = reader.episode(record, edited.get(record))
            except Exception:  # noqa: BLE001 - a record that is no Example: the parse checks say so
                episode = None
            if episode is not None:
                checks.add(episode)
                ref = ds.ref(record)
                if ref.file not in splits:
                    splits[ref.file] = info.split_of(ref.file) if info is not None else None
                size = len(edited[record]) if record in edited else ref.length
                rows.append(episode_row(episode, ref.file, ref.offset, size, splits[ref.file]))
            if done % 64 == 0:
                step(done)
        step(len(records))
    found = checks.finish()
    kinds: dict[int | None, list[str]] = {}
    for f in sorted(found, key=sort_key):
        if f.kind not in kinds.setdefault(f.record, []):
            kinds[f.record].append(f.kind)
    rows = [replace(row, findings=tuple(kinds.get(row.record, ()))) for row in rows]
    return found, rows
