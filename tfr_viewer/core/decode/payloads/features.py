"""Convert parsed Features messages to :class:`FeatureData`, strictly.

Protobuf parsing is lenient: fields with an unknown number or a mismatched wire type
are kept as unknown fields instead of failing. :func:`has_unknown` finds them, so that a
payload that is not really an Example is never shown as an (empty) one.
"""

from __future__ import annotations

from typing import Any

from google.protobuf.unknown_fields import UnknownFieldSet

from .types import FeatureData, Features

_LIST_FIELDS = {"bytes_list": "bytes", "float_list": "float", "int64_list": "int64"}


def has_unknown(msg: Any) -> bool:
    return len(UnknownFieldSet(msg)) > 0


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


def feature_strict(feature: Any) -> bool:
    """True when a Feature and its list carry no unknown fields."""
    if has_unknown(feature):
        return False
    which = feature.WhichOneof("kind")
    return which is None or not has_unknown(getattr(feature, which))


def features_data(features: Any) -> Features:
    """A Features message as an ordered dict, keys sorted."""
    fmap = features.feature
    return {key: feature_data(fmap[key]) for key in sorted(fmap)}


def features_strict(features: Any) -> bool:
    if has_unknown(features):
        return False
    fmap = features.feature
    return all(feature_strict(fmap[key]) for key in fmap)
