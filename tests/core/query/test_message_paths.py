"""The compiled walk of field paths against protobuf's runtime, record for record:
every scalar type singular and repeated (packed and not), nested singular messages,
defaults of absent fields (proto3's and proto2's own), occurrences of a singular
message merged, and hostile records (cut, flipped, the wrong wire type for a known
field, text that is no UTF-8, field number 0, over-long varints, groups, nesting past
what the walk follows) giving the same status and the same columns, or left to the
runtime; the paths the walk does not read said so."""

from __future__ import annotations

import math
import random

import pytest

from tests.fuzz.cases import varint
from tests.protoc_modules import compile_proto
from tfr_viewer.core.decode import message_types
from tfr_viewer.core.io.payload_block import PayloadBlock
from tfr_viewer.core.query import message_paths
from tfr_viewer.core.query.message_columns import message_columns, runtime_columns

PROTO3 = """
syntax = "proto3";
package walk;
enum Colour { NONE = 0; RED = 1; GREEN = 2; }
message Deeper { double x = 1; bytes raw = 2; repeated bool flags = 3; }
message Inner {
  string name = 1; sint64 delta = 2; repeated fixed32 codes = 3; Colour colour = 4;
  Deeper deeper = 5;
}
message Record {
  double d = 1; float f = 2; int64 i64 = 3; uint64 u64 = 4; int32 i32 = 5;
  fixed64 fx64 = 6; fixed32 fx32 = 7; bool b = 8; string s = 9; bytes by = 12;
  uint32 u32 = 13; Colour e = 14; sfixed32 sf32 = 15; sfixed64 sf64 = 16;
  sint32 si32 = 17; sint64 si64 = 18;
  repeated double rd = 21; repeated int32 ri32 = 22 [packed = false];
  repeated sint32 rs32 = 23; repeated string rs = 24; repeated Colour re = 25;
  repeated uint64 ru64 = 26;
  Inner inner = 30; repeated Inner items = 31; map<string, int32> counts = 32;
  oneof choice { string pick = 40; int32 other = 41; }
}
"""
PLAIN = (
    "d f i64 u64 i32 fx64 fx32 b s by u32 e sf32 sf64 si32 si64 rd ri32 rs32 rs re ru64 "
    "inner.name inner.delta inner.codes inner.colour inner.deeper.x inner.deeper.raw "
    "inner.deeper.flags"
).split()

PROTO2 = """
syntax = "proto2";
package walkold;
enum Mood { CALM = 1; ANGRY = 2; }
message Sub { optional bytes b = 1 [default = "zz"]; optional int64 v = 2 [default = -9]; }
message Old {
  optional string s = 1; optional int32 n = 2 [default = 7];
  optional double d = 3 [default = -2.5]; optional string t = 4 [default = "hi"];
  optional Mood mood = 5; repeated int32 r = 6; optional Sub sub = 7;
}
message Strict { required int32 id = 1; }
"""
PLAIN2 = ["s", "n", "d", "t", "r", "sub.b", "sub.v"]


@pytest.fixture(scope="module")
def kinds(tmp_path_factory):
    folder = tmp_path_factory.mktemp("walk")
    (folder / "walk.proto").write_text(PROTO3)
    (folder / "old.proto").write_text(PROTO2)
    types = message_types.load(str(folder))
    return types, compile_proto(PROTO3), compile_proto(PROTO2)


def _record(module, rng: random.Random):
    r = module.Record()
    if rng.random() < 0.8:
        r.d = rng.choice([0.0, -1.5, 1e300, math.inf, math.nan, rng.uniform(-9, 9)])
        r.f = rng.choice([0.0, 0.1, -3.25, math.inf])
        r.i64 = rng.choice([0, -(2**63), 2**63 - 1, rng.randrange(-999, 999)])
        r.u64 = rng.choice([0, 2**64 - 1, 2**63, rng.randrange(999)])
        r.i32 = rng.choice([0, -1, -(2**31), 2**31 - 1])
        r.fx64 = rng.choice([0, 2**64 - 1, 5])
        r.fx32 = rng.choice([0, 2**32 - 1, 5])
        r.b = rng.random() < 0.5
        r.s = rng.choice(["", "plain", "ünï😀", "x" * 40])
        r.by = rng.choice([b"", b"\x00\xff", bytes(range(20))])
        r.u32 = rng.choice([0, 2**32 - 1])
        r.e = rng.choice([0, 1, 2, 7])  # 7: a number the enum names not (kept: open)
        r.sf32, r.sf64 = rng.choice([0, -5, 2**31 - 1]), rng.choice([0, -(2**63), 3])
        r.si32, r.si64 = rng.choice([0, -1, -(2**31)]), rng.choice([0, -1, 2**63 - 1])
    for _ in range(rng.randrange(4)):
        r.rd.append(rng.choice([0.0, -0.5, math.nan]))
        r.ri32.append(rng.choice([0, -7, 2**31 - 1]))
        r.rs32.append(rng.choice([0, -7, 9]))
        r.rs.append(rng.choice(["", "a", "ß"]))
        r.re.append(rng.choice([0, 2, 5]))
        r.ru64.append(rng.choice([0, 2**64 - 1]))
    if rng.random() < 0.7:
        r.inner.name = rng.choice(["", "in", "ñ"])
        r.inner.delta = rng.choice([0, -3, 2**62])
        r.inner.codes.extend(rng.sample([0, 1, 2**32 - 1, 77], rng.randrange(3)))
        r.inner.colour = rng.choice([0, 1, 9])
        if rng.random() < 0.6:
            r.inner.deeper.x = rng.choice([0.0, 2.5])
            r.inner.deeper.raw = rng.choice([b"", b"raw"])
            r.inner.deeper.flags.extend([True, False][: rng.randrange(3)])
    for _ in range(rng.randrange(3)):
        r.items.add(name="item")
    if rng.random() < 0.3:
        r.counts["k"] = 4
    if rng.random() < 0.3:
        r.pick = "p"
    return r.SerializeToString()


def _tag(number: int, wire: int) -> bytes:
    return varint(number << 3 | wire)


def _field(number: int, data: bytes) -> bytes:
    return _tag(number, 2) + varint(len(data)) + data


HOSTILE = [
    b"",
    _field(9, b"\xff"),  # a proto3 string that is no UTF-8: no Record
    _field(3, b"\x01"),  # a number field sent length-delimited: an unknown field
    _tag(30, 0) + b"\x05",  # a message field sent as a varint: an unknown field
    _field(21, b"\x00" * 12),  # packed doubles that are no whole number of them
    _field(21, b"\x00" * 16) + _tag(21, 1) + b"\x00" * 8,  # packed, then unpacked
    _field(22, varint(5) + varint(6)),  # packed where the type says unpacked
    _field(30, _field(1, b"a") + _tag(2, 0) + b"\x03") + _field(30, _field(1, b"b")),
    _field(30, b""),  # the message there, empty: its fields' defaults
    _tag(0, 0) + b"\x01",  # field number 0
    _tag(5, 0) + b"\xff" * 9 + b"\x7f",  # a ten-byte varint, its top bits dropped
    _tag(5, 0) + b"\xff" * 10 + b"\x01",  # an eleven-byte varint
    _tag(99, 0) + b"\x01" + _field(100, b"\xff\xfe"),  # unknown fields
    _tag(101, 3) + _tag(1, 0) + b"\x01" + _tag(101, 4),  # an unknown group
    _tag(101, 3) + _tag(1, 0) + b"\x01" + _tag(102, 4),  # a group that ends as another
    _tag(7, 4),  # an end of group with no group
    _field(30, _field(5, _field(2, b"r") + _tag(1, 1) + b"\x00" * 7)),  # cut double
    _field(24, b"ok") + _field(24, b"\xc3"),  # a repeated string that is no UTF-8
    _field(25, varint(2) + varint(2**32 + 1)),  # enum numbers kept to 32 bits
    _field(23, b"\x80"),  # a packed varint cut short
]


def _nested_groups(depth: int) -> bytes:
    return _tag(120, 3) * depth + _tag(120, 4) * depth


def _same(ours, theirs) -> None:
    status_a, columns_a = ours
    status_b, columns_b = theirs
    assert status_a.tolist() == status_b.tolist()
    assert set(columns_a) == set(columns_b)
    for key in columns_b:
        a, b = columns_a[key], columns_b[key]
        assert a.rag.splits.tolist() == b.rag.splits.tolist(), key
        assert a.present.tolist() == b.present.tolist(), key
        assert a.rag.values.dtype == b.rag.values.dtype, (key, a.rag.values.dtype)
        for x, y in zip(a.rag.values.tolist(), b.rag.values.tolist(), strict=True):
            assert type(x) is type(y), (key, x, y)
            assert x == y or (isinstance(x, float) and math.isnan(x) and math.isnan(y)), key


def _compared(kind, payloads, keys):
    block = PayloadBlock.of(payloads)
    compiled = message_paths.columns(block, sorted(keys), kind)
    return compiled, runtime_columns(block, sorted(keys), kind)


def test_every_type_and_every_hostile_record_as_the_runtime_reads_it(kinds, hot_path):
    types, module, _ = kinds
    kind = types.get("walk.Record")
    rng = random.Random(5)
    payloads = [_record(module, rng) for _ in range(400)]
    payloads += [payloads[i] + payloads[i + 1] for i in range(0, 60, 2)]  # merged
    payloads += HOSTILE
    cut = [p[: rng.randrange(len(p))] for p in payloads[:80] if p]
    flipped = []
    for p in payloads[80:200]:
        if p:
            b = bytearray(p)
            b[rng.randrange(len(b))] = rng.randrange(256)
            flipped.append(bytes(b))
    compiled, runtime = _compared(kind, payloads + cut + flipped, PLAIN)
    if hot_path == "python":
        assert compiled is None
        return
    assert compiled is not None
    _same(compiled, runtime)
    status = runtime[0]
    assert status.any() and not status.all()  # some records parse, some do not


def test_proto2_defaults_and_unchecked_text(kinds, hot_path):
    types, _, module = kinds
    kind = types.get("walkold.Old")
    payloads = [
        module.Old().SerializeToString(),
        module.Old(s="x", n=-1, d=0.5, r=[1, 2], sub=module.Sub()).SerializeToString(),
        module.Old(sub=module.Sub(b=b"", v=0)).SerializeToString(),
        _field(1, b"\xff\xfe"),  # no UTF-8, not checked in proto2: read as its bytes
        _field(4, b"a") + _field(4, b"b"),  # the last of a singular field
    ]
    compiled, runtime = _compared(kind, payloads, PLAIN2)
    if hot_path == "compiled":
        assert compiled is not None
        _same(compiled, runtime)
    values = runtime[1]
    assert values["s"].rag.values.tolist() == ["", "x", "", b"\xff\xfe", ""]
    assert values["n"].rag.values.tolist() == [7, -1, 7, 7, 7]
    assert values["t"].rag.values.tolist() == ["hi", "hi", "hi", "hi", "b"]
    assert values["sub.v"].rag.values.tolist() == [-9, 0]  # the default, then one set
    assert values["sub.v"].rag.splits.tolist() == [0, 0, 1, 2, 2, 2]
    assert values["sub.b"].rag.values.tolist() == [b"zz", b""]


def test_nesting_past_the_walk_is_left_to_the_runtime(kinds, hot_path):
    types, module, _ = kinds
    kind = types.get("walk.Record")
    payloads = [_record(module, random.Random(1)), _nested_groups(40)]
    block = PayloadBlock.of(payloads)
    assert message_paths.columns(block, ["d"], kind) is None
    _same(message_columns(block, ["d"], kind), runtime_columns(block, ["d"], kind))


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("walk.Record", "items.name"),  # through a repeated message
        ("walk.Record", "counts"),  # a map
        ("walk.Record", "pick"),  # in a oneof
        ("walk.Record", "inner"),  # a message
        ("walkold.Old", "mood"),  # a closed enum
        ("walkold.Strict", "id"),  # a type with a required field
    ],
)
def test_paths_the_walk_does_not_read_are_read_by_the_runtime(kinds, name, key):
    types, _, _ = kinds
    assert message_paths.plan(types.get(name), (key,)) is None


def test_a_protobuf_older_than_editions_is_read_by_its_files_syntax():
    from types import SimpleNamespace

    from google.protobuf.descriptor import FieldDescriptor

    def field(syntax):
        return SimpleNamespace(type=FieldDescriptor.TYPE_STRING, full_name="a.b",
                               file=SimpleNamespace(syntax=syntax))  # fmt: skip

    assert message_paths._checks_text(field("proto3"))
    assert not message_paths._checks_text(field("proto2"))
    with pytest.raises(message_paths._Unsaid):
        message_paths._checks_text(field("editions"))
    assert message_paths._required(SimpleNamespace(label=FieldDescriptor.LABEL_REQUIRED))
