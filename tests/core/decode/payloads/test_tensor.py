"""Serialized tensors decode to what tf.io.parse_tensor returns, for every dtype."""

from __future__ import annotations

import numpy as np
import pytest

from tests.tf_oracle import tf
from tfr_viewer.core.decode.payloads import decode
from tfr_viewer.core.decode.payloads.tensor import DTYPES

DTYPE_NAMES = sorted(name for name, _, _ in DTYPES.values())


def sample(name: str):
    t = tf()
    rng = np.random.default_rng(len(name))
    if name == "string":
        return t.constant([[b"a", b"\xff\x00"], [b"", b"long" * 10]])
    if name == "bool":
        return t.constant(rng.random((3, 2)) < 0.5)
    if name.startswith("complex"):
        return t.constant(
            (rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3))).astype(name)
        )
    dtype = getattr(t, name)
    if dtype.is_floating:
        return t.cast(t.constant(rng.standard_normal((2, 3, 2)) * 100), dtype)
    info = np.iinfo(dtype.as_numpy_dtype)
    values = [
        int(info.min),
        int(info.max),
        0,
        1,
        int(info.max) // 3,
        int(info.min) // 5 if info.min else 7,
    ]
    return t.constant(np.array(values, dtype=dtype.as_numpy_dtype).reshape(2, 3))


def as_comparable(array: np.ndarray) -> np.ndarray:
    if array.dtype.kind == "O":
        return array.astype(object)
    return (
        array.astype(np.complex128 if array.dtype.kind == "c" else np.float64)
        if (array.dtype.kind in "fcV" or str(array.dtype) == "bfloat16")
        else array
    )


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_serialized_tensor_matches_parse_tensor(name):
    t = tf()
    tensor = sample(name)
    data = t.io.serialize_tensor(tensor).numpy()
    decoded = decode(data)
    assert decoded.decoder == "tensor", decoded
    payload = decoded.payload
    assert payload.dtype == name
    expected = t.io.parse_tensor(data, out_type=tensor.dtype).numpy()
    assert payload.shape == expected.shape
    np.testing.assert_array_equal(as_comparable(payload.values), as_comparable(expected))


@pytest.mark.parametrize("name", ["float32", "int64", "bool", "string"])
def test_typed_value_fields_and_scalars(name):
    t = tf()
    tensor = t.constant(
        True if name == "bool" else b"s" if name == "string" else 3, dtype=getattr(t, name)
    )
    proto = t.make_tensor_proto(tensor)  # scalars use the typed value fields
    data = proto.SerializeToString()
    payload = decode(data).payload
    assert payload.shape == ()
    assert payload.values.item() == t.io.parse_tensor(data, out_type=tensor.dtype).numpy()


def test_fewer_typed_values_repeat_the_last_one():
    t = tf()
    proto = t.make_tensor_proto([1.5, 2.5, 2.5, 2.5], dtype=t.float32)
    proto.ClearField("tensor_content")
    proto.float_val.extend([1.5, 2.5])
    data = proto.SerializeToString()
    np.testing.assert_array_equal(
        decode(data).payload.values, t.io.parse_tensor(data, out_type=t.float32).numpy()
    )


def test_inconsistent_content_is_not_a_tensor():
    t = tf()
    proto = t.make_tensor_proto(np.zeros((4,), np.float32))
    proto.tensor_content = proto.tensor_content[:-1]
    assert decode(proto.SerializeToString()).decoder != "tensor"


def test_a_dozen_bytes_never_claim_gigabytes():
    import resource

    from tests.hostile.files import tensor_claiming
    from tfr_viewer.core.decode import decode
    from tfr_viewer.core.decode.payloads import payload_json
    from tfr_viewer.core.decode.payloads.tensor import MAX_EXPANDED

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for elements in (2**31, 2**26, MAX_EXPANDED + 1):
        data = tensor_claiming(elements)
        assert len(data) <= 12
        payload = decode(data).payload
        assert payload.type == "tensor" and payload.shape == (elements,)
        assert payload.values.size == 0 and "not expanded" in payload.note
        out = payload_json(decode(data))
        assert out["values"] == [] and out["note"] == payload.note
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 50
    small = decode(tensor_claiming(10)).payload  # small ones are still filled in
    assert small.note is None and small.values.tolist() == [0.0] * 10
