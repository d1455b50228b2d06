"""The records TensorFlow's parser refuses, or reads otherwise than protobuf (keys that
are not UTF-8 among them).

``check`` asks this of every block of an Example dataset: each record gets TensorFlow's
verdict (:func:`..decode.tf_example.verdicts`, compiled), and the few that fail or
differ are read again to say where and how.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..decode import tf_example
from ..decode.payloads.example import protobuf_reading
from ..io.payload_block import PayloadBlock
from ..text import value_or_float32_text, value_text

Note = Callable[..., None]  # note(kind, message, record, **where)


def parse_findings(records: np.ndarray, block: PayloadBlock, note: Note) -> np.ndarray:
    """Notes ``example_unparseable``, ``key_not_utf8`` and ``example_read_differently``
    findings; returns whether TensorFlow's parser reads each record (the other checks
    look at those)."""
    codes, _ = tf_example.verdicts(block.buf, block.starts, block.lengths)
    for r in np.flatnonzero(codes & ~np.uint8(tf_example.NO_FEATURES)).tolist():
        _explain(int(records[r]), block.payload(r), note)
    result: np.ndarray = (codes & tf_example.CODE) == 0
    return result


def _explain(record: int, payload: bytes, note: Note) -> None:
    reading = tf_example.read_example(payload)
    failure = reading.failure
    if failure is not None:
        note(
            "example_unparseable",
            f"TensorFlow's parser fails: {failure.message()}",
            record,
            feature=failure.feature,
        )
        return
    if reading.bad_keys:
        names = ", ".join(f"'{k}'" for k in reading.bad_keys[:3])
        more = f" and {len(reading.bad_keys) - 3:,} more" if len(reading.bad_keys) > 3 else ""
        note(
            "key_not_utf8",
            f"feature key {names}{more} is not UTF-8 (shown with \\x escapes)",
            record,
            feature=reading.bad_keys[0],
        )
        return
    other = protobuf_reading(payload)
    if other is None:
        note(
            "example_read_differently",
            "protobuf refuses this record, which TensorFlow's parser reads (a field it "
            "skips, or features cut at the record's end)",
            record,
        )
        return
    for key, feature in reading.features.items():
        theirs = other.get(key)
        if theirs is None or (theirs.kind, theirs.items()) != (feature.kind, feature.items()):
            note(
                "example_read_differently",
                f"feature {key!r}: TensorFlow reads its first list, {feature.kind} "
                f"[{_values_text(feature.items())}]; protobuf reads the bytes after it too",
                record,
                feature=key,
            )
            return


def _values_text(values: list[Any]) -> str:
    shown = ", ".join(
        value_text(v) if isinstance(v, bytes) else value_or_float32_text(v) for v in values[:5]
    )
    return shown + (", …" if len(values) > 5 else "")
