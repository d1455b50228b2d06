"""TF-Ranking's ExampleListWithContext (ELWC): ``repeated Example examples = 1;
Example context = 2``, a query's context and the list of items to rank.

Its bytes also parse as a SequenceExample (and a list of one Example as an Example), with
keys made of the bytes of the messages inside: this decoder bids above both when its
reading is strict and every key is printable text, and they bid lower when theirs is not.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...text import plural
from .. import proto
from ..payload_types import Bid, ExampleListPayload
from ..strict_parse import strict
from .features import features_data, printable_keys

if TYPE_CHECKING:
    from ..layouts import ImageAnnotation, KeyMap
    from ..outline import Nested, Outline

NAME = "elwc"
CEILING = 98  # the highest bid :func:`bid` makes
TYPE = "elwc"


def parse_strict(data: bytes) -> Any | None:
    """The parsed message when ``data`` is strictly an ELWC with printable keys and at
    least one Example, or a context with features (a query with no items yet); None
    otherwise."""
    msg = strict(proto.ExampleListWithContext, data)
    if msg is None or not (msg.examples or msg.context.features.feature):
        return None
    maps = [e.features.feature for e in msg.examples] + [msg.context.features.feature]
    return msg if printable_keys(*maps) else None


def bid(data: bytes) -> Bid:
    msg = parse_strict(data)
    return Bid(98 if msg is not None else 0, msg)


def decode(data: bytes, parsed: Any = None) -> ExampleListPayload:
    msg: Any = parsed if parsed is not None else parse_strict(data)
    if msg is None:
        raise ValueError("not a valid ExampleListWithContext")
    return ExampleListPayload(
        features_data(msg.context.features),
        tuple(features_data(e.features) for e in msg.examples),
    )


def to_json(p: ExampleListPayload, lazy: bool) -> dict[str, Any]:
    """``{context: {key: {kind, values}}, examples: [{key: {kind, values}}, ...]}``."""
    from ..to_json import features_json

    return {
        "context": features_json(p.context, lazy),
        "examples": [features_json(e, lazy) for e in p.examples],
    }


def render(record: dict[str, Any]) -> Iterator[str]:
    from ..text_form import features_lines

    yield "  context:"
    yield from features_lines(record["context"], "    ")
    yield f"  examples: {len(record['examples'])}"
    for i, features in enumerate(record["examples"]):
        yield f"    [{i}]"
        yield from features_lines(features, "      ")


def outline(p: ExampleListPayload, key: str, depth: int, nested: Nested) -> list[Outline]:
    from ..outline import MAX_CHILDREN, Outline
    from .outlines import grouped

    context = Outline("context", "", plural(len(p.context), "key"))
    for node in grouped(p.context, depth, nested):
        context.add(node)
    examples = Outline("examples", "", plural(len(p.examples), "example"))
    for i, features in enumerate(p.examples[:MAX_CHILDREN]):
        item = examples.add(Outline(f"[{i}]", "example", plural(len(features), "key")))
        for node in grouped(features, depth, nested):
            item.add(node)
    return [context, examples]


def images(p: ExampleListPayload, keymap: KeyMap | None) -> list[ImageAnnotation]:
    """The context's pictures, then each Example's, by their layout."""
    from ..layouts import recognise

    return [a for features in (p.context, *p.examples) for a in recognise(features, keymap)]
