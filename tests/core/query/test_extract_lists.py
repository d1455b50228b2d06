"""Feature lists of SequenceExamples made by TensorFlow, as columns of steps of values,
on both paths; Examples and other payloads have no feature lists."""

from __future__ import annotations

import numpy as np

from tests.tf_oracle import tf
from tfr_viewer.core.io.payload_block import PayloadBlock
from tfr_viewer.core.query.extract import BYTES, FLOAT, INT64, NONE, ROW_MALFORMED, ROW_OK
from tfr_viewer.core.query.extract_lists import extract_lists


def _sequence(frames: list[list[int]], words: list[bytes], scores: list[float]) -> bytes:
    t = tf().train
    lists = {
        "frames": t.FeatureList(
            feature=[t.Feature(int64_list=t.Int64List(value=f)) for f in frames]
        ),
        "words": t.FeatureList(
            feature=[t.Feature(bytes_list=t.BytesList(value=[w])) for w in words]
        ),
        "scores": t.FeatureList(
            feature=[t.Feature(float_list=t.FloatList(value=[s])) for s in scores] + [t.Feature()]
        ),
    }
    context = t.Features(feature={"id": t.Feature(int64_list=t.Int64List(value=[7]))})
    return t.SequenceExample(
        context=context, feature_lists=t.FeatureLists(feature_list=lists)
    ).SerializeToString()


def test_steps_and_values_of_each_key():
    t = tf().train
    example = t.Example(
        features=t.Features(feature={"frames": t.Feature(int64_list=t.Int64List(value=[1]))})
    ).SerializeToString()
    payloads = [
        _sequence([[1, 2], [], [3]], [b"a", b"bc"], [0.1]),
        example,
        b"\xff\xff not a protobuf",
        _sequence([[4]], [], [0.5, -2.0]),
    ]
    status, columns = extract_lists(
        PayloadBlock.of(payloads), ["frames", "words", "scores", "nope"]
    )
    assert status.tolist() == [ROW_OK, ROW_OK, ROW_MALFORMED, ROW_OK]

    frames = columns["frames"]
    assert frames.present.tolist() == [True, False, False, True]
    assert frames.steps.tolist() == [0, 3, 3, 3, 4]
    assert frames.kinds.tolist() == [INT64] * 4
    assert frames.values.splits.tolist() == [0, 2, 2, 3, 4]
    assert frames.values.values.dtype == np.int64
    assert frames.values.values.tolist() == [1, 2, 3, 4]

    words = columns["words"]
    assert words.steps.tolist() == [0, 2, 2, 2, 2]
    assert words.kinds.tolist() == [BYTES, BYTES]
    assert words.values.values.tolist() == [b"a", b"bc"]

    scores = columns["scores"]
    assert scores.steps.tolist() == [0, 2, 2, 2, 5]
    assert scores.kinds.tolist() == [FLOAT, NONE, FLOAT, FLOAT, NONE]  # an empty Feature
    assert scores.values.values.tolist() == [float(np.float32(0.1)), 0.5, -2.0]

    nope = columns["nope"]
    assert not nope.present.any() and nope.steps.tolist() == [0] * 5


def test_an_empty_block():
    status, columns = extract_lists(PayloadBlock.of([]), ["frames"])
    assert len(status) == 0 and columns["frames"].steps.tolist() == [0]
