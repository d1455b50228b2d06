"""tf.train.SequenceExample: context features plus feature lists.

A SequenceExample with only a context is byte-identical to an Example, so this decoder
bids only when feature lists are present, below the Example decoder.
"""

from __future__ import annotations

from google.protobuf.message import DecodeError

from .. import proto
from .features import feature_data, features_data, has_unknown
from .types import SequenceExamplePayload

NAME = "sequence_example"


def parse_strict(data: bytes) -> object | None:
    if not data:
        return None
    msg = proto.SequenceExample()
    try:
        msg.ParseFromString(data)
    except DecodeError:
        return None
    if has_unknown(msg) or not msg.HasField("feature_lists"):
        return None
    return msg


def bid(data: bytes) -> int:
    return 90 if parse_strict(data) is not None else 0


def decode(data: bytes) -> SequenceExamplePayload:
    msg = parse_strict(data)
    if msg is None:
        raise ValueError("not a valid tf.train.SequenceExample")
    lists = msg.feature_lists.feature_list  # type: ignore[attr-defined]
    return SequenceExamplePayload(
        features_data(msg.context),  # type: ignore[attr-defined]
        {key: [feature_data(f) for f in lists[key].feature] for key in sorted(lists)},
    )
