"""Records that are not tf.train.Example: the checks of features (keys, images, boxes,
classes, empty records) do not apply to them, and ``check`` says so once.

A record is taken for an Example with no features (``empty_record``) only when its bytes
are one: empty, or an Example message with no field an Example lacks. A TensorBoard
event, a genomics record or any other message holds fields of its own; TensorFlow's
parser would skip them and read an empty Example, but that reading is no verdict on
the data. Such records are counted here, with the first of them and its payload type,
so that the parts of any split of the work merge to the same finding.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..decode.payloads import choose
from ..io.payload_block import PayloadBlock
from ..text import plural


@dataclass
class OtherPayloads:
    """How many records of a pass are not Examples, and the first of them (its global
    number and payload type)."""

    count: int = 0
    first: tuple[int, str] | None = None

    def add(self, records: np.ndarray, rows: np.ndarray, block: PayloadBlock) -> None:
        """Take the block's ``rows`` (a boolean mask) that are not Examples."""
        picked = np.flatnonzero(rows)
        if not len(picked):
            return
        self.count += len(picked)
        r = int(picked[0])
        record = int(records[r])
        if self.first is None or record < self.first[0]:
            self.first = (record, choose(block.payload(r)).TYPE)

    def merge(self, other: OtherPayloads) -> OtherPayloads:
        self.count += other.count
        if other.first is not None and (self.first is None or other.first[0] < self.first[0]):
            self.first = other.first
        return self

    def message(self, records: int) -> str | None:
        """The one finding's text; None when every record is an Example."""
        if self.first is None:
            return None
        record, kind = self.first
        if self.count >= records:
            which = f"none of the {plural(records, 'record')} is a tf.train.Example"
        else:
            verb = "is" if self.count == 1 else "are"
            which = f"{self.count:,} of {plural(records, 'record')} {verb} no tf.train.Example"
        return (
            f"{which} (record {record} holds a payload of type {kind}): the checks of "
            "features, images, boxes and classes do not apply to such records; their frames "
            "and CRCs were checked"
        )
