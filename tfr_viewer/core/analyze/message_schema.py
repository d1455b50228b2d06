"""``schema`` of records read as a project's own message type: every field path of the
type that some record sets (``context.name``; a repeated message's fields as one path
of all their values, ``images.name``), with its type, the records that set it and how
many values a record holds, from the records themselves; the records the type does not
parse counted."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..decode.message_types import is_map, is_repeated
from ..decode.payloads.message import type_name
from ..text import plural

if TYPE_CHECKING:
    from google.protobuf.message import Message

    from ..decode.message_types import MessageType

MAX_DEPTH = 12  # a type that holds itself is followed this deep
MAX_PATHS = 10_000  # the declared paths ordered (a type that holds itself has many)


@dataclass
class PathFacts:
    """One field path: its type, the records that set it, the fewest and most values
    a record that sets it holds."""

    type: str
    records: int = 0
    fewest: int = 0
    most: int = 0


@dataclass
class MessageSchema:
    """The fields of ``message`` set in the records looked at."""

    message: str
    records: int = 0
    unparseable: int = 0
    paths: dict[str, PathFacts] = field(default_factory=dict)
    order: dict[str, int] = field(default_factory=dict)  # the type's paths, as declared

    def ordered(self) -> list[tuple[str, PathFacts]]:
        """The paths in the order the type declares them."""
        last = len(self.order)
        return sorted(self.paths.items(), key=lambda item: self.order.get(item[0], last))

    def add(self, found: Message | None) -> None:
        """One record: its message, or None when the type does not parse it."""
        self.records += 1
        if found is None:
            self.unparseable += 1
            return
        counts: dict[str, tuple[Any, int]] = {}
        for path, kind, n in _leaves(found, "", 0):
            _, before = counts.get(path, (kind, 0))
            counts[path] = (kind, before + n)
        for path, (kind, n) in counts.items():
            facts = self.paths.setdefault(path, PathFacts(type_name(kind)))
            facts.fewest = n if facts.records == 0 else min(facts.fewest, n)
            facts.most = max(facts.most, n)
            facts.records += 1

    def to_json(self) -> dict[str, Any]:
        """``schema --json`` of a message type: ``{message, records, unparseable,
        fields: {path: {type, records, values: [fewest, most]}}}``."""
        return {
            "message": self.message,
            "records": self.records,
            "unparseable": self.unparseable,
            "fields": {
                path: {"type": f.type, "records": f.records, "values": [f.fewest, f.most]}
                for path, f in self.ordered()
            },
        }

    def python(self) -> str:
        """The fields as lines of text (what ``schema`` prints)."""
        lines = [
            f"# {self.message}: {plural(self.records, 'record')} looked at, "
            f"{self.unparseable} the type does not parse"
        ]
        width = max((len(p) for p in self.paths), default=0)
        kinds = max((len(f.type) for f in self.paths.values()), default=0)
        for path, f in self.ordered():
            values = f"{f.fewest}" if f.fewest == f.most else f"{f.fewest}–{f.most}"
            lines.append(
                f"{path:<{width}}  {f.type:<{kinds}}  in {f.records} of {self.records} "
                f"records, {values} value{'s' if f.most != 1 else ''} each"
            )
        return "\n".join(lines) + "\n"

    def conflicts(self) -> list[str]:
        return []  # a field has one type


def _leaves(message: Message, path: str, depth: int) -> Iterator[tuple[str, Any, int]]:
    """``(path, field, values)`` of every field set in ``message`` that holds no
    message, a repeated message's fields once per message."""
    for f, value in message.ListFields():
        here = f"{path}.{f.name}" if path else f.name
        entry = f.message_type
        if is_map(f):
            yield here, f, len(value)
        elif entry is not None and depth < MAX_DEPTH:
            items: Iterable[Any] = value if is_repeated(f) else (value,)
            for item in items:
                yield from _leaves(item, here, depth + 1)
        else:
            yield here, f, len(value) if is_repeated(f) else 1


def message_schema(kind: MessageType, payloads: Iterable[bytes]) -> MessageSchema:
    """The schema of ``payloads`` read as ``kind``."""
    from google.protobuf.message import DecodeError

    declared = itertools.islice(_declared(kind.descriptor), MAX_PATHS)
    found = MessageSchema(kind.name, order={p: i for i, p in enumerate(declared)})
    for data in payloads:
        try:
            found.add(kind.parse(data))
        except DecodeError:
            found.add(None)
    return found


def _declared(descriptor: Any, path: str = "", depth: int = 0) -> Iterator[str]:
    """Every field path of a type, in the order it declares its fields."""
    for f in descriptor.fields:
        here = f"{path}.{f.name}" if path else f.name
        entry = f.message_type
        if entry is not None and not is_map(f) and depth < MAX_DEPTH:
            yield from _declared(entry, here, depth + 1)
        else:
            yield here
