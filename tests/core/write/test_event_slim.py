"""An event slimmed at the wire level: the fields it keeps byte for byte, its values
left out by tag, plugin, step or thinning, an event with none left dropped, and any
payload that is no well-formed event copied as it is (never an error)."""

from __future__ import annotations

import pytest

from tests.tf_oracle import tf
from tfr_viewer.core.write.event_slim import EventSlimmer, SlimRules


def _event(step: int, *values, **fields) -> bytes:
    v1 = tf().compat.v1
    summary = v1.Summary(value=list(values)) if values else None
    event = v1.Event(wall_time=1.5, step=step, **fields)
    if summary is not None:
        event.summary.CopyFrom(summary)
    return event.SerializeToString()


def _value(tag: str, number: float):
    return tf().compat.v1.Summary.Value(tag=tag, simple_value=number)


def _parsed(payload: bytes):
    event = tf().compat.v1.Event()
    event.ParseFromString(payload)
    return event


def test_a_value_left_out_the_rest_byte_for_byte():
    payload = _event(7, _value("keep", 1.0), _value("drop/me", 2.0), _value("keep2", 3.0))
    slim = EventSlimmer(SlimRules(drop_tags=("drop/*",))).slim(payload)
    assert slim is not None and len(slim) < len(payload)
    event = _parsed(slim)
    assert (event.wall_time, event.step) == (1.5, 7)
    assert [(v.tag, v.simple_value) for v in event.summary.value] == [("keep", 1.0), ("keep2", 3.0)]


def test_kept_as_it_is_is_the_same_bytes_and_empty_events_are_dropped():
    slimmer = EventSlimmer(SlimRules(drop_plugins=("histograms",), drop_graphs=True))
    payload = _event(1, _value("loss", 0.5))
    assert slimmer.slim(payload) is payload
    version = tf().compat.v1.Event(wall_time=1.0, file_version="brain.Event:2")
    assert slimmer.slim(version.SerializeToString()) is not None
    histo = tf().compat.v1.Summary.Value(tag="h", histo=tf().compat.v1.HistogramProto(num=1))
    assert slimmer.slim(_event(2, histo)) is None
    assert slimmer.slim(_event(3, graph_def=b"\n\x02\n\x00")) is None
    assert slimmer.counts.events_dropped == 2 and slimmer.counts.values_dropped == 1


def test_steps_and_thinning():
    slimmer = EventSlimmer(SlimRules(every=3, thin=("loss",), first_step=2, stop_step=12))
    kept = [
        step
        for step in range(15)
        if slimmer.slim(_event(step, _value("loss", float(step)))) is not None
    ]
    assert kept == [2, 5, 8, 11]
    with pytest.raises(ValueError, match="every 0"):
        SlimRules(every=0)


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"\xff\xff\xff",
        b"\x2a\xff\xff\xff\xff\x0f",  # a summary claiming 4 GB
        b"\x2a\x03\x0a\x05ab",  # a value running past its summary
        b"\x0b\x00\x0c",  # a group
        bytes(range(256)),
    ],
)
def test_what_is_no_event_is_copied_as_it_is(payload):
    slimmer = EventSlimmer(SlimRules(drop_tags=("*",), drop_graphs=True, every=2))
    assert slimmer.slim(payload) == payload
