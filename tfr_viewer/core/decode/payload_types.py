"""Plain dataclasses for decoded payloads (no Qt, no protobuf objects)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

KINDS = ("bytes", "float", "int64")
LAZY_NUMBERS = 4096  # numeric features up to this long are decoded without numpy


class FeatureData:
    """One Feature: ``kind`` is bytes|float|int64 (``none`` when unset) and ``values`` a
    numpy array (int64 or float32) or a list of bytes.

    A decoder gives numeric values with :meth:`numbers`, and their array is built on the
    first use of ``values``: showing a record as text or JSON (:meth:`items`) does not
    load numpy. Treat it as immutable."""

    __slots__ = ("kind", "_values", "_pending")

    def __init__(self, kind: str, values: np.ndarray | list[bytes]) -> None:
        self.kind = kind
        self._values = values
        self._pending: list[Any] | None = None

    @classmethod
    def numbers(cls, kind: str, items: Sequence[float] | Sequence[int]) -> FeatureData:
        """A ``float`` or ``int64`` feature from a sequence of Python numbers (floats
        already float32 values, as protobuf gives them). Up to :data:`LAZY_NUMBERS` are
        kept as a list until ``values`` is used; more become the array at once, never a
        list of millions of Python objects."""
        out = cls(kind, [])
        if len(items) <= LAZY_NUMBERS:
            out._pending = list(items)
        else:
            import numpy as np

            out._values = np.array(items, dtype=np.float32 if kind == "float" else np.int64)
        return out

    @property
    def values(self) -> np.ndarray | list[bytes]:
        if self._pending is not None:
            import numpy as np

            dtype = np.float32 if self.kind == "float" else np.int64
            self._values, self._pending = np.array(self._pending, dtype=dtype), None
        return self._values

    def items(self) -> list[Any]:
        """The values as Python objects (bytes, float, int), without numpy when the
        array has not been built."""
        if self._pending is not None:
            return list(self._pending)
        values = self._values
        return values.tolist() if hasattr(values, "tolist") else list(values)

    def __len__(self) -> int:
        return len(self._pending if self._pending is not None else self._values)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FeatureData):
            return NotImplemented
        return (self.kind, self.values) == (other.kind, other.values)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"FeatureData(kind={self.kind!r}, values={self.values!r})"

    def __getstate__(self) -> tuple[Any, ...]:
        return self.kind, self._values, self._pending

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.kind, self._values, self._pending = state


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
class ExampleListPayload:
    """TF-Ranking's ExampleListWithContext: a list of Examples (the items to rank)
    and the Example of their context (the query)."""

    context: Features
    examples: tuple[Features, ...]
    type: str = field(default="elwc", init=False)


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
class MessagePayload:
    """A record read as a message type the user gave (:mod:`.message_types`):
    ``message``, the type's full name; ``value``, the message protobuf parsed (never
    changed); ``unknown``, the fields in it and in the messages it holds that the type
    does not define (kept by protobuf, counted here)."""

    message: str
    value: Any
    unknown: int = 0
    type: str = field(default="message", init=False)


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
    | ExampleListPayload
    | TensorPayload
    | ProtobufPayload
    | MessagePayload
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
class Bid:
    """A decoder's offer for some bytes: ``priority`` (0: it cannot decode them) and
    what it parsed to judge them, handed back to its ``decode`` when it wins, so that
    the winner never parses the bytes again (None: nothing worth keeping)."""

    priority: int
    parsed: Any = None


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
