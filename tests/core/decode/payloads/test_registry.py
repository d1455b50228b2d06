"""Bidding, the raw-protobuf view, text, bytes, and the labelled fallback."""

from __future__ import annotations

from google.protobuf import descriptor_pb2

from tests.core.decode.payloads.test_elwc import ELWC
from tests.protoc_modules import compile_proto
from tests.tf_oracle import tf, tf_write
from tfr_viewer.core.decode.payloads import choose, decode
from tfr_viewer.core.decode.payloads.raw_proto import MAX_DEPTH
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.write.build import build_example


def test_a_tensorboard_event_is_an_event_not_an_empty_example(tmp_path):
    t = tf()
    event = t.compat.v1.Event(wall_time=1234.5, step=7)
    event.summary.value.add(tag="loss", simple_value=0.25)
    data = event.SerializeToString()
    assert decode(data).decoder == "event"
    decoded = decode(data, decoder="protobuf")  # its raw fields, when asked
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


def test_an_example_with_an_unknown_field_is_an_example_as_tensorflow_parses_it():
    data = build_example({"a": 1}) + b"\x10\x05"  # field 2 varint: not in Example
    decoded = decode(data)
    assert decoded.decoder == "example"
    t = tf()
    parsed = t.io.parse_single_example(data, {"a": t.io.VarLenFeature(t.int64)})
    assert decoded.payload.features["a"].items() == parsed["a"].values.numpy().tolist()


def test_an_example_tensorflow_reads_otherwise_shows_its_reading_with_a_note():
    int5, float25 = b"\x1a\x03\x0a\x01\x05", b"\x12\x06\x0a\x04\x00\x00\x20\x40"
    feature = int5 + float25  # protobuf: the float list replaces the int64 one
    entry = b"\x0a\x01a\x12" + bytes([len(feature)]) + feature
    data = b"\x0a" + bytes([len(entry) + 2]) + b"\x0a" + bytes([len(entry)]) + entry
    payload = decode(data).payload
    t = tf()
    parsed = t.io.parse_single_example(data, {"a": t.io.VarLenFeature(t.int64)})
    assert payload.features["a"].kind == "int64"
    assert payload.features["a"].items() == parsed["a"].values.numpy().tolist() == [5]
    assert "TensorFlow" in payload.note


def test_an_example_tensorflow_refuses_says_where():
    entry = b"\x0a\x03\x0a\x01b"  # a key-only entry: protobuf fills in the value
    data = b"\x0a" + bytes([len(entry)]) + entry
    payload = decode(data).payload
    assert payload.type == "example"
    assert "tf.io.parse_single_example refuses" in payload.note and "byte 2" in payload.note
    t = tf()
    try:
        t.io.parse_single_example(data, {"b": t.io.VarLenFeature(t.int64)})
    except t.errors.InvalidArgumentError:
        pass
    else:
        raise AssertionError("TensorFlow parsed a key-only entry")


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


def _parses(monkeypatch) -> list[str]:
    """The message types bytes are strictly read as, one entry a reading."""
    from tfr_viewer.core.decode import strict_parse

    seen: list[str] = []
    real = strict_parse.strict

    def counted(message, data):
        seen.append(message.__name__)
        return real(message, data)

    monkeypatch.setattr(strict_parse, "strict", counted)
    return seen


def test_each_message_type_is_read_once_and_the_winner_never_again(monkeypatch):
    """Every decoder bids on the bytes (its reading is the bid's); the winner decodes
    from its bid's reading, as TensorFlow reads the Example."""
    seen = _parses(monkeypatch)
    payload = tf().train.Example.FromString(build_example({"label": 3, "name": b"cat"}))
    data = payload.SerializeToString()
    decoded = decode(data)
    assert decoded.decoder == "example"
    assert decoded.payload.features["label"].values.tolist() == [3]
    assert sorted(seen) == sorted(set(seen))  # no type read twice
    assert seen.count("Example") == 1


def test_a_tensor_is_read_once(monkeypatch):
    seen = _parses(monkeypatch)
    data = tf().make_tensor_proto([[1.0, 2.0], [3.0, 4.0]]).SerializeToString()
    decoded = decode(data)
    assert decoded.decoder == "tensor"
    assert (
        decoded.payload.values.tolist()
        == tf().make_ndarray(tf().make_tensor_proto([[1.0, 2.0], [3.0, 4.0]])).tolist()
    )
    assert seen.count("TensorProto") == 1


def _every_kind() -> list[bytes]:
    """Payloads of every kind, as their own writers make them, and bytes that look like
    several at once."""
    t = tf()
    event = t.compat.v1.Event(wall_time=1.5, step=2)
    event.summary.value.add(tag="loss", simple_value=0.5)
    sequence = t.train.SequenceExample()
    sequence.context.feature["id"].int64_list.value.append(4)
    sequence.feature_lists.feature_list["tokens"].feature.add().int64_list.value.extend([1, 2])
    example = build_example({"label": 3, "name": b"cat"})
    msg = descriptor_pb2.FileDescriptorProto(name="x.proto", package="pkg")
    ranking = compile_proto(ELWC).ExampleListWithContext(examples=[example, example])
    ranking.context = build_example({"query": b"red shoes"})
    return [
        example,
        ranking.SerializeToString(),
        t.train.Example().SerializeToString(),
        event.SerializeToString(),
        sequence.SerializeToString(),
        t.io.serialize_tensor([[1.0, 2.0]]).numpy(),
        msg.SerializeToString(),
        b"plain text",
        b"\x0a\x00",  # an empty Features: several messages read it
        b"\x08\x01",
        b"\xff\xfe\xfd",
        b"",
        bytes(range(256)),
        example + example,
    ]


def _asking_everyone(data: bytes) -> str:
    """The decoder the highest bid names when every decoder bids (earlier wins a tie)."""
    from tfr_viewer.core.decode.payloads import DECODERS, _bid

    priorities = [_bid(d, data).priority for d in DECODERS]
    best = max(range(len(DECODERS)), key=lambda i: (priorities[i], -i))
    return DECODERS[best].NAME if priorities[best] else "bytes"


def _file_asking_everyone(samples: list[bytes]) -> str:
    """The decoder that reads the most samples, then bids the most over all, then comes
    first, when every decoder bids on every sample; the bytes decoder when none reads."""
    from tfr_viewer.core.decode.payloads import DECODERS, _bid

    scores = []
    for i, decoder in enumerate(DECODERS[:-1]):  # the bytes fallback comes last
        priorities = [_bid(decoder, data).priority for data in samples]
        scores.append((sum(p > 0 for p in priorities), sum(priorities), -i, decoder.NAME))
    best = max(scores)
    return best[3] if best[0] else "bytes"


def test_no_bid_is_above_its_ceiling():
    from tfr_viewer.core.decode.payloads import DECODERS, _bid

    for data in _every_kind():
        for decoder in DECODERS:
            assert _bid(decoder, data).priority <= decoder.CEILING, (decoder.NAME, data[:20])


def test_the_auction_chooses_what_every_bid_would():
    from tfr_viewer.core.decode.payloads import choose_for_many

    kinds = _every_kind()
    for data in kinds:
        assert choose(data).NAME == _asking_everyone(data)
    for i in range(len(kinds)):
        for mixed in ([kinds[i]] * 3, [kinds[i], kinds[(i + 1) % len(kinds)], kinds[i]]):
            assert choose_for_many(mixed) == _file_asking_everyone(mixed), mixed


def test_a_file_of_examples_is_chosen_without_asking_the_others(monkeypatch):
    from tfr_viewer.core.decode.payloads import DECODERS, choose_for_many

    asked: list[str] = []
    for decoder in DECODERS:
        real = decoder.bid

        def counted(data, real=real, name=decoder.NAME):
            asked.append(name)
            return real(data)

        monkeypatch.setattr(decoder, "bid", counted)
    samples = [build_example({"label": i}) for i in range(5)]
    assert choose_for_many(samples) == "example"
    assert decode(samples[0], within="example").decoder == "example"
    assert set(asked) == {"example"}
