"""tf.train.Example read the way TensorFlow's parser reads it.

``tf.io.parse_single_example`` does not use protobuf: it walks the wire format itself,
and where the format allows several readings it takes its own. This module walks it the
same way, so that ``show``, the window and ``check`` report what training will see:

- An Example's fields other than ``features`` are skipped (protobuf calls them unknown),
  except groups and varints longer than ten bytes, which fail the record.
- Inside ``features`` only map entries are allowed, and each entry holds exactly a key
  and a value, in either order: an unknown field or a key-only entry fails the record.
- A Feature's kind is decided by its first byte (bytes, float or int64 list); TensorFlow
  reads that first list only and ignores what follows it, where protobuf lets a later
  list replace or extend it. A list's values are its first packed run (or its unpacked
  values); a packed float run's odd tail bytes are dropped.
- Of two entries with one key, the last is read.
- A key need not be UTF-8 (protobuf refuses such a key): it is named as
  :mod:`.key_text` says, and the payload counts as read otherwise by protobuf.

:func:`read_example` gives a :class:`TFReading`: the features, and the first place (a
byte offset inside the payload) where TensorFlow's parser fails, when it fails.
``differs`` names features protobuf reads otherwise. The compiled core's ``tf_check``
gives the same verdicts for a block of payloads; this module is its pure-Python twin.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import unpack_from
from typing import TYPE_CHECKING, cast

from .. import fast
from .key_text import is_text, key_text
from .payload_types import LAZY_NUMBERS, FeatureData

if TYPE_CHECKING:
    import numpy as np

_U32 = 0xFFFFFFFF
_U64 = (1 << 64) - 1
_INT64_SIGN = 1 << 63

# Failure codes shared with the compiled core (native/tf_example.c).
OK, STRUCTURE, KIND, LIST = 0, 1, 2, 3
_KINDS = {0x0A: "bytes", 0x12: "float", 0x1A: "int64"}


class _Fail(Exception):
    def __init__(self, offset: int, code: int, why: str) -> None:
        super().__init__(why)
        self.offset, self.code, self.why = offset, code, why


@dataclass(frozen=True)
class TFFailure:
    """Where TensorFlow's parser stops: a byte offset inside the payload, the feature
    whose value fails (None when the Example's structure does) and what is wrong."""

    offset: int
    code: int
    feature: str | None
    why: str

    def message(self) -> str:
        where = f"feature {self.feature!r}: " if self.feature is not None else ""
        return f"{where}{self.why} at byte {self.offset:,} of the payload"


@dataclass
class TFReading:
    """The features as TensorFlow reads them (keys as text, ``\\x`` escapes for bytes
    that are not UTF-8), how many ``features`` fields the Example has, the failure if
    TensorFlow's parser refuses it, and the features protobuf would read otherwise."""

    features: dict[str, FeatureData] = field(default_factory=dict)
    features_fields: int = 0
    failure: TFFailure | None = None
    differs: list[str] = field(default_factory=list)
    bad_keys: list[str] = field(default_factory=list)
    skipped_features: bool = False
    entries: int = 0  # feature entries, a key given twice counted twice

    @property
    def read_otherwise(self) -> bool:
        """Whether protobuf reads the payload otherwise than TensorFlow."""
        return bool(self.differs) or self.skipped_features or bool(self.bad_keys)


def _varint(data: bytes, pos: int, end: int, what: str, code: int = STRUCTURE) -> tuple[int, int]:
    """A varint of at most ten bytes ending before ``end``."""
    value = shift = 0
    start = pos
    while pos < end and pos - start < 10:
        byte = data[pos]
        value |= (byte & 0x7F) << shift
        pos += 1
        if byte < 0x80:
            return value & _U64, pos
        shift += 7
    raise _Fail(start, code, f"the {what} cannot be read")


def _entries(data: bytes, reading: TFReading) -> list[tuple[bytes, int, int]]:
    """The Example's structure: (key, value start, value end) per map entry."""
    end = len(data)
    pos = 0
    entries: list[tuple[bytes, int, int]] = []
    while pos < end:
        if data[pos] == 0x0A:  # the features field, written as one byte
            reading.features_fields += 1
            length, start = _varint(data, pos + 1, end, "length of the features")
            stop = start + (length & _U32)
            if stop > end:  # TensorFlow reads up to the end; protobuf refuses it
                reading.skipped_features = True
                stop = end
            _features(data, start, stop, entries)
            pos = stop
        else:
            try:
                pos = _skip(data, pos, end, reading)
            except _Fail as fail:
                raise _Fail(pos, STRUCTURE, fail.why) from None
    return entries


def _compiled_entries(data: bytes, reading: TFReading) -> list[tuple[bytes, int, int]] | None:
    """:func:`_entries` with the Example's own fields skipped by the compiled core (a
    payload of millions of them costs no Python loop); None on the pure-Python path."""
    from .. import kernels

    walked = kernels.tf_fields(data)
    if walked is None:
        return None
    code, offset, differs = walked.code, walked.offset, walked.differs
    reading.skipped_features = bool(differs & 1)
    entries: list[tuple[bytes, int, int]] = []
    for start, stop in walked.spans:  # the last one fails when the compiled walk failed in it
        reading.features_fields += 1
        _features(data, start, stop, entries)
    if code != OK:
        if differs & 2:  # the length of a features field
            reading.features_fields += 1
            raise _Fail(offset, STRUCTURE, "the length of the features cannot be read")
        try:
            _skip(data, offset, len(data), reading)
        except _Fail as fail:
            raise _Fail(offset, STRUCTURE, fail.why) from None
        raise _Fail(offset, STRUCTURE, "a field of the Example cannot be read")
    return entries


def _skip(data: bytes, pos: int, end: int, reading: TFReading) -> int:
    """Past a field TensorFlow ignores; groups and unknown wire types fail."""
    start = pos
    tag, pos = _varint(data, pos, end, "field tag")
    wire = tag & 7
    if (tag & _U32) >> 3 == 1:
        reading.skipped_features = True  # protobuf reads what TensorFlow skips
    if wire == 0:
        _, pos = _varint(data, pos, end, "varint")
        return pos
    if wire in (1, 5):
        size = 8 if wire == 1 else 4
        if end - pos < size:
            raise _Fail(start, STRUCTURE, "a fixed-size field runs past the end")
        return pos + size
    if wire == 2:
        length, pos = _varint(data, pos, end, "length of a field")
        length &= _U32
        if length >= 1 << 31:
            return pos  # a negative count: TensorFlow skips nothing and reads on
        return min(pos + length, end)
    raise _Fail(start, STRUCTURE, f"a field of wire type {wire} is not allowed")


def _features(data: bytes, pos: int, end: int, out: list[tuple[bytes, int, int]]) -> None:
    while pos < end:
        if data[pos] != 0x0A:
            raise _Fail(pos, STRUCTURE, "the features hold a field that is not a feature entry")
        try:
            pos = _entry(data, pos, end, out)
        except _Fail as fail:
            raise _Fail(pos, STRUCTURE, fail.why) from None


def _entry(data: bytes, pos: int, end: int, out: list[tuple[bytes, int, int]]) -> int:
    """One map entry (key and value, in either order); the offset after it."""
    length, pos = _varint(data, pos + 1, end, "length of a feature entry")
    stop = min(pos + (length & _U32), end)
    key: bytes | None = None
    value = (0, 0)
    for _ in range(2):
        if pos >= stop:
            raise _Fail(pos, STRUCTURE, "a feature entry lacks its key or its value")
        tag, pos = _varint(data, pos, stop, "tag in a feature entry")
        tag &= _U32
        if tag not in (0x0A, 0x12):
            raise _Fail(
                pos, STRUCTURE, "a feature entry holds a field other than its key and value"
            )
        size, pos = _varint(data, pos, stop, "length in a feature entry")
        size &= _U32
        if pos + size > stop:
            raise _Fail(pos, STRUCTURE, "a feature entry runs past its end")
        if tag == 0x0A:
            key = data[pos : pos + size]
        else:
            value = (pos, pos + size)
        pos += size
    if pos != stop:
        raise _Fail(pos, STRUCTURE, "a feature entry holds more than its key and value")
    out.append((key if key is not None else b"", *value))
    return pos


def _list_bounds(data: bytes, pos: int, end: int, what: str) -> tuple[int, int, bool]:
    """A list's values' start and end (its length cut at the Feature's end, as
    TensorFlow's parser limits it), and whether the length runs past that end."""
    length, pos = _varint(data, pos, end, f"length of the {what} list", LIST)
    raw = pos + (length & _U32)
    return pos, min(raw, end), raw != end


def _float_list(data: bytes, pos: int, end: int) -> tuple[list[float] | np.ndarray, bool]:
    """The values, and whether protobuf reads them otherwise."""
    pos, stop, more = _list_bounds(data, pos, end, "float")
    if pos == stop:
        return [], more
    first = data[pos]
    if first == 0x0A:
        size, pos = _varint(data, pos + 1, stop, "length of the packed floats", LIST)
        size &= _U32
        count = size // 4
        if pos + 4 * count > min(pos + size, stop):
            raise _Fail(pos, LIST, "the packed floats run past the end of their list")
        return _floats(data, pos, count), more or size % 4 != 0 or pos + size != stop
    if first != 0x0D:
        raise _Fail(pos, LIST, "the float list holds a field that is not a float")
    values = []
    while pos < stop:
        if data[pos] != 0x0D:
            raise _Fail(pos, LIST, "the float list holds a field that is not a float")
        if stop - pos < 5:
            raise _Fail(pos, LIST, "a float runs past the end of its list")
        values.append(unpack_from("<f", data, pos + 1)[0])
        pos += 5
    return values, more


def _floats(data: bytes, pos: int, count: int) -> list[float] | np.ndarray:
    """``count`` packed float32 values: a list for a few, a float32 array for many."""
    if count <= LAZY_NUMBERS:
        return list(unpack_from(f"<{count}f", data, pos))
    import numpy as np

    return np.frombuffer(data, dtype="<f4", count=count, offset=pos).astype(np.float32)


def _int64_list(data: bytes, pos: int, end: int) -> tuple[list[int], bool]:
    pos, stop, more = _list_bounds(data, pos, end, "int64")
    if pos == stop:
        return [], more
    first = data[pos]
    values: list[int] = []
    if first == 0x0A:
        size, pos = _varint(data, pos + 1, stop, "length of the packed integers", LIST)
        size &= _U32
        more = more or pos + size != stop
        run = min(pos + size, stop)
        while pos < run:
            value, pos = _int(data, pos, run)
            values.append(value)
        return values, more
    if first != 0x08:
        raise _Fail(pos, LIST, "the int64 list holds a field that is not an integer")
    while pos < stop:
        if data[pos] != 0x08:
            raise _Fail(pos, LIST, "the int64 list holds a field that is not an integer")
        value, pos = _int(data, pos + 1, stop)
        values.append(value)
    return values, more


def _int(data: bytes, pos: int, end: int) -> tuple[int, int]:
    try:
        value, pos = _varint(data, pos, end, "integer")
    except _Fail as fail:
        raise _Fail(fail.offset, LIST, "an integer is longer than ten bytes or cut off") from None
    return (value - (1 << 64) if value & _INT64_SIGN else value), pos


def _bytes_list(data: bytes, pos: int, end: int) -> tuple[list[bytes], bool]:
    pos, stop, more = _list_bounds(data, pos, end, "bytes")
    values = []
    while pos < stop:
        if data[pos] != 0x0A:
            raise _Fail(pos, LIST, "the bytes list holds a field that is not a value")
        size, at = _varint(data, pos + 1, stop, "length of a bytes value", LIST)
        size &= _U32
        if at + size > stop:
            raise _Fail(pos, LIST, "a bytes value runs past the end of its list")
        values.append(data[at : at + size])
        pos = at + size
    return values, more


_LISTS = {0x0A: _bytes_list, 0x12: _float_list, 0x1A: _int64_list}


def read_feature(data: bytes, start: int, end: int) -> tuple[FeatureData, bool]:
    """The Feature in ``data[start:end]`` as TensorFlow reads it, and whether protobuf
    reads it otherwise; raises ``_Fail`` where TensorFlow's parser fails."""
    if start == end:
        return FeatureData("none", []), False
    first = data[start]
    reader = _LISTS.get(first)
    if reader is None:
        raise _Fail(
            start, KIND, f"the value is not a bytes, float or int64 list (byte 0x{first:02x})"
        )
    values, more = reader(data, start + 1, end)
    kind = _KINDS[first]
    if kind == "bytes" or not isinstance(values, list):
        return FeatureData(kind, values), more  # type: ignore[arg-type]
    return FeatureData.numbers(kind, cast("list[float] | list[int]", values)), more


def _text(key: bytes, reading: TFReading) -> str:
    text = key_text(key)
    if not is_text(key):
        reading.bad_keys.append(text)
    return text


def read_example(data: bytes | memoryview) -> TFReading:
    """What ``tf.io.parse_single_example`` reads from ``data`` when every key is asked
    for with its own kind. Work is bounded by the bytes present; the Example's own
    fields are walked by the compiled core when it is in use."""
    data = bytes(data)
    reading = TFReading()
    try:
        entries = _compiled_entries(data, reading)
        if entries is None:
            entries = _entries(data, reading)
    except _Fail as fail:
        reading.failure = TFFailure(fail.offset, fail.code, None, fail.why)
        return reading
    reading.entries = len(entries)
    last = {key: (start, end) for key, start, end in entries}
    for key in sorted(last):
        start, end = last[key]
        name = _text(key, reading)
        try:
            feature, more = read_feature(data, start, end)
        except _Fail as fail:
            if reading.failure is None or fail.offset < reading.failure.offset:
                reading.failure = TFFailure(fail.offset, fail.code, name, fail.why)
            continue
        reading.features[name] = feature
        if more:
            reading.differs.append(name)
    reading.features = dict(sorted(reading.features.items()))
    return reading


DIFFERS = 0x80  # added to a verdict's code when protobuf reads the payload otherwise
NO_FEATURES = 0x40  # added when the payload parses but holds no feature entry
CODE = 0x3F  # the code's own bits
fast.agree(
    TF_OK=OK,
    TF_STRUCTURE=STRUCTURE,
    TF_KIND=KIND,
    TF_LIST=LIST,
    TF_DIFFERS=DIFFERS,
    TF_NO_FEATURES=NO_FEATURES,
)


def _code(reading: TFReading) -> int:
    """A reading's verdict code, as the compiled core gives it."""
    if reading.failure is not None:
        code = reading.failure.code
    else:
        code = OK | (NO_FEATURES if not reading.entries else 0)
    return code | (DIFFERS if reading.read_otherwise else 0)


def verdict(data: bytes) -> tuple[int, int]:
    """TensorFlow's verdict on one payload, as :func:`verdicts` gives it for many:
    ``(code, offset)``."""
    from .. import kernels

    found = kernels.verdict(data)
    if found is not None:
        return found.code, found.offset
    reading = read_example(data)
    return _code(reading), -1 if reading.failure is None else reading.failure.offset


def verdicts(
    buf: bytes | memoryview | np.ndarray, starts: np.ndarray, lengths: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """TensorFlow's verdict on each payload ``buf[start : start + length]`` (rows with a
    negative start are skipped): a uint8 code (``OK``, ``STRUCTURE``, ``KIND`` or
    ``LIST`` in :data:`CODE`'s bits, plus :data:`DIFFERS` and :data:`NO_FEATURES`) and the
    int64 offset inside the payload where the parser fails (-1 when it does not). The
    compiled core and this module agree."""
    import numpy as np

    from .. import kernels

    found = kernels.verdicts(buf, starts, lengths)
    if found is not None:
        return found.codes, found.offsets
    starts = np.ascontiguousarray(starts, dtype=np.int64)
    lengths = np.ascontiguousarray(lengths, dtype=np.int64)
    codes_out = np.zeros(len(starts), dtype=np.uint8)
    offsets_out = np.full(len(starts), -1, dtype=np.int64)
    view = buf.data if isinstance(buf, np.ndarray) else memoryview(buf)
    for r, (start, length) in enumerate(zip(starts.tolist(), lengths.tolist(), strict=True)):
        if start < 0:
            continue
        reading = read_example(view[start : start + length])
        if reading.failure is not None:
            offsets_out[r] = reading.failure.offset
        codes_out[r] = _code(reading)
    return codes_out, offsets_out
