"""tf.train.Example: the most common payload; bids highest when it parses strictly."""

from __future__ import annotations

from google.protobuf.message import DecodeError

from .. import proto
from .features import feature_data, features_data, has_unknown
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
    if has_unknown(msg) or not msg.HasField("features"):
        return None
    return msg


def parse_bytes_keyed(data: bytes) -> object | None:
    """An Example whose feature keys are not all valid UTF-8 (protobuf refuses those;
    TensorFlow's own parser reads them), parsed with bytes keys; else None."""
    msg = proto.BytesKeyedExample()
    try:
        msg.ParseFromString(data)
    except DecodeError:
        return None
    entries = msg.features.feature
    if has_unknown(msg) or not len(entries):
        return None
    if all(_utf8(e.key) for e in entries):
        return None  # valid keys: the strict parse failed for another reason
    return msg


def _utf8(key: bytes) -> bool:
    try:
        key.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def bid(data: bytes) -> int:
    if parse_strict(data) is not None:
        return 100
    return 90 if data and parse_bytes_keyed(data) is not None else 0


def decode(data: bytes) -> ExamplePayload:
    """The Example; one whose feature keys are not all UTF-8 is read as TensorFlow's
    parser reads it (protobuf refuses it), keys shown with ``\\x`` escapes and a note."""
    msg = parse_strict(data)
    if msg is not None:
        return ExamplePayload(features_data(msg.features))  # type: ignore[attr-defined]
    keyed = parse_bytes_keyed(data)
    if keyed is None:
        raise ValueError("not a valid tf.train.Example")
    features, bad = {}, []
    for entry in keyed.features.feature:  # type: ignore[attr-defined]
        key = entry.key.decode("utf-8", "backslashreplace")
        if not _utf8(entry.key):
            bad.append(key)
        features[key] = feature_data(entry.value)  # the last one wins, as in a map
    note = (
        f"{len(bad)} feature key(s) are not valid UTF-8 ({', '.join(bad[:3])}); "
        "TensorFlow's parser reads such an Example (protobuf refuses it); the keys are "
        "shown with \\x escapes"
    )
    return ExamplePayload(dict(sorted(features.items())), note)
