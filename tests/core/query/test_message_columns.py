"""A filter's values of a field path of a project's own records: the straight reading
of a path through singular messages gives what the general walk through each message
gives, for every kind of leaf and for a message that is not set."""

from __future__ import annotations

import pytest

from tests.user_protos import frames, generated, proto_folder
from tfr_viewer.core.decode import message_types
from tfr_viewer.core.query.message_columns import MessageValue, _getter
from tfr_viewer.core.query.ops import fields_of

PATHS = [
    "context.name",  # a string under a message
    "timestamp_micros",
    "seed",
    "night",
    "taken.seconds",  # under a message some records leave unset
    "taken.nanos",
    "context.stats",  # a map: the general walk
    "images",  # repeated messages: the general walk
    "images.name",  # an enum under repeated messages: the general walk
    "lasers.ranges",
]


@pytest.fixture(scope="module")
def kind(tmp_path_factory):
    protos = proto_folder(tmp_path_factory.mktemp("columns"))
    return message_types.load(str(protos)).get("drive.Frame")


def _walked(message, key):
    values = [MessageValue(message)]
    for name in key.split("."):
        values = fields_of(values, name)
    return values


def _comparable(values):
    return [repr(v) if isinstance(v, MessageValue) else v for v in values]


@pytest.mark.parametrize("key", PATHS)
def test_the_straight_reading_gives_the_general_walks_values(kind, key):
    g = generated()
    messages = [kind.parse(m.SerializeToString()) for m in frames(6)]
    bare = g.frame.Frame(timestamp_micros=1)  # no context, no taken
    messages.append(kind.parse(bare.SerializeToString()))
    get = _getter(kind, key)
    for m in messages:
        ours = get(m)
        if key in ("context.stats", "images"):
            assert len(ours) == len(_walked(m, key))
            continue
        assert _comparable(ours) == _comparable(_walked(m, key)), key
    if key.startswith(("taken.", "context.")):
        assert get(messages[-1]) == []  # under a message the record does not set
