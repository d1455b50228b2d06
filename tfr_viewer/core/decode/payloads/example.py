"""tf.train.Example: the most common payload; bids highest when it parses strictly."""

from __future__ import annotations

from google.protobuf.message import DecodeError

from .. import proto
from .features import features_data, features_strict, has_unknown
from .types import ExamplePayload

NAME = "example"


def parse_strict(data: bytes) -> object | None:
    """The parsed Example message, or None if ``data`` is not strictly an Example."""
    if not data:
        return None
    msg = proto.Example()
    try:
        msg.ParseFromString(data)
    except DecodeError:
        return None
    if has_unknown(msg) or not msg.HasField("features") or not features_strict(msg.features):
        return None
    return msg


def bid(data: bytes) -> int:
    return 100 if parse_strict(data) is not None else 0


def decode(data: bytes) -> ExamplePayload:
    msg = parse_strict(data)
    if msg is None:
        raise ValueError("not a valid tf.train.Example")
    return ExamplePayload(features_data(msg.features))  # type: ignore[attr-defined]
