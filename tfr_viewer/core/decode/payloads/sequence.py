"""tf.train.SequenceExample: context features plus feature lists.

A SequenceExample with only a context is byte-identical to an Example, so this decoder
bids only when feature lists are present, below the Example decoder.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...text import plural
from .. import proto
from ..payload_types import Bid, SequenceExamplePayload
from ..strict_parse import strict
from .features import feature_data, features_data, printable_keys

if TYPE_CHECKING:
    from ..layouts import ImageAnnotation, KeyMap
    from ..outline import Nested, Outline

NAME = "sequence_example"
CEILING = 90  # the highest bid :func:`bid` makes


def parse_strict(data: bytes) -> object | None:
    msg = strict(proto.SequenceExample, data)
    return msg if msg is not None and msg.HasField("feature_lists") else None


def bid(data: bytes) -> Bid:
    """90 for a strict SequenceExample; 50 when its keys are not printable text (the
    bytes of another message read as one: an ExampleListWithContext)."""
    msg = parse_strict(data)
    if msg is None:
        return Bid(0)
    maps = (msg.context.feature, msg.feature_lists.feature_list)  # type: ignore[attr-defined]
    return Bid(90 if printable_keys(*maps) else 50, msg)


def decode(data: bytes, parsed: Any = None) -> SequenceExamplePayload:
    msg: Any = parsed if parsed is not None else parse_strict(data)
    if msg is None:
        raise ValueError("not a valid tf.train.SequenceExample")
    lists = msg.feature_lists.feature_list
    return SequenceExamplePayload(
        features_data(msg.context),
        {key: [feature_data(f) for f in lists[key].feature] for key in sorted(lists)},
    )


TYPE = "sequence_example"


def to_json(p: SequenceExamplePayload, lazy: bool) -> dict[str, Any]:
    """``{context, feature_lists: {key: [{kind, values}, ...]}}``."""
    from ..to_json import feature_json, features_json

    return {
        "context": features_json(p.context, lazy),
        "feature_lists": {
            k: [feature_json(s, lazy) for s in steps] for k, steps in p.feature_lists.items()
        },
    }


def render(record: dict[str, Any]) -> Iterator[str]:
    from ..text_form import MAX_VALUES, features_lines, values_text

    yield "  context:"
    yield from features_lines(record["context"], "    ")
    yield "  feature_lists:"
    for key, steps in record["feature_lists"].items():
        yield f"    {key}: {len(steps)} steps"
        for i, step in enumerate(steps[:MAX_VALUES]):
            yield f"      [{i}] {step['kind']:<5} {values_text(step)}"


def outline(p: SequenceExamplePayload, key: str, depth: int, nested: Nested) -> list[Outline]:
    from ..outline import MAX_CHILDREN, Outline
    from .outlines import feature_outline, grouped

    ctx = Outline("context", "", plural(len(p.context), "key"))
    for n in grouped(p.context, depth, nested):
        ctx.add(n)
    lists = Outline("feature_lists", "", plural(len(p.feature_lists), "key"))
    for k, steps in p.feature_lists.items():
        kn = lists.add(Outline(k, "", plural(len(steps), "step"), key=k))
        for i, step in enumerate(steps[:MAX_CHILDREN]):
            kn.add(feature_outline(f"[{i}]", step, k, depth, nested))
    return [ctx, lists]


def images(p: SequenceExamplePayload, keymap: KeyMap | None) -> list[ImageAnnotation]:
    """The context's pictures (by its layout), then every frame of each feature list
    that holds pictures, in step order (layout ``frames``, ``index`` the step)."""
    from ..layouts import frame_images, recognise

    return recognise(p.context, keymap) + frame_images(p.feature_lists)
