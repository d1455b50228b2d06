"""Plain dataclasses for decoded payloads (no Qt, no protobuf objects)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

KINDS = ("bytes", "float", "int64")


@dataclass(frozen=True)
class FeatureData:
    """One Feature: ``kind`` is bytes|float|int64 (``none`` when unset) and ``values`` a
    numpy array (int64 or float32) or a list of bytes."""

    kind: str
    values: np.ndarray | list[bytes]

    def __len__(self) -> int:
        return len(self.values)


Features = dict[str, FeatureData]


@dataclass(frozen=True)
class ExamplePayload:
    features: Features
    note: str | None = None  # read as TensorFlow reads it, where protobuf would refuse
    type: str = field(default="example", init=False)


@dataclass(frozen=True)
class SequenceExamplePayload:
    context: Features
    feature_lists: dict[str, list[FeatureData]]
    type: str = field(default="sequence_example", init=False)


@dataclass(frozen=True)
class TensorPayload:
    """``dtype`` uses TensorFlow's names (float32, bfloat16, string, ...). bfloat16
    values are widened to float32; string values are a numpy object array of bytes."""

    dtype: str
    shape: tuple[int, ...]
    values: np.ndarray  # shaped like ``shape``; 1-D stored values only when ``note`` is set
    note: str | None = None  # why ``values`` is a summary and not the whole tensor
    type: str = field(default="tensor", init=False)


@dataclass(frozen=True)
class ProtoField:
    """One wire-format field. Exactly one of ``value`` and ``fields`` is set; bytes
    values longer than the preview limit are cut, with ``size`` the full length."""

    number: int
    wire_type: int
    value: int | bytes | None = None
    fields: tuple[ProtoField, ...] | None = None
    size: int = 0


@dataclass(frozen=True)
class ProtobufPayload:
    fields: tuple[ProtoField, ...]
    truncated: bool = False  # True when depth or field-count limits cut the tree
    type: str = field(default="protobuf", init=False)


@dataclass(frozen=True)
class TextPayload:
    text: str
    type: str = field(default="text", init=False)


@dataclass(frozen=True)
class BytesPayload:
    data: bytes
    type: str = field(default="bytes", init=False)


Payload = (
    ExamplePayload
    | SequenceExamplePayload
    | TensorPayload
    | ProtobufPayload
    | TextPayload
    | BytesPayload
)


def features_of(payload: Payload) -> Features | None:
    """An Example's features or a SequenceExample's context; None for other payloads."""
    if isinstance(payload, ExamplePayload):
        return payload.features
    if isinstance(payload, SequenceExamplePayload):
        return payload.context
    return None


@dataclass(frozen=True)
class Decoded:
    """The result of :func:`tfr_viewer.core.decode.payloads.decode`.

    ``decoder`` names the decoder that produced ``payload``. When the best bidder
    failed, ``payload`` is the bytes fallback and ``failed``/``error`` say which
    decoder failed and why.
    """

    payload: Payload
    decoder: str
    failed: str | None = None
    error: str | None = None
