"""TF-Ranking's ExampleListWithContext read as itself, not as a SequenceExample with
keys made of bytes (both parse strictly), nor as one Example."""

from __future__ import annotations

import json

import pytest

from tests.program import program
from tests.protoc_modules import compile_proto
from tests.tf_oracle import tf, tf_write
from tfr_viewer.core.decode.payloads import choose, decode

# TF-Ranking's message, its Examples held as their serialized bytes (the same wire)
ELWC = """
syntax = "proto3";
package tensorflow_serving;
message ExampleListWithContext {
  repeated bytes examples = 1;
  bytes context = 2;
}
"""


def _example(**values):
    t = tf()
    feature = {}
    for key, value in values.items():
        if isinstance(value, bytes):
            feature[key] = t.train.Feature(bytes_list=t.train.BytesList(value=[value]))
        elif isinstance(value, float):
            feature[key] = t.train.Feature(float_list=t.train.FloatList(value=[value]))
        else:
            feature[key] = t.train.Feature(int64_list=t.train.Int64List(value=[value]))
    return t.train.Example(features=t.train.Features(feature=feature)).SerializeToString()


def test_a_context_without_items_is_an_elwc_too():
    data = _elwc(0)
    assert choose(data).NAME == "elwc"
    payload = decode(data).payload
    assert payload.examples == () and payload.context["query_id"].items() == [7]


def _elwc(items: int, context: bool = True) -> bytes:
    module = compile_proto(ELWC)
    msg = module.ExampleListWithContext(
        examples=[
            _example(doc_id=i, relevance=float(i % 3), title=b"doc %d" % i) for i in range(items)
        ]
    )
    if context:
        msg.context = _example(query=b"red shoes", query_id=7)
    return msg.SerializeToString()


@pytest.mark.parametrize(("items", "context"), [(3, True), (1, True), (4, False), (1, False)])
def test_an_elwc_is_read_as_its_list_and_context(tmp_path, items, context):
    data = _elwc(items, context)
    assert choose(data).NAME == "elwc"
    payload = decode(data).payload
    t = tf()
    module = compile_proto(ELWC)
    message = module.ExampleListWithContext.FromString(data)
    assert len(payload.examples) == items
    for ours, theirs in zip(payload.examples, message.examples, strict=True):
        example = t.train.Example.FromString(theirs)
        assert sorted(ours) == sorted(example.features.feature)
        assert ours["doc_id"].items() == list(example.features.feature["doc_id"].int64_list.value)
    if context:
        assert payload.context["query"].items() == [b"red shoes"]
    else:
        assert payload.context == {}

    path = tf_write(tmp_path / "elwc.tfrecord", [data])
    shown = json.loads(program("show", "--json", "0", str(path)).stdout)
    assert shown["type"] == "elwc" and len(shown["examples"]) == items
    assert all(k.isprintable() for e in shown["examples"] for k in e)
    text = program("show", "0", str(path)).stdout
    assert f"examples: {items}" in text and "\\x" not in text


def test_examples_and_sequence_examples_are_still_read_as_themselves():
    t = tf()
    assert choose(_example(label=1)).NAME == "example"
    seq = t.train.SequenceExample(
        feature_lists=t.train.FeatureLists(
            feature_list={
                "tokens": t.train.FeatureList(
                    feature=[t.train.Feature(int64_list=t.train.Int64List(value=[1]))]
                )
            }
        )
    ).SerializeToString()
    assert choose(seq).NAME == "sequence_example"
