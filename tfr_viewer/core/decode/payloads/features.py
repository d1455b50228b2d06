"""Convert parsed Features messages (read strictly: :mod:`..strict_parse`) to
:class:`FeatureData`."""

from __future__ import annotations

from typing import Any

from ..payload_types import FeatureData, Features

_LIST_FIELDS = {"bytes_list": "bytes", "float_list": "float", "int64_list": "int64"}


def feature_data(feature: Any) -> FeatureData:
    """A Feature message as FeatureData (``kind`` ``none`` when no list is set)."""
    which = feature.WhichOneof("kind")
    if which is None:
        return FeatureData("none", [])
    values = getattr(feature, which).value
    kind = _LIST_FIELDS[which]
    if kind == "bytes":
        return FeatureData(kind, list(values))
    return FeatureData.numbers(kind, values)


def printable_keys(*maps: Any) -> bool:
    """Whether every key of the maps (a Features message's ``feature``, a FeatureLists'
    ``feature_list``) is printable text: a reading of the bytes of another message as
    one of these gives keys full of control characters."""
    return all(key.isprintable() for keys in maps for key in keys)


def features_data(features: Any) -> Features:
    """A Features message as an ordered dict, keys sorted."""
    fmap = features.feature
    return {key: feature_data(fmap[key]) for key in sorted(fmap)}
