"""Convert parsed Features messages to :class:`FeatureData`, strictly.

Protobuf parsing is lenient: fields with an unknown number or a mismatched wire type
are kept as unknown fields instead of failing. :func:`has_unknown` finds them anywhere
in a parsed message, so that a payload that is not really an Example is never shown as
an (empty) one.
"""

from __future__ import annotations

from typing import Any

from .types import FeatureData, Features

_LIST_FIELDS = {"bytes_list": "bytes", "float_list": "float", "int64_list": "int64"}


def strict(message: Any, data: bytes) -> Any | None:
    """``data`` parsed as a ``message`` (a class of :mod:`..proto`) when it is one to the
    letter: not empty, valid wire format, and no field the message does not define;
    None otherwise."""
    from google.protobuf.message import DecodeError

    if not data:
        return None
    msg = message()
    try:
        msg.ParseFromString(data)
    except DecodeError:
        return None
    return None if has_unknown(msg) else msg


def has_unknown(msg: Any) -> bool:
    """True when ``msg`` or any message inside it carries unknown fields. Those are
    dropped from ``msg`` on the way (the caller refuses such a message anyway).

    The size before and after dropping them differs exactly when there were some; this
    stays in the runtime's C code (its ``UnknownFieldSet`` crashes the process when a
    signal such as Ctrl+C arrives while one is built).
    """
    size = msg.ByteSize()
    msg.DiscardUnknownFields()
    return bool(msg.ByteSize() != size)


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
