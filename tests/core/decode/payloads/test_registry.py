"""Bidding, the raw-protobuf view, text, bytes, and the labelled fallback."""

from __future__ import annotations

from google.protobuf import descriptor_pb2

from tests.tf_oracle import tf, tf_write
from tfr_viewer.core.decode.payloads import choose, decode
from tfr_viewer.core.decode.payloads.raw_proto import MAX_DEPTH
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.write.build import build_example


def test_a_tensorboard_event_is_protobuf_not_an_empty_example(tmp_path):
    t = tf()
    event = t.compat.v1.Event(wall_time=1234.5, step=7)
    event.summary.value.add(tag="loss", simple_value=0.25)
    data = event.SerializeToString()
    decoded = decode(data)
    assert decoded.decoder == "protobuf"
    fields = {f.number: f for f in decoded.payload.fields}
    assert fields[2].wire_type == 0 and fields[2].value == 7  # step
    assert fields[1].wire_type == 1  # wall_time as fixed64
    summary = fields[5].fields
    value = summary[0].fields
    assert value[0].value == b"loss"


def test_a_message_we_define_is_protobuf():
    msg = descriptor_pb2.FileDescriptorProto(name="x.proto", package="pkg")
    msg.message_type.add(name="Thing").field.add(name="a", number=1, type=5)
    decoded = decode(msg.SerializeToString())
    assert decoded.decoder == "protobuf"
    assert decoded.payload.fields[0].value == b"x.proto"


def test_nesting_is_bounded():
    data = b"\x08\x01"
    for _ in range(MAX_DEPTH + 10):
        data = b"\x12" + bytes([len(data)]) + data  # field 2: not an Example
    payload = decode(data).payload
    depth, node = 0, payload.fields
    while node and node[0].fields is not None:
        depth += 1
        node = node[0].fields
    assert depth <= MAX_DEPTH
    assert payload.truncated


def test_examples_text_and_bytes_bid_in_order():
    assert choose(build_example({"a": 1})).NAME == "example"
    assert choose("héllo\nworld".encode()).NAME == "text"
    assert choose(b"\xff\xfe\xfd").NAME == "bytes"
    assert choose(b"").NAME == "bytes"


def test_an_example_with_an_unknown_field_is_not_an_example():
    data = build_example({"a": 1}) + b"\x10\x05"  # field 2 varint: not in Example
    assert decode(data).decoder == "protobuf"


def test_a_failing_decoder_falls_back_to_bytes_and_says_which():
    decoded = decode(b"\xff\xfe", decoder="example")
    assert decoded.decoder == "bytes"
    assert decoded.failed == "example"
    assert "tf.train.Example" in decoded.error
    assert decoded.payload.data == b"\xff\xfe"


def test_dataset_records_of_mixed_payloads(tmp_path):
    t = tf()
    payloads = [
        build_example({"x": 1}),
        b"plain text",
        t.io.serialize_tensor([1, 2]).numpy(),
        b"\x00\x01\x02",
    ]
    path = tf_write(tmp_path / "mixed.tfrecord", payloads)
    with Dataset([str(path)]) as ds:
        ds.index()
        assert [decode(ds.read(i)).decoder for i in range(4)] == [
            "example",
            "text",
            "tensor",
            "bytes",
        ]
