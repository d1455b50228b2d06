"""tf.train.Example: the most common payload; bids highest when it parses strictly.

What is shown is what TensorFlow's parser reads (:mod:`..tf_example`): where protobuf
reads a payload otherwise (a second list after a feature's first, fields TensorFlow
skips, keys that are not UTF-8), or TensorFlow's parser refuses it, a note says so.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..payload_types import Bid, ExamplePayload, Features
from ..strict_parse import example_message as parse_strict
from ..tf_example import CODE, NO_FEATURES, OK, TFReading, read_example, verdict
from .features import features_data, printable_keys

if TYPE_CHECKING:
    from ..layouts import ImageAnnotation, KeyMap
    from ..outline import Nested, Outline

NAME = "example"
CEILING = 100  # the highest bid :func:`bid` makes


def holds_nothing(data: bytes) -> bool:
    """Whether ``data`` is an Example without a feature: no bytes at all, or an Example
    message (with no field an Example lacks) whose features are empty."""
    if not data:
        return True
    msg = parse_strict(data)
    return msg is not None and not msg.features.feature  # type: ignore[attr-defined]


def bid(data: bytes) -> Bid:
    if (msg := parse_strict(data)) is not None:
        # keys that are not printable text come of reading another message (a list of
        # Examples) as one: that reading bids below the message's own
        keys = msg.features.feature  # type: ignore[attr-defined]
        return Bid(100 if printable_keys(keys) else 95, msg)
    if not data:
        return Bid(0)
    # TensorFlow's parser reads it, with at least one feature: below a SequenceExample
    # (which TensorFlow would read as an Example of its context).
    code, _ = verdict(data)
    return Bid(89 if code & (CODE | NO_FEATURES) == OK else 0)


def _note(reading: TFReading) -> str | None:
    notes = []
    if reading.bad_keys:
        notes.append(
            f"{len(reading.bad_keys)} feature key(s) are not valid UTF-8 "
            f"({', '.join(reading.bad_keys[:3])}); TensorFlow's parser reads such an Example "
            "(protobuf refuses it); the keys are shown with \\x escapes"
        )
    if reading.differs:
        names = ", ".join(reading.differs[:3])
        notes.append(
            f"shown as TensorFlow reads it: protobuf reads {names} otherwise (bytes follow "
            "the first list, which TensorFlow reads alone)"
        )
    elif reading.skipped_features:
        notes.append("shown as TensorFlow reads it: protobuf reads the features otherwise")
    return "; ".join(notes) or None


def protobuf_reading(data: bytes) -> Features | None:
    """The features as protobuf reads them, or None when it refuses the payload."""
    msg = parse_strict(data)
    return None if msg is None else features_data(msg.features)  # type: ignore[attr-defined]


def decode(data: bytes, parsed: Any = None) -> ExamplePayload:
    """The Example as TensorFlow's parser reads it; one that parser refuses is shown as
    protobuf reads it, with a note saying where TensorFlow's parser fails. ``parsed``:
    the message as :func:`bid` read it strictly."""
    code, _ = verdict(data)
    msg: Any = parsed if parsed is not None else parse_strict(data)
    if code & ~NO_FEATURES == OK and msg is not None:
        # TensorFlow and protobuf read it alike: protobuf's values
        return ExamplePayload(features_data(msg.features))
    reading = read_example(data)
    if reading.failure is None and reading.features_fields:
        return ExamplePayload(reading.features, _note(reading))
    if msg is None or reading.failure is None:
        raise ValueError("not a valid tf.train.Example")
    note = (
        f"tf.io.parse_single_example refuses this record ({reading.failure.message()}); "
        "shown as protobuf reads it"
    )
    return ExamplePayload(features_data(msg.features), note)


TYPE = "example"


def to_json(p: ExamplePayload, lazy: bool) -> dict[str, Any]:
    """``{features, note?}``."""
    from ..to_json import features_json

    out: dict[str, Any] = {"features": features_json(p.features, lazy)}
    if p.note:
        out["note"] = p.note
    return out


def render(record: dict[str, Any]) -> Iterator[str]:
    from ..text_form import features_lines

    if record.get("note"):
        yield f"  ({record['note']})"
    yield from features_lines(record["features"], "  ")


def outline(p: ExamplePayload, key: str, depth: int, nested: Nested) -> list[Outline]:
    """The features grouped by the ``/`` of their keys; a robot-learning episode's
    ``steps/...`` as one ``steps`` node of its steps (:mod:`..episode_outline`)."""
    from ..episodes import STEPS, read_episode
    from ..outline import Outline
    from .outlines import grouped

    notes = [Outline("note", value=p.note)] if p.note else []
    episode = read_episode(p.features)
    if episode is None:
        return notes + grouped(p.features, depth, nested)
    from ..episode_outline import episode_outline

    others = {k: fd for k, fd in p.features.items() if not k.startswith(STEPS + "/")}
    return [*notes, episode_outline(episode), *grouped(others, depth, nested)]


def images(p: ExamplePayload, keymap: KeyMap | None) -> list[ImageAnnotation]:
    from ..layouts import recognise

    return recognise(p.features, keymap)
