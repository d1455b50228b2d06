"""Build serialized Example and SequenceExample payloads from plain Python values.

A value is a scalar or a sequence of ``bytes``/``str`` (BytesList), ``float``
(FloatList), or ``int``/``bool`` (Int64List); numpy arrays map by dtype. Keys are
written in sorted order, so the same input always gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..decode import proto

FeatureValue = Any


def _as_list(value: FeatureValue) -> list[Any]:
    if isinstance(value, np.ndarray):
        return value.ravel().tolist() if value.dtype.kind != "S" else list(value.ravel())
    if isinstance(value, (bytes, str, int, float, bool, np.generic)):
        return [value.item() if isinstance(value, np.generic) else value]
    return list(value)


def _kind(values: list[Any], key: str, explicit: str | None) -> str:
    if explicit:
        return explicit
    if not values:
        raise ValueError(f"feature {key!r}: an empty list needs an explicit kind")
    if all(isinstance(v, (bytes, str)) for v in values):
        return "bytes"
    if all(isinstance(v, (bool, int)) for v in values):
        return "int64"
    if all(isinstance(v, (bool, int, float)) for v in values):
        return "float"
    raise ValueError(f"feature {key!r}: cannot mix {sorted({type(v).__name__ for v in values})}")


def fill_feature(feature: Any, key: str, value: FeatureValue, kind: str | None = None) -> None:
    """Set a ``Feature`` message from a value; ``kind`` forces bytes|float|int64."""
    values = _as_list(value)
    kind = _kind(values, key, kind)
    if kind == "bytes":
        feature.bytes_list.value.extend(v.encode() if isinstance(v, str) else v for v in values)
    elif kind == "float":
        feature.float_list.value.extend(float(v) for v in values)
    elif kind == "int64":
        feature.int64_list.value.extend(int(v) for v in values)
    else:
        raise ValueError(f"feature {key!r}: unknown kind {kind!r} (bytes, float or int64)")


def _fill(features: Any, values: Mapping[str, FeatureValue], kinds: Mapping[str, str]) -> None:
    for key in sorted(values):
        fill_feature(features.feature[key], key, values[key], kinds.get(key))


def build_example(
    features: Mapping[str, FeatureValue], kinds: Mapping[str, str] | None = None
) -> bytes:
    """Serialize a ``tf.train.Example``."""
    msg = proto.Example()
    _fill(msg.features, features, kinds or {})
    result: bytes = msg.SerializeToString(deterministic=True)
    return result


def build_sequence_example(
    context: Mapping[str, FeatureValue],
    feature_lists: Mapping[str, Sequence[FeatureValue]],
    kinds: Mapping[str, str] | None = None,
) -> bytes:
    """Serialize a ``tf.train.SequenceExample``: context features plus lists of steps."""
    kinds = kinds or {}
    msg = proto.SequenceExample()
    _fill(msg.context, context, kinds)
    for key in sorted(feature_lists):
        flist = msg.feature_lists.feature_list[key]
        for step in feature_lists[key]:
            fill_feature(flist.feature.add(), key, step, kinds.get(key))
    result: bytes = msg.SerializeToString(deterministic=True)
    return result
