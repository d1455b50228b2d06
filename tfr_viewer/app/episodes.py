"""A dataset's robot-learning episodes (RLDS), read for every front end: each record
that keeps steps, shaped by the ``features.json`` of the TFDS folder that holds the
files (:mod:`..core.decode.episodes`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

from ..core.decode import features_of
from ..core.decode.episodes import Episode, read_episode
from ..core.decode.file_payloads import decode_record
from ..core.io import Dataset
from ..core.io.tfds import info_of


class EpisodeReader:
    """Reads episodes of the indexed ``ds``, shaped by the ``features.json`` of the TFDS
    folder that holds its files (read once, here), if any."""

    def __init__(self, ds: Dataset) -> None:
        self.dataset = ds
        info = info_of(f.path for f in ds.files)
        self.specs = info.features if info is not None else None

    def episode(self, record: int) -> Episode | None:
        """Record ``record``'s episode; None when it keeps no steps (or is no
        Example)."""
        features = features_of(decode_record(self.dataset, record).payload)
        episode = read_episode(features, self.specs) if features else None
        return replace(episode, record=record) if episode is not None else None


def dataset_episodes(ds: Dataset, records: Iterable[int]) -> Iterator[Episode]:
    """The episodes among ``records`` of the indexed ``ds`` (those that keep steps),
    shaped by the ``features.json`` of the TFDS folder that holds its files, if any."""
    reader = EpisodeReader(ds)
    for record in records:
        episode = reader.episode(record)
        if episode is not None:
            yield episode
