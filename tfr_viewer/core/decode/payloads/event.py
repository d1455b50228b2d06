"""TensorBoard events (``events.out.tfevents.*`` files are TFRecords of ``Event``).

An Event holds its wall time (field 1, a double) and step (2), then one of: the file's
version (3), a graph (4, 9), a summary (5) of tagged values, a log message (6), a
session status (7) or run metadata (8). Summary values are scalars (``simple_value``),
images, histograms, audio, or tensors (how TensorFlow 2 writes every summary, the
plugin named in the value's metadata). The fields are read from the wire format by
:mod:`..wire`, with their numbers as TensorFlow's ``event.proto`` and ``summary.proto``
define them; this decoder bids only for a message that starts like an Event and holds
no field an Event cannot.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from ..payload_types import Bid
from ..wire import FIXED32, FIXED64, LENGTH, VARINT, WireError, WireField, read_fields

if TYPE_CHECKING:
    from ..layouts import ImageAnnotation, KeyMap
    from ..outline import Nested, Outline
    from ..payload_types import TensorPayload

NAME = "event"
CEILING = 97  # the highest bid :func:`bid` makes
TYPE = "event"
MAX_VALUES = 10_000  # summary values read from one event

# Event field -> (name, wire type)
EVENT_FIELDS = {
    1: ("wall_time", FIXED64),
    2: ("step", VARINT),
    3: ("file_version", LENGTH),
    4: ("graph_def", LENGTH),
    5: ("summary", LENGTH),
    6: ("log_message", LENGTH),
    7: ("session_log", LENGTH),
    8: ("tagged_run_metadata", LENGTH),
    9: ("meta_graph_def", LENGTH),
    10: ("source_metadata", LENGTH),
}
_SESSION = {0: "unspecified", 1: "start", 2: "stop", 3: "checkpoint"}
_LEVELS = {0: "unknown", 10: "debugging", 20: "info", 30: "warn", 40: "error", 50: "fatal"}


@dataclass(frozen=True)
class SummaryValue:
    """One tagged value of a summary: ``kind`` is scalar, image, histogram, audio,
    tensor or empty; ``value`` a scalar's number; ``image`` an image's encoded bytes;
    ``tensor`` a tensor value (TensorFlow 2 writes a scalar as a tensor of one element);
    ``detail`` what else there is to say (a histogram's count and range); ``size`` the
    bytes the value takes in its summary; ``histo`` a TensorFlow 1 histogram's
    ``HistogramProto``; ``content`` the plugin's own bytes (its metadata's
    ``plugin_data.content``: hyperparameters, a PR curve's thresholds)."""

    tag: str
    kind: str
    plugin: str | None = None
    value: float | None = None
    image: bytes | None = None
    tensor: TensorPayload | None = None
    detail: str = ""
    size: int = 0
    histo: bytes | None = None
    content: bytes | None = None


@dataclass(frozen=True)
class EventPayload:
    wall_time: float
    step: int
    what: str  # the field of the oneof that is set, or "none"
    file_version: str | None = None
    values: tuple[SummaryValue, ...] = ()
    message: str | None = None  # a log message or a session status, as text
    size: int = 0  # bytes of a graph or of run metadata
    type: str = field(default="event", init=False)


def _fields(data: bytes) -> list[WireField]:
    return read_fields(data, MAX_VALUES * 4).items


def _first(fields: list[WireField], number: int, wire: int) -> Any:
    for n, w, v in fields:
        if n == number and w == wire:
            return v
    return None


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else ""


def _double(bits: int) -> float:
    return float(struct.unpack("<d", bits.to_bytes(8, "little"))[0])


def _float(bits: int) -> float:
    return float(struct.unpack("<f", bits.to_bytes(4, "little"))[0])


def bid(data: bytes) -> Bid:
    """97 for a message whose fields are an Event's, wall time first."""
    if len(data) < 9 or data[0] != (1 << 3 | FIXED64):
        return Bid(0)
    try:
        fields = read_fields(data, 64).items
    except WireError:
        return Bid(0)
    seen = set()
    for number, wire, _ in fields:
        expected = EVENT_FIELDS.get(number)
        if expected is None or expected[1] != wire or number in seen:
            return Bid(0)
        seen.add(number)
    return Bid(97)


def _value(body: bytes) -> SummaryValue:
    """One ``Summary.Value`` of ``body``; its ``size`` as the summary holds it (its
    field's key and length too)."""
    fields = _fields(body)
    size = len(body) + 1 + _varint_size(len(body))
    tag = _text(_first(fields, 1, LENGTH))
    plugin = content = None
    if (meta := _first(fields, 9, LENGTH)) is not None:
        if (plugin_data := _first(_fields(meta), 1, LENGTH)) is not None:
            parts = _fields(plugin_data)
            plugin = _text(_first(parts, 1, LENGTH)) or None
            content = _first(parts, 2, LENGTH)
    common: dict[str, Any] = {"plugin": plugin, "size": size, "content": content}
    if (bits := _first(fields, 2, FIXED32)) is not None:
        return SummaryValue(tag, "scalar", value=_float(bits), **common)
    if (image := _first(fields, 4, LENGTH)) is not None:
        parts = _fields(image)
        encoded = _first(parts, 4, LENGTH) or b""
        shape = f"{_first(parts, 2, VARINT) or 0}×{_first(parts, 1, VARINT) or 0}"
        return SummaryValue(tag, "image", image=encoded, detail=shape, **common)
    if (histo := _first(fields, 5, LENGTH)) is not None:
        parts = _fields(histo)
        low, high, count = (_double(_first(parts, n, FIXED64) or 0) for n in (1, 2, 3))
        return SummaryValue(
            tag,
            "histogram",
            detail=f"{count:g} values in [{low:g}, {high:g}]",
            histo=histo,
            **common,
        )
    if (audio := _first(fields, 6, LENGTH)) is not None:
        rate = _first(_fields(audio), 1, FIXED32)
        return SummaryValue(tag, "audio", detail=f"{_float(rate or 0):g} Hz", **common)
    if (tensor := _first(fields, 8, LENGTH)) is not None:
        from . import tensor as tensor_decoder

        try:
            decoded = tensor_decoder.decode(tensor)
        except Exception as exc:  # noqa: BLE001 - the rest of the event still shows
            return SummaryValue(
                tag, "tensor", detail=f"the tensor does not decode: {exc}", **common
            )
        return SummaryValue(tag, "tensor", tensor=decoded, **common)
    return SummaryValue(tag, "", **common)


def _varint_size(n: int) -> int:
    return max(1, (n.bit_length() + 6) // 7)


def decode(data: bytes, parsed: Any = None) -> EventPayload:
    fields = _fields(data)
    wall_time = _double(_first(fields, 1, FIXED64) or 0)
    step = _first(fields, 2, VARINT) or 0
    step = step - (1 << 64) if step >= 1 << 63 else step
    what = next((EVENT_FIELDS[n][0] for n, _, _ in fields if 3 <= n <= 9), "none")
    found = next((v for n, _, v in fields if 3 <= n <= 9), b"")
    body = found if isinstance(found, bytes) else b""
    if what == "file_version":
        return EventPayload(wall_time, step, what, file_version=_text(body))
    if what == "summary":
        listed = [v for n, _, v in _fields(body)[:MAX_VALUES] if n == 1]
        values = tuple(_value(v) for v in listed if isinstance(v, bytes))
        return EventPayload(wall_time, step, what, values=values)
    if what == "log_message":
        parts = _fields(body)
        level = _LEVELS.get(_first(parts, 1, VARINT) or 0, "unknown")
        return EventPayload(
            wall_time, step, what, message=f"{level}: {_text(_first(parts, 2, LENGTH))}"
        )
    if what == "session_log":
        parts = _fields(body)
        status = _SESSION.get(_first(parts, 1, VARINT) or 0, "unspecified")
        extra = [_text(_first(parts, n, LENGTH)) for n in (2, 3)]
        return EventPayload(wall_time, step, what, message=" ".join([status, *filter(None, extra)]))
    return EventPayload(wall_time, step, what, size=len(body))


def _when(wall_time: float) -> str:
    try:
        moment = datetime.fromtimestamp(wall_time, timezone.utc)
    except (OverflowError, OSError, ValueError):
        return ""
    return moment.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3] + " UTC"


def _value_json(v: SummaryValue) -> dict[str, Any]:
    from ...text import shortest_float32
    from ..to_json import bytes_value
    from . import tensor as tensor_decoder

    out: dict[str, Any] = {"tag": v.tag, "kind": v.kind}
    if v.plugin is not None:
        out["plugin"] = v.plugin
    if v.value is not None:
        out["value"] = shortest_float32(v.value)
    if v.image is not None:
        out["image"] = bytes_value(v.image)
    if v.tensor is not None:
        out["tensor"] = tensor_decoder.to_json(v.tensor, False)
    if v.detail:
        out["detail"] = v.detail
    return out


def to_json(p: EventPayload, lazy: bool) -> dict[str, Any]:
    """``{wall_time, step, what, file_version?, summary?: [{tag, kind, plugin?, value?,
    image?, tensor?, detail?}], message?, size?}``."""
    out: dict[str, Any] = {"wall_time": p.wall_time, "step": p.step, "what": p.what}
    if p.file_version is not None:
        out["file_version"] = p.file_version
    if p.what == "summary":
        out["summary"] = [_value_json(v) for v in p.values]
    if p.message is not None:
        out["message"] = p.message
    if p.size:
        out["size"] = p.size
    return out


def _shown(v: dict[str, Any]) -> str:
    from ..text_form import bytes_text

    if "image" in v:
        return bytes_text(v["image"])
    if "value" in v:
        return repr(v["value"])
    if "tensor" in v:
        t = v["tensor"]
        values = t["values"]
        return repr(values) if t["shape"] == [] else f"{t['dtype']} {t['shape']}"
    return str(v.get("detail", ""))


def render(record: dict[str, Any]) -> Iterator[str]:
    when = _when(record["wall_time"])
    shown = f"{record['wall_time']!r}" + (f" ({when})" if when else "")
    yield f"  wall_time {shown}  step {record['step']}"
    if "file_version" in record:
        yield f"  file_version {record['file_version']}"
    if "summary" in record:
        width = max((len(v["tag"]) for v in record["summary"]), default=0)
        for v in record["summary"]:
            what = v.get("plugin") or v["kind"] or "-"  # a plugin says what a tensor is
            yield f"  {v['tag']:<{width}}  {what:<10}  {_shown(v)}"
    if "message" in record:
        yield f"  {record['what']}: {record['message']}"
    if "size" in record:
        yield f"  {record['what']}: {record['size']:,} bytes"


def outline(p: EventPayload, key: str, depth: int, nested: Nested) -> list[Outline]:
    from ...text import plural, value_text
    from ..outline import Outline, bytes_preview

    nodes = [
        Outline(
            "wall_time",
            "float",
            "",
            f"{p.wall_time!r}  {_when(p.wall_time)}",
            copy=repr(p.wall_time),
        ),
        Outline("step", "int64", "", str(p.step), copy=str(p.step)),
    ]
    if p.file_version is not None:
        nodes.append(Outline("file_version", "text", "", p.file_version, copy=p.file_version))
    if p.what == "summary":
        summary = Outline("summary", "", plural(len(p.values), "value"))
        for v in p.values:
            if v.image is not None:
                text = bytes_preview(v.image)[0]
            elif v.value is not None:
                text = repr(v.value)
            elif v.tensor is not None and not v.tensor.shape:
                text = value_text(v.tensor.values.ravel()[0])
            elif v.tensor is not None:
                text = f"{v.tensor.dtype} {'×'.join(map(str, v.tensor.shape))}"
            else:
                text = v.detail
            kind = v.kind + (f" ({v.plugin})" if v.plugin else "")
            summary.add(Outline(v.tag, kind, "", text, key=v.tag, copy=text))
        nodes.append(summary)
    if p.message is not None:
        nodes.append(Outline(p.what, "text", "", p.message, copy=p.message))
    if p.size:
        nodes.append(Outline(p.what, "bytes", f"{p.size:,}"))
    return nodes


def images(p: EventPayload, keymap: KeyMap | None) -> list[ImageAnnotation]:
    """The pictures of an image summary: a TensorFlow 1 image value, or the encoded
    images of a TensorFlow 2 ``images`` tensor (its width and height come first)."""
    from ..layouts import whole_images

    found: list[tuple[str, bytes]] = []
    for v in p.values:
        if v.image is not None:
            found.append((v.tag, v.image))
        elif v.tensor is not None and v.plugin == "images" and v.tensor.dtype == "string":
            found.extend((v.tag, bytes(b)) for b in v.tensor.values.ravel().tolist()[2:])
    return whole_images(found)
