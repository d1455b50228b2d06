"""Bytes are read as a message only when they are one to the letter: an Example as
TensorFlow writes it, and one written otherwise (lists unpacked, a field spelled
twice), are Examples; bytes with a field an Example does not define, anywhere inside,
are not — whichever way the rest is written."""

from __future__ import annotations

from tests.fuzz.cases import varint
from tests.tf_oracle import tf
from tfr_viewer.core.decode import proto
from tfr_viewer.core.decode.strict_parse import example_message, strict


def _example() -> bytes:
    t = tf().train
    feature = {
        "image": t.Feature(bytes_list=t.BytesList(value=[b"\xff\xd8" + bytes(5000)])),
        "score": t.Feature(float_list=t.FloatList(value=[0.5, 1.5, 2.5])),
        "label": t.Feature(int64_list=t.Int64List(value=[3, -7])),
    }
    return t.Example(features=t.Features(feature=feature)).SerializeToString()


def _field(number: int, wire: int, body: bytes) -> bytes:
    tag = varint(number << 3 | wire)
    return tag + (varint(len(body)) + body if wire == 2 else body)


def _unpacked_example() -> bytes:
    """An Example whose float list is written one value a field (unpacked, as proto2
    writers may), which the runtime writes back packed: longer than it writes."""
    import struct

    floats = b"".join(_field(1, 5, struct.pack("<f", v)) for v in (0.5, 1.5, 2.5))
    feature = _field(2, 2, floats)  # Feature.float_list
    entry = _field(1, 2, b"score") + _field(2, 2, feature)
    return _field(1, 2, _field(1, 2, entry))  # Example.features.feature[...]


def test_an_example_as_tensorflow_writes_it_is_one():
    data = _example()
    msg = example_message(data)
    assert msg is not None and msg.ByteSize() == len(data)  # map entries in any order


def test_an_example_written_otherwise_is_one_too():
    data = _unpacked_example()
    msg = example_message(data)
    assert msg is not None and len(msg.SerializeToString()) < len(data)
    assert list(msg.features.feature["score"].float_list.value) == [0.5, 1.5, 2.5]
    assert tf().train.Example.FromString(data).features.feature["score"].float_list.value


def test_a_field_an_example_does_not_define_is_refused_wherever_it_is():
    unknown = _field(15, 0, varint(1))
    assert example_message(_example() + unknown) is None
    assert example_message(_unpacked_example() + unknown) is None
    inner = _field(1, 2, _field(1, 2, b"x") + _field(2, 2, _field(9, 0, varint(4))))
    assert example_message(_field(1, 2, inner)) is None  # inside a Feature
    assert strict(proto.Example, b"") is None
