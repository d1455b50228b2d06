"""An episode from a record's bytes: the Example parsed once and its steps shaped
(:mod:`.episodes`). Apart from that module because it reads through the Example
decoder's parts, which show an episode with :mod:`.episode_outline`."""

from __future__ import annotations

from collections.abc import Mapping

from ..io.tfds_features import FeatureSpec
from .episodes import Episode, is_episode, read_episode


def episode_in(
    payload: bytes | memoryview,
    specs: Mapping[str, FeatureSpec] | None = None,
    record: int | None = None,
) -> Episode | None:
    """The episode in the bytes of record ``record`` (an Example whose steps are under
    ``steps/``), shaped by ``specs``: parsed as an Example once, as the record checks'
    columns are (whether the bytes are one to the letter is the parse checks' question
    and the tree's, which size the whole message); None when they keep no steps."""
    from dataclasses import replace

    from .keyed_read import example_features
    from .payloads.features import feature_data

    entries = example_features(bytes(payload))
    if entries is None or not is_episode(entries):
        return None
    features = {key: feature_data(entries[key]) for key in sorted(entries)}
    episode = read_episode(features, specs)
    return replace(episode, record=record) if episode is not None else None
