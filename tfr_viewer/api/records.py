"""One record as the Python API gives it: where it is, whether it is intact, what it
holds (an Example's features as numpy arrays and bytes lists), and its picture."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.decode import decode, features_of, payload_images
from ..core.io import Dataset

if TYPE_CHECKING:
    from PIL.Image import Image


class DamagedRecordWarning(UserWarning):
    """The features of a record whose bytes failed a CRC were read: they may be wrong."""


@dataclass(frozen=True)
class Record:
    """Record ``index`` of a dataset (global across its shards). ``status`` is ``ok``,
    or how the record is damaged (``bad_data_crc``, ``bad_length_crc``, ``truncated``;
    see ``verify``). ``features`` maps each key of an Example (or a SequenceExample's
    context) to a numpy array (``int64``, ``float32``) or a list of ``bytes``; it is
    empty for other payloads, and reading it from a damaged record warns
    (:class:`DamagedRecordWarning`): its values may be wrong. ``payload`` is the
    record's bytes (what there is of them)."""

    index: int
    file: str
    offset: int
    length: int
    status: str
    type: str  # example, elwc, sequence_example, event, tensor, protobuf, text or bytes
    values: dict[str, Any] = field(repr=False)
    payload: bytes = field(repr=False)
    decoder: str | None = field(default=None, repr=False)  # the type of its file's records

    @property
    def damaged(self) -> bool:
        return self.status not in ("ok", "unverified")

    @property
    def features(self) -> dict[str, Any]:
        """The record's features; a :class:`DamagedRecordWarning` first when the record
        is damaged."""
        if self.damaged:
            import warnings

            warnings.warn(
                f"record {self.index} of {self.file} is damaged ({self.status}): its "
                "features may be wrong",
                DamagedRecordWarning,
                stacklevel=2,
            )
        return self.values

    def image(self, key: str | None = None) -> Image:
        """The record's picture (the first, or the one under ``key``) as a Pillow image;
        LookupError when it has none."""
        from PIL import Image as PILImage

        from ..core.decode import decode_image

        found = self.images()
        if key is not None:
            found = [a for a in found if a.key == key]
        if not found:
            where = f" under {key!r}" if key else ""
            raise LookupError(f"record {self.index} holds no image{where}")
        ann = found[0]
        if ann.raw_shape is not None:
            h, w, d = ann.raw_shape
            pixels = np.frombuffer(ann.data, dtype=np.uint8).reshape(h, w, d)
            return PILImage.fromarray(pixels[..., 0] if d == 1 else pixels)
        rgba = decode_image(ann.data)
        return PILImage.fromarray(rgba).convert("RGB")

    def images(self) -> list[Any]:
        """Every image of the record with its boxes and labels, as the window finds them
        (:class:`~tfr_viewer.core.decode.layouts.ImageAnnotation`)."""
        return payload_images(decode(self.payload, within=self.decoder).payload)

    def to_json(self) -> dict[str, Any]:
        """What ``show --json`` prints for the record."""
        from ..core import json_text
        from ..core.decode.record_json import record_json
        from ..core.io import RecordStatus

        status = next(s for s in RecordStatus if s.kind == self.status)
        shown = record_json(
            self.index, self.file, self.offset, self.length, status, self.payload, self.decoder
        )
        return json_text.read_back(shown)  # as the command line's reads back

    def _repr_html_(self) -> str:
        from .notebook import record_html

        return record_html(self)


def read_record(ds: Dataset, index: int) -> Record:
    """Record ``index`` of an indexed dataset, its CRC checked."""
    from ..core.decode.file_payloads import file_decoder

    payload, status = ds.read_verified(index)
    ref = ds.ref(index)
    within = file_decoder(ds, ref.file_number)
    decoded = decode(payload, within=within)
    features = features_of(decoded.payload) or {}
    values = {
        k: (fd.values if fd.kind != "bytes" else list(fd.values)) for k, fd in features.items()
    }
    return Record(
        index,
        ref.file,
        ref.offset,
        ref.length,
        status.kind,
        decoded.payload.type,
        values,
        payload,
        within,
    )
