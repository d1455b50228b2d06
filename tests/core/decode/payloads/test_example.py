"""show --json agrees value for value with tf.train.Example / SequenceExample."""

from __future__ import annotations

import base64
import json
import math

import numpy as np

from tests.tf_oracle import tf, tf_read, tf_write
from tfr_viewer.cli import main
from tfr_viewer.core.json_text import NON_FINITE

KINDS = {"bytes_list": "bytes", "float_list": "float", "int64_list": "int64"}


def tf_examples():
    t = tf().train
    return [
        t.Example(
            features=t.Features(
                feature={
                    "f32": t.Feature(
                        float_list=t.FloatList(value=[0.1, -1e30, 3.4e38, 1e-45, 2.5])
                    ),
                    "nan": t.Feature(float_list=t.FloatList(value=[float("nan"), float("inf")])),
                    "extremes": t.Feature(
                        int64_list=t.Int64List(value=[-(2**63), 2**63 - 1, 0, -1])
                    ),
                    "empty_int": t.Feature(int64_list=t.Int64List(value=[])),
                    "empty_bytes": t.Feature(bytes_list=t.BytesList(value=[])),
                    "binary": t.Feature(
                        bytes_list=t.BytesList(value=[b"\xff\xfe\x00", b"caf\xc3\xa9"])
                    ),
                    "image/class/label": t.Feature(int64_list=t.Int64List(value=[7])),
                }
            )
        ),
        t.Example(
            features=t.Features(
                feature={
                    "only": t.Feature(bytes_list=t.BytesList(value=[b"x" * 1000])),
                }
            )
        ),
    ]


def same_float(a: float | str, b: float) -> bool:
    """The same float32, and ``a`` written with the fewest digits that read back as it
    (a non-finite ``a`` as the string strict JSON carries)."""
    if isinstance(a, str):
        a = NON_FINITE[a]
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    shortest = repr(float(str(np.float32(b))))
    return np.float32(a) == np.float32(b) and repr(a) == shortest


def assert_features_equal(ours: dict, theirs) -> None:
    assert sorted(ours) == sorted(theirs.feature)
    for key, feature in theirs.feature.items():
        which = feature.WhichOneof("kind")
        want = list(getattr(feature, which).value)
        got = ours[key]
        assert got["kind"] == KINDS[which], key
        assert len(got["values"]) == len(want), key
        if which == "bytes_list":
            assert [base64.b64decode(v["base64"]) for v in got["values"]] == want
            assert [v["size"] for v in got["values"]] == [len(w) for w in want]
        elif which == "float_list":
            assert all(same_float(a, b) for a, b in zip(got["values"], want, strict=False)), key
        else:
            assert got["values"] == want, key


def show(capsys, index, path):
    assert main(["show", str(index), "--json", str(path)]) == 0
    return json.loads(capsys.readouterr().out)


def test_examples_match_tensorflow(tmp_path, capsys):
    examples = tf_examples()
    path = tf_write(tmp_path / "ex.tfrecord", [e.SerializeToString() for e in examples])
    records = tf_read(path)
    offset = 0
    for i, raw in enumerate(records):
        got = show(capsys, i, path)
        assert got["type"] == "example"
        assert (got["index"], got["status"], got["length"], got["offset"]) == (
            i,
            "ok",
            len(raw),
            offset,
        )
        assert got["file"] == str(path)
        assert_features_equal(got["features"], tf().train.Example.FromString(raw).features)
        offset += len(raw) + 16
    first = show(capsys, 0, path)["features"]
    assert "text" not in first["binary"]["values"][0]
    assert first["binary"]["values"][1]["text"] == "café"
    assert first["binary"]["values"][0]["detected"] == "bytes"


def test_sequence_examples_match_tensorflow(tmp_path, capsys):
    t = tf().train
    seq = t.SequenceExample(
        context=t.Features(feature={"id": t.Feature(bytes_list=t.BytesList(value=[b"a"]))}),
        feature_lists=t.FeatureLists(
            feature_list={
                "tokens": t.FeatureList(
                    feature=[
                        t.Feature(int64_list=t.Int64List(value=[1, 2])),
                        t.Feature(int64_list=t.Int64List(value=[])),
                        t.Feature(int64_list=t.Int64List(value=[2**62])),
                    ]
                ),
                "scores": t.FeatureList(feature=[t.Feature(float_list=t.FloatList(value=[0.3]))]),
            }
        ),
    )
    path = tf_write(tmp_path / "seq.tfrecord", [seq.SerializeToString()])
    got = show(capsys, 0, path)
    assert got["type"] == "sequence_example"
    theirs = t.SequenceExample.FromString(tf_read(path)[0])
    assert_features_equal(got["context"], theirs.context)
    for key, flist in theirs.feature_lists.feature_list.items():
        steps = got["feature_lists"][key]
        assert len(steps) == len(flist.feature)
        for step, feature in zip(steps, flist.feature, strict=False):
            which = feature.WhichOneof("kind")
            assert step["kind"] == KINDS[which]
            want = list(getattr(feature, which).value)
            if which == "float_list":
                assert all(same_float(a, b) for a, b in zip(step["values"], want, strict=True))
            else:
                assert step["values"] == want


def test_a_key_that_is_not_utf8_is_read_as_tensorflow_reads_it():
    from tfr_viewer.core.decode import decode, payload_json

    def entry(key: bytes, feature: bytes) -> bytes:
        inner = b"\x0a" + bytes([len(key)]) + key + b"\x12" + bytes([len(feature)]) + feature
        return b"\x0a" + bytes([len(inner)]) + inner

    features = entry(b"\xff\xfeab", b"\x1a\x02\x08\x01") + entry(b"label", b"\x1a\x02\x08\x07")
    data = b"\x0a" + bytes([len(features)]) + features
    label = tf().io.parse_single_example(data, {"label": tf().io.FixedLenFeature([], "int64")})
    assert int(label["label"].numpy()) == 7  # TensorFlow's parser reads it
    decoded = decode(data)
    out = payload_json(decoded)
    assert decoded.decoder == "example" and out["features"]["label"]["values"] == [7]
    assert "\\xff\\xfeab" in out["features"] and "not valid UTF-8" in out["note"]


def test_an_empty_list_reads_the_same_in_the_window_whatever_its_kind():
    """An empty bytes, float or int64 list is "(empty)" in the tree; an empty bytes value
    is "<0 bytes>" (not a hex dump of nothing)."""
    import numpy as np

    from tfr_viewer.core.decode.payload_types import FeatureData
    from tfr_viewer.core.decode.payloads.outlines import feature_outline
    from tfr_viewer.core.text import EMPTY

    empties = [
        FeatureData("bytes", []),
        FeatureData("float", np.array([], dtype=np.float32)),
        FeatureData("int64", np.array([], dtype=np.int64)),
    ]

    def nested(data, key, depth):  # no value here is a record
        raise AssertionError("nothing nested")

    assert [feature_outline("k", fd, "k", 0, nested).value for fd in empties] == [EMPTY] * 3
    assert feature_outline("k", FeatureData("bytes", [b""]), "k", 0, nested).value == "<0 bytes>"
