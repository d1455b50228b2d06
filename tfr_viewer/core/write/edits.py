"""Edits as an overlay over a dataset: record number -> new payload, or deleted.

The source files are never written. Feature edits are pure functions from payload bytes
to payload bytes; they keep every other feature exactly (float32 and int64 values are
carried in the parsed message, never through text). Each change returns the previous
state of the records it touched, so an undo stack can restore the exact bytes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from google.protobuf.message import DecodeError

from ..decode import image_info, proto

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
_LISTS = {"bytes": "bytes_list", "float": "float_list", "int64": "int64_list"}


class EditError(ValueError):
    """An edit that cannot be applied; the message says what is wrong and how to fix it."""


@dataclass(frozen=True)
class RecordState:
    """What one record was before a change (``payload`` None: not edited)."""

    record: int
    payload: bytes | None
    deleted: bool


class EditSet:
    """The overlay. ``payload(ds, i)`` is what an export writes for record ``i``."""

    def __init__(self) -> None:
        self._payloads: dict[int, bytes] = {}
        self._deleted: set[int] = set()

    def __bool__(self) -> bool:
        return bool(self._payloads or self._deleted)

    def is_edited(self, record: int) -> bool:
        return record in self._payloads

    def is_deleted(self, record: int) -> bool:
        return record in self._deleted

    @property
    def payloads(self) -> dict[int, bytes]:
        """A copy of every edited payload."""
        return dict(self._payloads)

    def payload_of(self, record: int) -> bytes | None:
        return self._payloads.get(record)

    def edited_records(self) -> list[int]:
        return sorted(self._payloads)

    def deleted_records(self) -> list[int]:
        return sorted(self._deleted)

    def state(self, record: int) -> RecordState:
        return RecordState(record, self._payloads.get(record), record in self._deleted)

    def replace(self, record: int, payload: bytes) -> RecordState:
        before = self.state(record)
        self._payloads[record] = bytes(payload)
        return before

    def delete(self, records: Iterable[int]) -> list[RecordState]:
        states = [self.state(r) for r in records]
        self._deleted.update(s.record for s in states)
        return states

    def restore(self, records: Iterable[int]) -> list[RecordState]:
        states = [self.state(r) for r in records]
        self._deleted.difference_update(s.record for s in states)
        return states

    def apply_states(self, states: Iterable[RecordState]) -> None:
        """Put records back exactly as the states describe (used by undo and redo)."""
        for s in states:
            if s.payload is None:
                self._payloads.pop(s.record, None)
            else:
                self._payloads[s.record] = s.payload
            if s.deleted:
                self._deleted.add(s.record)
            else:
                self._deleted.discard(s.record)

    def kept(self, records: Sequence[int]) -> list[int]:
        """``records`` without the deleted ones."""
        return [r for r in records if r not in self._deleted]


# -- feature edits on payload bytes ---------------------------------------------------


def parse_record(payload: bytes) -> tuple[Any, Any]:
    """``(message, features)``: an Example, or a SequenceExample's context."""
    seq = proto.SequenceExample()
    try:
        seq.ParseFromString(payload)
    except DecodeError as exc:
        raise EditError(f"this record is not an Example ({exc}); it cannot be edited") from None
    if seq.HasField("feature_lists"):
        return seq, seq.context
    msg = proto.Example()
    msg.ParseFromString(payload)
    return msg, msg.features


def kind_of(feature: Any) -> str | None:
    which = feature.WhichOneof("kind")
    return {"bytes_list": "bytes", "float_list": "float", "int64_list": "int64"}.get(which or "")


def parse_values(text: str, kind: str, key: str) -> list[Any]:
    """Values typed by a person: ``3``, ``1, 2, 3``, ``[0.5, 0.25]``, numbers one a
    line or, for bytes, ``["a", "b"]`` or a single text. Refuses values that do not fit
    ``kind``."""
    text = text.strip()
    if kind == "bytes":
        if text.startswith("["):
            try:
                items = json.loads(text)
            except json.JSONDecodeError as exc:
                raise EditError(f"{key}: not a list of texts ({exc.msg})") from None
            except (ValueError, RecursionError):  # a number past Python's digits, a deep list
                raise EditError(f"{key}: not a list of texts") from None
            return [str(v).encode() for v in items]
        return [text.encode()]
    tokens = [t for t in re.split(r"[,\s]+", text.strip("[]")) if t]
    out: list[Any] = []
    for token in tokens:
        if kind == "int64":
            try:
                value = int(token)
            except ValueError:
                raise EditError(
                    f"{key} holds int64 values: {token!r} is not a whole number"
                ) from None
            if not INT64_MIN <= value <= INT64_MAX:
                raise EditError(f"{key}: {value} does not fit in int64")
            out.append(value)
        else:
            try:
                out.append(float(token))
            except ValueError:
                raise EditError(f"{key} holds float values: {token!r} is not a number") from None
    return out


def set_values(payload: bytes, key: str, values: Sequence[Any], kind: str | None = None) -> bytes:
    """Replace the values of ``key``, keeping its kind (``kind`` is needed for new keys)."""
    msg, features = parse_record(payload)
    fmap = features.feature
    existing = kind_of(fmap[key]) if key in fmap else None
    if existing and kind and kind != existing:
        raise EditError(f"{key} holds {existing} values; {kind} values cannot be stored in it")
    kind = existing or kind
    if kind not in _LISTS:
        raise EditError(f"{key}: say whether the values are bytes, float or int64")
    feature = fmap[key]
    target = getattr(feature, _LISTS[kind])
    del target.value[:]
    if kind == "int64":
        if any(isinstance(v, float) and not float(v).is_integer() for v in values):
            raise EditError(f"{key} holds int64 values: a float cannot be stored in it")
        try:
            target.value.extend(int(v) for v in values)
        except (TypeError, ValueError):
            raise EditError(
                f"{key} holds int64 values: {list(values)!r} are not all whole numbers"
            ) from None
    elif kind == "float":
        try:
            target.value.extend(float(v) for v in values)
        except (TypeError, ValueError):
            raise EditError(
                f"{key} holds float values: {list(values)!r} are not all numbers"
            ) from None
    else:
        target.value.extend(v.encode() if isinstance(v, str) else bytes(v) for v in values)
    result: bytes = msg.SerializeToString(deterministic=True)
    return result


def remove_feature(payload: bytes, key: str) -> bytes:
    msg, features = parse_record(payload)
    if key not in features.feature:
        raise EditError(f"there is no feature {key!r} to remove")
    del features.feature[key]
    result: bytes = msg.SerializeToString(deterministic=True)
    return result


def rename_feature(payload: bytes, old: str, new: str) -> bytes:
    msg, features = parse_record(payload)
    fmap = features.feature
    if old not in fmap:
        raise EditError(f"there is no feature {old!r} to rename")
    if new in fmap:
        raise EditError(f"a feature {new!r} already exists; remove it first")
    if not new:
        raise EditError("a feature key cannot be empty")
    fmap[new].CopyFrom(fmap[old])
    del fmap[old]
    result: bytes = msg.SerializeToString(deterministic=True)
    return result


def replace_image(payload: bytes, key: str, image: bytes, index: int = 0) -> bytes:
    """Put new image bytes in ``key[index]`` and update height, width and format
    features next to it when the record has them."""
    info = image_info(image)
    if info is None:
        raise EditError(
            "the new file is not an image tfr-viewer can read (JPEG, PNG, GIF, BMP, WebP or TIFF)"
        )
    msg, features = parse_record(payload)
    fmap = features.feature
    if key not in fmap or kind_of(fmap[key]) != "bytes":
        raise EditError(f"{key!r} is not a bytes feature of this record")
    values = fmap[key].bytes_list.value
    if not 0 <= index < len(values):
        raise EditError(f"{key} has no value [{index}]")
    values[index] = image
    prefix = key.rsplit("/", 1)[0] + "/" if "/" in key else ""
    updates = {"height": info.height, "width": info.width}
    for name, value in updates.items():
        for candidate in (prefix + name, name):
            if (
                candidate in fmap
                and kind_of(fmap[candidate]) == "int64"
                and len(fmap[candidate].int64_list.value) == 1
            ):
                fmap[candidate].int64_list.value[0] = value
                break
    for candidate in (prefix + "format", "format"):
        if (
            candidate in fmap
            and kind_of(fmap[candidate]) == "bytes"
            and len(fmap[candidate].bytes_list.value) == 1
        ):
            fmap[candidate].bytes_list.value[0] = info.format.encode()
            break
    result: bytes = msg.SerializeToString(deterministic=True)
    return result
