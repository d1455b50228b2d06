"""The core's hot loops behind one facade, with typed results.

Each kernel runs in the compiled core (``native/module.c``) when it is built and
allowed (:func:`.fast.native`), and gives the same result as its pure-Python backend;
nothing outside this module reads the compiled module's tuples by position. Two kinds:

- **Whole kernels** choose their backend here and always answer: :func:`same_bytes`,
  :func:`payload_crcs`, :func:`take_bytes`, :func:`take_text`, :func:`smooth`.
- **Compiled passes** answer only on the compiled path and return None on the pure one,
  where the caller runs its own Python loop over its own state (the frame scan of
  :mod:`.io.index`, the header hop of :mod:`.io.plain_source`, TensorFlow's reading in
  :mod:`.decode.tf_example`, the survey of keys of :mod:`.analyze.schema`, the column
  extraction of :mod:`.query.extract`, the field paths of a user's message type of
  :mod:`.query.message_paths`): :func:`scan_frames`, :func:`hop_frames`,
  :func:`verdicts`, :func:`verdict`, :func:`tf_fields`, :func:`discover`, :func:`extract`,
  :func:`extract_lists`, :func:`message_paths`, and the plain scalars of TensorBoard events read by
  :mod:`.analyze.event_log`: :class:`EventPass`. The differential tests run both
  paths on the same inputs.

CRC32C, the most used kernel, is the one place of its own rule: :mod:`.crc32c` (the
compiled core's, or google-crc32c). The compiled module names its status and verdict
codes; the modules that define them check them on import (:func:`.fast.agree`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .fast import native

if TYPE_CHECKING:  # numpy is imported by the kernels that use it: `show` never loads it
    from types import ModuleType

    import numpy as np


def compiled_in_use() -> bool:
    """Whether the compiled passes answer now."""
    return native() is not None


# -- whole kernels ---------------------------------------------------------------------
def same_bytes(a: bytes | memoryview, b: bytes | memoryview) -> bool:
    """Whether two bytes-like values hold the same bytes (one ``memcmp`` compiled; a
    memoryview compares item by item in Python, so it is copied first)."""
    if len(a) != len(b):
        return False
    fast = native()
    if fast is not None:
        return bool(fast.same_bytes(a, b))
    return (a if type(a) is bytes else bytes(a)) == (b if type(b) is bytes else bytes(b))


def payload_crcs(buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Per row, whether the stored CRC that follows payload ``buf[start : start +
    length]`` matches it (rows with a negative start: False)."""
    import numpy as np

    ok = np.zeros(len(starts), dtype=np.uint8)
    fast = native()
    if fast is not None:
        fast.payload_crcs(buf, starts, lengths, ok)
        return ok.astype(bool)
    from .io.framing import masked_crc

    for r in np.flatnonzero(starts >= 0).tolist():
        start, n = int(starts[r]), int(lengths[r])
        stored = int.from_bytes(buf[start + n : start + n + 4].tobytes(), "little")
        ok[r] = masked_crc(buf[start : start + n]) == stored
    return ok.astype(bool)


@dataclass(frozen=True)
class Verdicts:
    """TensorFlow's verdict per payload: ``codes`` (uint8, the bits of
    :mod:`.decode.tf_example`) and ``offsets`` (int64, where the parser fails; -1)."""

    codes: np.ndarray
    offsets: np.ndarray


def verdicts(buf: Any, starts: np.ndarray, lengths: np.ndarray) -> Verdicts | None:
    """TensorFlow's verdict on each payload ``buf[start : start + length]`` (rows with a
    negative start: code 0, offset -1); None on the pure path."""
    import numpy as np

    fast = native()
    if fast is None:
        return None
    starts = np.ascontiguousarray(starts, dtype=np.int64)
    lengths = np.ascontiguousarray(lengths, dtype=np.int64)
    codes, offsets = fast.tf_check(buf, starts, lengths)
    return Verdicts(np.frombuffer(codes, dtype=np.uint8), np.frombuffer(offsets, dtype=np.int64))


# -- compiled passes -------------------------------------------------------------------
def _compiled() -> ModuleType | None:
    return native()


@dataclass(frozen=True)
class ScanRun:
    """Consecutive good frames appended to the caller's arrays: ``count`` of them, and
    the position (within the buffer) where the scan stopped."""

    count: int
    stop: int


def scan_frames(
    buf: Any,
    pos: int,
    limit: int,
    verify: bool,
    base: int,
    offsets: np.ndarray,
    lengths: np.ndarray,
    status: np.ndarray,
) -> ScanRun | None:
    """Frames of ``buf`` from ``pos`` until a problem, the end or ``limit`` of them,
    written to ``offsets``/``lengths``/``status`` (``base`` added to the offsets); None on
    the pure path."""
    fast = _compiled()
    if fast is None:
        return None
    n, stop = fast.scan_frames(buf, pos, limit, verify, base, offsets, lengths, status)
    return ScanRun(int(n), int(stop))


@dataclass(frozen=True)
class Hop:
    """Frame headers read from a file descriptor, hopping over the payloads."""

    offsets: np.ndarray
    lengths: np.ndarray
    stop: int  # where the hop ended: the next header to read


def hop_frames(fd: int, size: int, pos: int, limit: int, min_frame: int) -> Hop | None:
    """Up to ``limit`` frame headers of the file ``fd`` of ``size`` bytes from ``pos``,
    while frames are at least ``min_frame`` long; a failed read ends the hop (the
    caller's own read then raises it). None on the pure path."""
    import numpy as np

    fast = _compiled()
    if fast is None or not hasattr(fast, "hop_frames"):
        return None
    offsets = np.empty(limit, dtype=np.uint64)
    lengths = np.empty(limit, dtype=np.uint64)
    n, stop, _errno = fast.hop_frames(fd, size, pos, limit, min_frame, offsets, lengths)
    return Hop(offsets[:n], lengths[:n], int(stop))


@dataclass(frozen=True)
class TfFields:
    """The compiled walk over an Example's own fields: the verdict ``code`` and
    ``offset`` so far, ``differs`` (bit 1: fields other than ``features`` were skipped;
    bit 2: a ``features`` field's length is wrong), and the (start, stop) span of each
    ``features`` field, for the Python side to read."""

    code: int
    offset: int
    differs: int
    spans: list[list[int]]


def tf_fields(data: Any) -> TfFields | None:
    fast = _compiled()
    if fast is None:
        return None
    code, offset, differs, spans = fast.tf_fields(data)
    flat = memoryview(spans).cast("q").tolist()
    pairs = [flat[i : i + 2] for i in range(0, len(flat), 2)]
    return TfFields(int(code), int(offset), int(differs), pairs)


@dataclass(frozen=True)
class Verdict:
    code: int
    offset: int  # where the parser fails, -1 when it does not


_ZERO = bytes(8)


def verdict(data: Any) -> Verdict | None:
    """TensorFlow's verdict on one payload (see :func:`verdicts`; no numpy needed)."""
    fast = _compiled()
    if fast is None:
        return None
    codes, offsets = fast.tf_check(data, _ZERO, len(data).to_bytes(8, "little"))
    return Verdict(codes[0], int.from_bytes(offsets, "little", signed=True))


# the row types of discover, as the compiled core numbers them
ROW_OTHER, ROW_EXAMPLE, ROW_SEQUENCE, ROW_UNREAD = 0, 1, 2, 3


@dataclass(frozen=True)
class KeyFacts:
    """What a block's records hold under one key: ``sequence`` (a feature list of a
    SequenceExample, else a feature), how many records have it, by kind (none, bytes,
    float, int64) how many values it has and the order in which the kind was first seen,
    and the least and most values a record has."""

    sequence: bool
    key: str
    present: int
    kinds: tuple[int, ...]
    first: tuple[int, ...]
    least: int
    most: int


@dataclass(frozen=True)
class Discovery:
    row_types: np.ndarray  # uint8 per row: ROW_OTHER, ROW_EXAMPLE, ROW_SEQUENCE, ROW_UNREAD
    keys: list[KeyFacts]


def discover(buf: Any, starts: np.ndarray, lengths: np.ndarray) -> Discovery | None:
    """The keys of every payload of a block, surveyed in one compiled call (each key by
    its name, :mod:`.decode.key_text`'s rule, which the compiled core applies)."""
    import numpy as np

    fast = _compiled()
    if fast is None:
        return None
    row_type, found = fast.discover(buf, starts, lengths)
    keys = [
        KeyFacts(bool(table), key.decode("utf-8"), present, kinds, first, least, most)
        for table, key, present, kinds, first, least, most in found
    ]
    return Discovery(np.frombuffer(row_type, dtype=np.uint8), keys)


@dataclass(frozen=True)
class ColumnPiece:
    """One key's values in a run of rows, as the compiled extractor gives them:
    ``present`` and ``kinds`` per row, row ``splits`` of the values, the values by kind
    (int64, float64, and bytes as (offset, size) pairs into the buffer), and for feature
    lists the ``steps`` splits of each row."""

    present: np.ndarray
    kinds: np.ndarray
    splits: np.ndarray
    int64: np.ndarray
    float64: np.ndarray
    byte_spans: np.ndarray
    steps: np.ndarray | None = None


def _pieces(columns: Any, lists: bool) -> list[ColumnPiece]:
    import numpy as np

    out = []
    for p in columns:
        if lists:
            present, steps, kinds, splits, i64, f64, spans = p
        else:
            (present, kinds, splits, i64, f64, spans), steps = p, None
        out.append(
            ColumnPiece(
                np.frombuffer(present, dtype=np.bool_),
                np.frombuffer(kinds, dtype=np.uint8),
                np.frombuffer(splits, dtype=np.int64),
                np.frombuffer(i64, dtype=np.int64),
                np.frombuffer(f64, dtype=np.float64),
                np.frombuffer(spans, dtype=np.int64),
                None if steps is None else np.frombuffer(steps, dtype=np.int64),
            )
        )
    return out


def extract(
    buf: Any, starts: np.ndarray, lengths: np.ndarray, keys: tuple[bytes, ...]
) -> tuple[np.ndarray, list[ColumnPiece]] | None:
    """Per-row status and one piece per key of the Examples' features (compiled)."""
    return _columns("extract", buf, starts, lengths, keys)


def extract_lists(
    buf: Any, starts: np.ndarray, lengths: np.ndarray, keys: tuple[bytes, ...]
) -> tuple[np.ndarray, list[ColumnPiece]] | None:
    """Per-row status and one piece per key of SequenceExamples' feature lists."""
    return _columns("extract_lists", buf, starts, lengths, keys)


def _columns(
    name: str, buf: Any, starts: np.ndarray, lengths: np.ndarray, keys: tuple[bytes, ...]
) -> tuple[np.ndarray, list[ColumnPiece]] | None:
    import numpy as np

    fast = _compiled()
    if fast is None:
        return None
    status, columns = getattr(fast, name)(buf, starts, lengths, keys)
    return np.frombuffer(status, dtype=np.uint8), _pieces(columns, lists=name == "extract_lists")


@dataclass(frozen=True)
class PathPiece:
    """One field path's values in a run of rows, as the compiled walk gives them: row
    ``splits`` and every value's 64 bits (text: an (offset, size) pair into the buffer,
    offset -1 for the field's default)."""

    splits: np.ndarray
    words: np.ndarray  # uint64


def message_paths(
    buf: Any,
    starts: np.ndarray,
    lengths: np.ndarray,
    schema: tuple[bytes, bytes],
    paths: tuple[tuple[bytes, int, int, int, int], ...],
) -> tuple[np.ndarray, list[PathPiece]] | None:
    """Per-row status and one piece per field path of a user's message type (compiled;
    ``schema`` and ``paths`` as :mod:`.query.message_paths` lays them out)."""
    import numpy as np

    fast = _compiled()
    if fast is None:
        return None
    status, columns = fast.message_paths(buf, starts, lengths, *schema, paths)
    pieces = [
        PathPiece(np.frombuffer(splits, dtype=np.int64), np.frombuffer(words, dtype=np.uint64))
        for splits, words in columns
    ]
    return np.frombuffer(status, dtype=np.uint8), pieces


def take_bytes(buf: Any, spans: np.ndarray) -> list[bytes]:
    """The bytes at each (offset, size) pair of ``spans`` in ``buf``."""
    import numpy as np

    fast = _compiled()
    if fast is not None:
        result: list[bytes] = fast.take_bytes(buf, spans)
        return result
    pairs = np.asarray(spans, dtype=np.int64).reshape(-1, 2).tolist()
    view = buf.data if isinstance(buf, np.ndarray) else memoryview(buf)
    return [bytes(view[o : o + n]) for o, n in pairs]


def take_text(buf: Any, spans: np.ndarray) -> list[str | bytes]:
    """As :func:`take_bytes`, each value as its UTF-8 text (bytes that are no UTF-8
    stay bytes)."""
    fast = _compiled()
    if fast is not None:
        result: list[str | bytes] = fast.take_bytes(buf, spans, True)
        return result
    out: list[str | bytes] = []
    for data in take_bytes(buf, spans):
        try:
            out.append(data.decode("utf-8"))
        except UnicodeDecodeError:
            out.append(data)
    return out


def smooth(values: np.ndarray, weight: float) -> np.ndarray:
    """TensorBoard's debiased moving average of ``values`` (float64) at ``weight`` in
    [0, 1): over the finite values in order, ``last = last * weight + (1 - weight) *
    value``, drawn as ``last / (1 - weight ** n)`` after ``n`` of them (the power a
    running product); a value that is not finite is drawn as it is."""
    import math

    import numpy as np

    x = np.ascontiguousarray(values, dtype=np.float64)
    out = np.empty_like(x)
    fast = native()
    if fast is not None:
        fast.smooth(x, float(weight), out)
        return out
    last, power = 0.0, 1.0
    for i, value in enumerate(x.tolist()):
        if not math.isfinite(value):
            out[i] = value
            continue
        last = last * weight + (1.0 - weight) * value
        power *= weight
        out[i] = last / (1.0 - power)
    return out


EVENT_PYTHON = 255  # an event the compiled pass leaves to the Python reading
EVENTS_DONE, EVENTS_PYTHON, EVENTS_FULL = 0, 1, 2  # why a segment ends
TAG_FIELDS = ("offset", "length", "values", "bytes", "first", "last")


@dataclass(frozen=True)
class EventSegment:
    """Consecutive payloads of a block read whole by the compiled pass, from the row
    asked to ``stop``: ``what`` (a row each, of the whole block), the Event field of
    each one's oneof (3 file_version … 9 meta_graph_def, 0 none); ``status`` says why it
    ended: the block's end, row ``stop`` left to Python (its ``what`` is
    :data:`EVENT_PYTHON`: a summary holding any value but a plain scalar, a log line,
    anything unusual, no event), or full buffers (read on from ``stop``). Per plain
    scalar value, in order: its payload's ``row``, its ``tag`` (an index of ``names``),
    ``value``, and its event's ``step`` and ``wall`` time. Per tag: ``tags``' row of
    :data:`TAG_FIELDS` (its bytes' place in the buffer, its values, the bytes they take
    — their own in the summary and an equal share of the rest of their events' frames,
    in whole bytes, the first values one more while it does not split evenly — and its
    first and last value)."""

    status: int
    stop: int
    what: np.ndarray
    row: np.ndarray
    tag: np.ndarray
    value: np.ndarray
    step: np.ndarray
    wall: np.ndarray
    tags: np.ndarray
    names: list[bytes]


class EventPass:
    """The compiled reading of TensorBoard events, segment by segment, into buffers
    kept from one call to the next (the arrays of a segment are views of them, good
    until the next call)."""

    def __init__(self, values: int = 1 << 18, tags: int = 1 << 10) -> None:
        self._size(values, tags)

    def _size(self, values: int, tags: int) -> None:
        import numpy as np

        self._row = np.empty(values, np.int32)
        self._tag = np.empty(values, np.int32)
        self._value = np.empty(values, np.float64)
        self._step = np.empty(values, np.int64)
        self._wall = np.empty(values, np.float64)
        self._tags = np.empty((tags, len(TAG_FIELDS)), np.int64)
        self._slots = np.empty(4 * tags, np.uint64)

    def read(
        self, buf: Any, starts: np.ndarray, lengths: np.ndarray, what: np.ndarray, first: int
    ) -> EventSegment | None:
        """The segment of payloads ``buf[starts[r] : starts[r] + lengths[r]]`` from row
        ``first`` on (``what``, a uint8 array a row, is filled); None on the pure path."""
        fast = _compiled()
        if fast is None:
            return None
        while True:
            status, stop, values, count = fast.event_values(
                buf, starts, lengths, first, what, self._row, self._tag, self._value,
                self._step, self._wall, self._tags, self._slots,
            )  # fmt: skip
            if status != EVENTS_FULL or stop > first:
                break
            self._size(2 * len(self._row), 2 * len(self._tags))  # one event holds more
        tags = self._tags[:count]
        spans = tags[:, :2].copy()
        return EventSegment(
            status,
            stop,
            what,
            self._row[:values],
            self._tag[:values],
            self._value[:values],
            self._step[:values],
            self._wall[:values],
            tags,
            fast.take_bytes(buf, spans.reshape(-1)),
        )
