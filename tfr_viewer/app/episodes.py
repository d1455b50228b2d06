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


def dataset_episodes(ds: Dataset, records: Iterable[int]) -> Iterator[Episode]:
    """The episodes among ``records`` of the indexed ``ds`` (those that keep steps),
    shaped by the ``features.json`` of the TFDS folder that holds its files, if any."""
    info = info_of(f.path for f in ds.files)
    specs = info.features if info is not None else None
    for record in records:
        features = features_of(decode_record(ds, record).payload)
        episode = read_episode(features, specs) if features else None
        if episode is not None:
            yield replace(episode, record=record)
