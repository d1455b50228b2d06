"""Examples and SequenceExamples read as protobuf reads them, except that a key need not
be UTF-8 (TensorFlow's parser reads such a key; protobuf refuses the whole record).

The pure-Python twin of the compiled core's record parse (``native/example.c``): a
payload is first parsed as usual; only when protobuf refuses it is it parsed again with
the keys as bytes, each key named by :func:`.key_text.key_text`. As in a protobuf map,
the last entry of a name wins and an entry carrying unknown fields is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import proto
from .key_text import key_text

Entries = Mapping[str, Any]  # protobuf's own map, or a dict for keys read as bytes


def _named(entries: Any) -> Entries:
    from google.protobuf.unknown_fields import UnknownFieldSet

    out: dict[str, Any] = {}
    for entry in entries:
        if len(UnknownFieldSet(entry)):
            continue
        out[key_text(entry.key)] = entry.value
    return out


def example_features(payload: bytes) -> Entries | None:
    """An Example's features by name (a SequenceExample's context too: its wire form is
    the same), or None when protobuf refuses the payload for more than its keys."""
    from google.protobuf.message import DecodeError

    try:
        features: Entries = proto.Example.FromString(payload).features.feature
        return features
    except DecodeError:
        pass
    try:
        loose = proto.BytesKeyedExample.FromString(payload)
    except DecodeError:
        return None
    return _named(loose.features.feature)


def sequence_example(payload: bytes) -> tuple[bool, Entries, Entries] | None:
    """A SequenceExample's ``(has context, context features, feature lists)`` by name,
    or None when protobuf refuses the payload for more than its keys."""
    from google.protobuf.message import DecodeError

    try:
        seq = proto.SequenceExample.FromString(payload)
        return seq.HasField("context"), seq.context.feature, seq.feature_lists.feature_list
    except DecodeError:
        pass
    try:
        loose = proto.BytesKeyedSequenceExample.FromString(payload)
    except DecodeError:
        return None
    return (
        loose.HasField("context"),
        _named(loose.context.feature),
        _named(loose.feature_lists.feature_list),
    )
