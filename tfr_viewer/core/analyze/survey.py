"""What each key of a dataset is, before it is checked: the schema (kinds and value
counts, from the compiled core without Python objects) and the bytes keys that hold
images. The checks go by the survey of the whole dataset, so what they report of a
record does not depend on the records before it, nor on how the work was split."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..decode.detect import image_format
from ..io.payload_block import PayloadBlock
from ..query.extract import extract
from .roles import Roles, find_roles
from .schema import Schema, add_block
from .stats import MIN_IMAGE_BYTES

Plan = tuple[tuple[str, ...], Roles]  # the keys of a dataset, and what each is for


@dataclass
class Survey:
    """A dataset's schema, and its bytes keys of which some value is an image (at least
    :data:`MIN_IMAGE_BYTES` long, with an image format's magic)."""

    schema: Schema = field(default_factory=Schema)
    images: set[str] = field(default_factory=set)

    def merge(self, other: Survey) -> Survey:
        """Take in the survey of other records (in any order: the result is the same)."""
        self.schema.merge(other.schema)
        self.images |= other.images
        return self

    def roles(self) -> Roles:
        """What each key is for, by its most common kind."""
        kinds = {k: s.kind for k, s in self.schema.features.items()}
        return find_roles(kinds, self.images)

    def plan(self) -> Plan:
        """What a check goes by: the keys, and what each is for. Two surveys with the
        same plan give the same findings of the same records."""
        return tuple(sorted(self.schema.features)), self.roles()


def _holds_image(values: np.ndarray) -> bool:
    return any(
        isinstance(v, bytes) and len(v) >= MIN_IMAGE_BYTES and image_format(v[:32])
        for v in values.tolist()
    )


def survey_block(out: Survey, payloads: PayloadBlock) -> None:
    """Take the payloads of intact records into ``out``."""
    add_block(out.schema, payloads)
    keys = sorted(
        k for k, s in out.schema.features.items() if "bytes" in s.kinds and k not in out.images
    )
    if keys:
        _, columns = extract(payloads, keys)
        out.images.update(k for k, c in columns.items() if _holds_image(c.rag.values))
