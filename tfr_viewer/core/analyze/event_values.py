"""What one summary value of an event file holds, as TensorBoard reads it: a scalar, a
histogram's buckets, a run's hyperparameters. TensorFlow 1 and 2 write each
differently (``simple_value`` or a tensor of the ``scalars`` plugin; a
``HistogramProto`` or a tensor of the ``histograms`` plugin); each function here reads
both, to the same values.

The hyperparameters plugin's messages (``HParamsPluginData``: a session's start with
its hyperparameters, the experiment's metrics) are read from the wire with their
field numbers as TensorBoard's ``plugin_data.proto`` and ``api.proto`` define them;
each hyperparameter's value is protobuf's own ``google.protobuf.Value``."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from ..decode.payloads.event import SummaryValue
from ..decode.wire import FIXED64, LENGTH, WireError, read_fields

SCALARS, IMAGES, HISTOGRAMS, AUDIO, TEXT, HPARAMS = (
    "scalars",
    "images",
    "histograms",
    "audio",
    "text",
    "hparams",
)
# TensorFlow 1's kinds of value, by the plugin TensorBoard shows them with
_TF1_PLUGINS = {"scalar": SCALARS, "image": IMAGES, "histogram": HISTOGRAMS, "audio": AUDIO}
_MAX_FIELDS = 1 << 20


def plugin_of(v: SummaryValue) -> str:
    """The plugin that shows ``v``: its metadata's, or TensorFlow 1's kind's; ``tensor``
    for a tensor no plugin claims, ``""`` for an empty value."""
    if v.plugin:
        return v.plugin
    return _TF1_PLUGINS.get(v.kind, v.kind)


def scalar_of(v: SummaryValue) -> float | None:
    """The number ``v`` holds when it is a scalar point: a ``simple_value``, or a
    tensor of one number under the ``scalars`` plugin; None otherwise."""
    if v.kind == "scalar":
        return v.value
    if v.kind == "tensor" and v.plugin == SCALARS and v.tensor is not None:
        values = v.tensor.values
        if v.tensor.note is None and values.size == 1 and values.dtype.kind in "fiub":
            return float(values.reshape(-1)[0])
    return None


def histogram_of(v: SummaryValue) -> np.ndarray | None:
    """The buckets of a histogram value, ``(k, 3)`` float64 rows of left edge, right
    edge, count: a ``histograms`` tensor as written, or a TensorFlow 1 histogram as
    TensorBoard turns it into one (empty buckets at either end dropped, its ``min`` and
    ``max`` the outer edges). None for any other value."""
    if v.kind == "histogram" and v.histo is not None:
        return _tf1_buckets(v.histo)
    if v.kind == "tensor" and v.plugin == HISTOGRAMS and v.tensor is not None:
        values = v.tensor.values
        if v.tensor.note is None and values.dtype.kind in "fiu":
            if values.size == 0:
                return np.zeros((0, 3), dtype=np.float64)
            if values.ndim == 2 and values.shape[1] == 3:
                return values.astype(np.float64)
    return None


def _doubles(value: Any) -> list[float]:
    if isinstance(value, bytes):  # packed
        return list(struct.unpack(f"<{len(value) // 8}d", value[: len(value) // 8 * 8]))
    return [_double(value)]


def _double(bits: int) -> float:
    return float(struct.unpack("<d", bits.to_bytes(8, "little"))[0])


def _tf1_buckets(histo: bytes) -> np.ndarray | None:
    try:
        fields = read_fields(histo, _MAX_FIELDS).items
    except WireError:
        return None
    low = high = 0.0
    limits: list[float] = []
    counts: list[float] = []
    for number, wire, value in fields:
        if number == 1 and isinstance(value, int) and wire == FIXED64:
            low = _double(value)
        elif number == 2 and isinstance(value, int) and wire == FIXED64:
            high = _double(value)
        elif number == 6 and wire in (FIXED64, LENGTH):
            limits.extend(_doubles(value))
        elif number == 7 and wire in (FIXED64, LENGTH):
            counts.extend(_doubles(value))
    filled = [i for i, c in enumerate(counts) if c > 0]
    if not filled:
        return np.zeros((0, 3), dtype=np.float64)
    start, end = filled[0], filled[-1]
    inner = limits[start:end]
    if len(inner) != end - start:
        return None  # fewer limits than buckets: no histogram TensorBoard draws
    lefts = [low, *inner]
    rights = [*inner, high]
    buckets: np.ndarray = np.array([lefts, rights, counts[start : end + 1]], dtype=np.float64)
    out: np.ndarray = np.ascontiguousarray(buckets.T)
    return out


def hparams_of(v: SummaryValue) -> dict[str, bool | float | str | None] | None:
    """The hyperparameters of a session's start (the ``hparams`` plugin's
    ``session_start_info``), by name: a number, a text, a truth value or None; None
    when ``v`` holds none."""
    if v.plugin != HPARAMS or v.content is None:
        return None
    start = _field(v.content, 3)
    if start is None:
        return None
    from google.protobuf import struct_pb2
    from google.protobuf.message import DecodeError

    out: dict[str, bool | float | str | None] = {}
    try:
        entries = read_fields(start, _MAX_FIELDS).items
    except WireError:
        return None
    for number, wire, entry in entries:
        if number != 1 or wire != LENGTH or not isinstance(entry, bytes):
            continue
        name = _field(entry, 1)
        body = _field(entry, 2)
        if name is None:
            continue
        value = struct_pb2.Value()
        try:
            value.ParseFromString(body or b"")
        except DecodeError:
            continue
        out[name.decode("utf-8", "replace")] = _plain(value)
    return out


def metric_tags(v: SummaryValue) -> list[tuple[str, str]] | None:
    """The metrics an experiment names (the ``hparams`` plugin's ``experiment``):
    ``(group, tag)`` each, the group a run below the session's; None when ``v`` holds
    no experiment."""
    if v.plugin != HPARAMS or v.content is None:
        return None
    experiment = _field(v.content, 2)
    if experiment is None:
        return None
    out = []
    try:
        infos = read_fields(experiment, _MAX_FIELDS).items
    except WireError:
        return None
    for number, wire, info in infos:
        if number == 5 and wire == LENGTH and isinstance(info, bytes):
            name = _field(info, 1) or b""
            group, tag = _field(name, 1) or b"", _field(name, 2) or b""
            out.append((group.decode("utf-8", "replace"), tag.decode("utf-8", "replace")))
    return out


def _plain(value: Any) -> bool | float | str | None:
    which = value.WhichOneof("kind")
    if which == "number_value":
        return float(value.number_value)
    if which == "string_value":
        return str(value.string_value)
    if which == "bool_value":
        return bool(value.bool_value)
    return None


def _field(data: bytes, number: int) -> bytes | None:
    """The last bytes field ``number`` of ``data`` (as protobuf merges a message
    field written twice, the last wins for a scalar), or None."""
    try:
        fields = read_fields(data, _MAX_FIELDS).items
    except WireError:
        return None
    found = None
    for n, wire, value in fields:
        if n == number and wire == LENGTH and isinstance(value, bytes):
            found = value
    return found
