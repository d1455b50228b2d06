"""Examples read as TensorFlow's parser reads them: crafted payloads where protobuf and
TensorFlow disagree, and mutated ones, against ``tf.io.parse_single_example``; the
compiled core's verdicts against the pure-Python reader's."""

from __future__ import annotations

import codecs
import random

import numpy as np
import pytest

from tests.fuzz.cases import mutate, varint
from tests.tf_oracle import tf
from tfr_viewer.core.decode import tf_example
from tfr_viewer.core.decode.tf_example import DIFFERS, KIND, LIST, STRUCTURE, read_example
from tfr_viewer.core.fast import available, native, use
from tfr_viewer.core.write import build_example


def ld(tag: int, body: bytes) -> bytes:
    return bytes([tag]) + varint(len(body)) + body


def entry(key: bytes, feature: bytes) -> bytes:
    return ld(0x0A, ld(0x0A, key) + ld(0x12, feature))


def example(*entries: bytes, extra: bytes = b"") -> bytes:
    return ld(0x0A, b"".join(entries)) + extra


INT5 = ld(0x1A, ld(0x0A, varint(5)))
FLOAT = ld(0x12, ld(0x0A, b"\x00\x00\x20\x40"))  # 2.5

CASES = {
    "int64 list then float list": example(entry(b"a", INT5 + FLOAT)),
    "float list then int64 list": example(entry(b"a", FLOAT + INT5)),
    "two int64 lists": example(entry(b"a", INT5 + ld(0x1A, ld(0x0A, varint(7))))),
    "two packed runs": example(entry(b"a", ld(0x1A, ld(0x0A, varint(5)) + ld(0x0A, varint(6))))),
    "unknown field in the Example": example(entry(b"a", INT5), extra=b"\x10\x05"),
    "unknown field in the features": ld(0x0A, entry(b"a", INT5) + b"\x10\x05"),
    "unknown field in an entry": ld(0x0A, ld(0x0A, ld(0x0A, b"a") + ld(0x12, INT5) + b"\x18\x01")),
    "key-only entry": ld(0x0A, entry(b"a", INT5) + ld(0x0A, ld(0x0A, b"b"))),
    "value before key": ld(0x0A, ld(0x0A, ld(0x12, INT5) + ld(0x0A, b"a"))),
    "11-byte varint in a list": example(entry(b"a", ld(0x1A, ld(0x0A, b"\xff" * 10 + b"\x01")))),
    "11-byte varint in the Example": example(
        entry(b"a", INT5), extra=b"\x10" + b"\xff" * 10 + b"\x01"
    ),
    "unknown field after the list": example(entry(b"a", INT5 + b"\x20\x01")),
    "unknown field in a list": example(entry(b"a", ld(0x1A, ld(0x0A, varint(5)) + b"\x10\x01"))),
    "empty feature": example(entry(b"a", b"")),
    "key given twice": ld(0x0A, entry(b"a", INT5) + entry(b"a", ld(0x1A, ld(0x0A, varint(9))))),
    "two features fields": example(entry(b"a", INT5)) + example(entry(b"b", INT5)),
    "unpacked floats": example(entry(b"a", ld(0x12, b"\x0d\x00\x00\x20\x40\x0d\x00\x00\x80\x3f"))),
    "packed floats with a stray byte": example(
        entry(b"a", ld(0x12, ld(0x0A, b"\x00\x00\x20\x40\x00")))
    ),
    "bytes list with an unknown field": example(
        entry(b"a", ld(0x0A, ld(0x0A, b"xy") + b"\x10\x01"))
    ),
    "a group in the Example": example(entry(b"a", INT5), extra=b"\x13\x14"),
    "field 0 in the Example": example(entry(b"a", INT5), extra=b"\x00\x00"),
    "a value of no known list": example(entry(b"a", b"\x22\x00")),
    "int64 varints unpacked": example(entry(b"a", ld(0x1A, b"\x08\x05\x08\x06"))),
    "a cut-off bytes value": example(entry(b"a", ld(0x0A, b"\x0a\x09xy"))),
    "a key that is not UTF-8": example(entry(b"k\xff\xc3", INT5), entry(b"b", FLOAT)),
    "a surrogate in a key": example(entry(b"\xed\xa0\x80", INT5)),
}

_DTYPES = {"bytes": "string", "float": "float32", "int64": "int64"}


def _raw(name: str, reading) -> bytes:
    """The key TensorFlow is asked for, as bytes (a spec's keys are all text or all
    bytes): a name with \\x escapes of a key that is not UTF-8 as the key's bytes."""
    if name in reading.bad_keys:
        return codecs.escape_decode(name.encode("utf-8"))[0]
    return name.encode("utf-8")


def _tf_values(data: bytes, key: bytes, kind: str) -> list:
    t = tf()
    spec = {key: t.io.VarLenFeature(getattr(t, _DTYPES[kind]))}
    return t.io.parse_single_example(data, spec)[key].values.numpy().tolist()


def _tf_parses(data: bytes, spec_keys: dict) -> bool:
    t = tf()
    spec = {k: t.io.VarLenFeature(getattr(t, _DTYPES[v])) for k, v in spec_keys.items()}
    spec = spec or {b"\x00absent": t.io.VarLenFeature(t.int64)}
    try:
        t.io.parse_single_example(data, spec)
    except (t.errors.InvalidArgumentError, UnicodeDecodeError):
        return False  # TensorFlow's message quotes the payload, not always as UTF-8
    return True


def _agrees_with_tensorflow(data: bytes) -> None:
    """The reading is TensorFlow's: the values of every feature it reads, and a failure
    exactly when TensorFlow's parser fails, of the feature named."""
    reading = read_example(data)
    if any("\\" in k and k not in reading.bad_keys for k in reading.features):
        return  # a text key that looks like an escape: asked for below as itself
    kinds = {_raw(k, reading): f.kind for k, f in reading.features.items() if f.kind != "none"}
    failure = reading.failure
    if failure is None:
        assert _tf_parses(data, kinds)
        for name, feature in reading.features.items():
            if feature.kind == "none":
                continue
            key, kind, ours = _raw(name, reading), feature.kind, feature.items()
            assert _tf_values(data, key, kind) == [
                v if kind != "float" else pytest.approx(v, nan_ok=True) for v in ours
            ], key
        return
    if failure.feature is None:
        assert failure.code == STRUCTURE
        assert not _tf_parses(data, {})
        return
    assert failure.code in (KIND, LIST)
    feature = _raw(failure.feature, reading)
    asked = "int64" if failure.code == KIND else _own_kind(data, feature)
    assert not _tf_parses(data, {feature: asked})
    assert _tf_parses(data, kinds)  # the others read


def _own_kind(data: bytes, key: bytes) -> str:
    """The kind TensorFlow gives ``key`` (its value's first byte)."""
    t = tf()
    for kind in ("bytes", "float", "int64"):
        try:
            t.io.parse_single_example(data, {key: t.io.VarLenFeature(getattr(t, _DTYPES[kind]))})
        except t.errors.InvalidArgumentError as exc:
            if "Data types don't match" in str(exc):
                continue
        return kind
    raise AssertionError(f"no kind for {key!r}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_crafted_payload_is_read_as_tensorflow_reads_it(name: str) -> None:
    _agrees_with_tensorflow(CASES[name])


def test_the_readings_that_protobuf_and_tensorflow_disagree_on() -> None:
    first = read_example(CASES["int64 list then float list"])
    assert first.features["a"].kind == "int64" and first.features["a"].items() == [5]
    assert first.differs == ["a"]
    unknown = read_example(CASES["unknown field in the Example"])
    assert unknown.failure is None and unknown.features["a"].items() == [5]
    key_only = read_example(CASES["key-only entry"])
    assert key_only.failure is not None and key_only.failure.feature is None
    long_varint = read_example(CASES["11-byte varint in a list"])
    assert long_varint.failure is not None and long_varint.failure.feature == "a"
    assert long_varint.failure.code == LIST
    assert long_varint.failure.offset == CASES["11-byte varint in a list"].index(b"\xff")
    assert "byte" in long_varint.failure.message()
    bad_key = read_example(CASES["a key that is not UTF-8"])
    assert bad_key.failure is None and bad_key.bad_keys == ["k\\xff\\xc3"]
    assert bad_key.features["k\\xff\\xc3"].items() == [5] and bad_key.read_otherwise
    assert tf_example.verdict(CASES["a key that is not UTF-8"])[0] & DIFFERS


def _mutated(count: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        values = {
            "label": [rng.randrange(-(2**62), 2**62)],
            "x": [rng.random() for _ in range(rng.randrange(4))],
            "image/encoded": [rng.randbytes(rng.randrange(30))],
        }
        data = build_example(values, {"x": "float"})
        if rng.random() < 0.5:
            data = rng.choice(list(CASES.values())) + data
        pick = rng.random()
        if pick < 0.4:
            data = mutate(rng, data)
        elif pick < 0.9:  # one byte changed, added or dropped: mostly still an Example
            at = rng.randrange(len(data))
            edit = rng.randrange(3)
            new = bytes([rng.randrange(256)])
            data = data[:at] + (new if edit < 2 else b"") + data[at + (edit != 1) :]
        out.append(data)
    return out


def test_mutated_payloads_are_read_as_tensorflow_reads_them() -> None:
    for data in _mutated(600, seed=29):
        _agrees_with_tensorflow(data)


@pytest.mark.skipif(not available(), reason="the compiled core is not built")
def test_the_compiled_verdicts_are_the_pure_python_ones() -> None:
    payloads = list(CASES.values()) + _mutated(5000, seed=7)
    buf = b"".join(payloads)
    lengths = np.array([len(p) for p in payloads], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    starts[3] = -1  # a damaged row is skipped
    compiled = native()
    try:
        use(True)
        fast_codes, fast_offsets = tf_example.verdicts(buf, starts, lengths)
        use(False)
        slow_codes, slow_offsets = tf_example.verdicts(buf, starts, lengths)
    finally:
        use(compiled is not None)
    assert fast_codes.tolist() == slow_codes.tolist()
    assert fast_offsets.tolist() == slow_offsets.tolist()
    codes = set((fast_codes & (DIFFERS - 1)).tolist())
    assert {0, STRUCTURE, KIND, LIST} <= codes  # the cases reach every verdict
    assert (fast_codes & DIFFERS).any()


def _summary(data: bytes) -> tuple:
    reading = read_example(data)
    features = {k: (f.kind, f.items()) for k, f in reading.features.items()}
    return (
        features,
        reading.failure,
        reading.features_fields,
        reading.entries,
        reading.read_otherwise,
    )


@pytest.mark.skipif(not available(), reason="the compiled core is not built")
def test_the_compiled_walk_of_the_examples_fields_reads_as_the_pure_python_one() -> None:
    payloads = list(CASES.values()) + _mutated(3000, seed=11)
    compiled = native()
    try:
        use(True)
        fast = [_summary(p) for p in payloads]
        use(False)
        slow = [_summary(p) for p in payloads]
    finally:
        use(compiled is not None)
    for data, a, b in zip(payloads, fast, slow, strict=True):
        assert a == b, data


def test_millions_of_fields_tensorflow_skips_are_shown_at_once(tmp_path) -> None:
    """Ten million fields an Example does not have, then one feature: TensorFlow reads
    the feature, and so does show, without a Python loop per field."""
    import json
    import subprocess
    import sys

    from tests.tf_oracle import tf_write

    data = b"\x10\x00" * 10_000_000 + example(entry(b"a", INT5))
    t = tf()
    parsed = t.io.parse_single_example(data, {"a": t.io.VarLenFeature(t.int64)})
    assert parsed["a"].values.numpy().tolist() == [5]
    path = tf_write(tmp_path / "skips.tfrecord", [data])
    run = [sys.executable, "-m", "tfr_viewer", "show", "0", "--json", str(path)]
    out = subprocess.run(run, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    shown = json.loads(out.stdout)
    assert shown["type"] == "example" and shown["features"]["a"]["values"] == [5]
