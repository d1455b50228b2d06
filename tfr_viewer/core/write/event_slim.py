"""A slimmer copy of TensorBoard event files, event by event: the values of tags or
plugins dropped, graph definitions and run metadata dropped, every Nth point of chosen
tags kept, or the summaries of a range of steps kept; everything else copied as it is.

An event is rewritten at the wire level, never re-encoded from a parse: its fields are
kept in their order and bytes, the summary's kept values byte for byte; an event left
with no value is dropped. TensorFlow 2 writes a tag's metadata (its plugin) with the
first value of the tag in each file only; when that value is dropped, the metadata is
carried to the tag's first value kept in that file, so that TensorBoard still knows
the plugin of every tag kept. A record that is no event, or that cannot be read as one,
is copied as it is."""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from dataclasses import dataclass

from ..decode.wire import FIXED32, FIXED64, LENGTH, VARINT, WireError, read_fields, read_varint

_STEP, _SUMMARY, _VALUE = 2, 5, 1  # Event.step, Event.summary, Summary.value
_GRAPHS = {4: "graph_def", 8: "tagged_run_metadata", 9: "meta_graph_def"}  # Event fields
_TAG, _METADATA = 1, 9  # Summary.Value fields
_TF1_PLUGINS = {2: "scalars", 4: "images", 5: "histograms", 6: "audio"}  # Value kinds
_RUN_WIDE = "hparams"  # a plugin whose values describe the run, kept by steps and thinning


@dataclass(frozen=True)
class SlimRules:
    """What a slimmer copy leaves out: the values of tags matching a pattern of
    ``drop_tags`` (shell patterns: ``train/*``) and of the plugins ``drop_plugins``;
    graphs and run metadata with ``drop_graphs``; of the tags matching ``thin``, all
    but every ``every``-th point (the first, the ``every + 1``-th, … of each tag in a
    run); the summaries whose step is outside ``first_step`` to ``stop_step`` (the
    first kept, the last not; None: no bound). A run's hyperparameters are left out
    only by a tag or plugin dropped."""

    drop_tags: tuple[str, ...] = ()
    drop_plugins: tuple[str, ...] = ()
    drop_graphs: bool = False
    every: int = 1
    thin: tuple[str, ...] = ("*",)
    first_step: int | None = None
    stop_step: int | None = None

    def __post_init__(self) -> None:
        if self.every < 1:
            raise ValueError(f"every {self.every}: keep every Nth point with N of 1 or more")

    def drops_tag(self, tag: str, plugin: str) -> bool:
        return plugin in self.drop_plugins or _matches(tag, self.drop_tags)

    def in_steps(self, step: int) -> bool:
        return (self.first_step is None or step >= self.first_step) and (
            self.stop_step is None or step < self.stop_step
        )


def _matches(tag: str, patterns: Sequence[str]) -> bool:
    return any(fnmatch.fnmatchcase(tag, p) for p in patterns)


def _spans(data: bytes) -> list[tuple[int, int, int, int]]:
    """The top-level fields of a message as ``(number, wire type, start, end)``, each
    field's bytes from its key; :class:`WireError` for anything but a well-formed
    message without groups."""
    out, pos = [], 0
    while pos < len(data):
        start = pos
        key, pos = read_varint(data, pos)
        number, wire = key >> 3, key & 7
        if number < 1:
            raise WireError(f"field number 0 at byte {start}")
        if wire == VARINT:
            _, pos = read_varint(data, pos)
        elif wire == FIXED64:
            pos += 8
        elif wire == FIXED32:
            pos += 4
        elif wire == LENGTH:
            size, pos = read_varint(data, pos)
            pos += size
        else:
            raise WireError(f"wire type {wire} at byte {start}")
        if pos > len(data):
            raise WireError(f"field {number} at byte {start} runs past the end")
        out.append((number, wire, start, pos))
    return out


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _length_field(number: int, body: bytes) -> bytes:
    return _varint(number << 3 | LENGTH) + _varint(len(body)) + body


def _body(data: bytes, start: int, end: int) -> bytes:
    """The bytes of the length-delimited field at ``start``."""
    _, pos = read_varint(data, start)
    _, pos = read_varint(data, pos)
    return data[pos:end]


def _plugin(metadata: bytes | None) -> str:
    """The plugin name of a SummaryMetadata (``""`` when it names none)."""
    if not metadata:
        return ""
    for number, wire, value in read_fields(metadata).items:
        if number == 1 and wire == LENGTH and isinstance(value, bytes):  # plugin_data
            for n, w, v in read_fields(value).items:
                if n == 1 and w == LENGTH and isinstance(v, bytes):  # plugin_name
                    return v.decode("utf-8", "replace")
    return ""


@dataclass
class SlimCounts:
    """What a slimmer has left out so far."""

    values_dropped: int = 0
    events_dropped: int = 0
    metadata_moved: int = 0


class EventSlimmer:
    """Slims the events of one run, file by file (:meth:`next_file` before each), in
    the order they were written; ``counts`` says what it left out."""

    def __init__(self, rules: SlimRules) -> None:
        self.rules = rules
        self.counts = SlimCounts()
        self._points: dict[str, int] = {}  # the points of each thinned tag seen
        self._plugins: dict[str, str] = {}  # each tag's plugin, from its first metadata
        self._metadata: dict[str, bytes] = {}  # each tag's metadata, from its first value
        self._described: set[str] = set()  # tags whose metadata this file holds

    def next_file(self) -> None:
        """The events that follow are another file's."""
        self._described = set()

    def slim(self, payload: bytes) -> bytes | None:
        """The event ``payload`` as the copy keeps it (``payload`` itself when it is
        kept as it is), or None when it is left out."""
        try:
            fields = _spans(payload)
        except WireError:
            return payload  # no event: copied as it is
        numbers = {f[0] for f in fields}
        if self.rules.drop_graphs and numbers & _GRAPHS.keys():
            self.counts.events_dropped += 1
            return None
        summary = next((f for f in fields if f[0] == _SUMMARY and f[1] == LENGTH), None)
        if summary is None:
            return payload
        step = 0
        for number, wire, start, _ in fields:
            if number == _STEP and wire == VARINT:
                _, pos = read_varint(payload, start)
                raw, _ = read_varint(payload, pos)
                step = raw - (1 << 64) if raw >= 1 << 63 else raw
        try:
            kept = self._kept_values(_body(payload, summary[2], summary[3]), step)
        except WireError:
            return payload
        if kept is None:
            return payload  # every value kept as it is
        if not kept:
            self.counts.events_dropped += 1
            return None
        new_summary = _length_field(_SUMMARY, b"".join(_length_field(_VALUE, v) for v in kept))
        return payload[: summary[2]] + new_summary + payload[summary[3] :]

    def _kept_values(self, summary: bytes, step: int) -> list[bytes] | None:
        """The values of a summary the copy keeps, each as its bytes (a value whose
        tag's metadata is carried to it, with it); None when every value is kept as it
        is."""
        kept: list[bytes] = []
        changed = False
        for number, wire, start, end in _spans(summary):
            if number != _VALUE or wire != LENGTH:
                changed = True  # a field a summary does not have: left out
                continue
            value = _body(summary, start, end)
            tag, metadata, kind = "", None, 0
            for n, w, v in read_fields(value).items:
                if n == _TAG and w == LENGTH and isinstance(v, bytes):
                    tag = v.decode("utf-8", "replace")
                elif n == _METADATA and w == LENGTH and isinstance(v, bytes):
                    metadata = v
                elif n in _TF1_PLUGINS or n == 8:
                    kind = n
            if metadata is not None and tag not in self._metadata:
                self._metadata[tag] = metadata
                self._plugins[tag] = _plugin(metadata)
            plugin = self._plugins.get(tag) or _TF1_PLUGINS.get(kind, "")
            if not self._keeps(tag, plugin, step):
                self.counts.values_dropped += 1
                changed = True
                continue
            if metadata is None and tag not in self._described and tag in self._metadata:
                value += _length_field(_METADATA, self._metadata[tag])
                self.counts.metadata_moved += 1
                changed = True
            self._described.add(tag)
            kept.append(value)
        return kept if changed else None

    def _keeps(self, tag: str, plugin: str, step: int) -> bool:
        rules = self.rules
        if rules.drops_tag(tag, plugin):
            return False
        if plugin == _RUN_WIDE:
            return True  # a run's hyperparameters, whatever the steps kept
        if not rules.in_steps(step):
            return False
        if rules.every > 1 and _matches(tag, rules.thin):
            seen = self._points.get(tag, 0)
            self._points[tag] = seen + 1
            return seen % rules.every == 0
        return True
