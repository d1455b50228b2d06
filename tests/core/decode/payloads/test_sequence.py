"""A SequenceExample's frames are pictures: every frame through the API, frame 0 first
(the gallery's tile), each as TensorFlow decodes it."""

from __future__ import annotations

import io

import numpy as np

from tests.tf_oracle import tf, tf_write
from tfr_viewer import open as tfv_open


def _jpeg(seed: int) -> bytes:
    from PIL import Image

    rng = np.random.default_rng(seed)
    out = io.BytesIO()
    Image.fromarray(rng.integers(0, 256, (64, 96, 3), dtype=np.uint8)).save(out, "JPEG")
    return out.getvalue()


def clip(tmp_path, frames: int = 4):
    t = tf()
    pictures = [_jpeg(i) for i in range(frames)]
    sequence = t.train.SequenceExample(
        context=t.train.Features(
            feature={"clip/label": t.train.Feature(int64_list=t.train.Int64List(value=[3]))}
        ),
        feature_lists=t.train.FeatureLists(
            feature_list={
                "frames": t.train.FeatureList(
                    feature=[
                        t.train.Feature(bytes_list=t.train.BytesList(value=[p])) for p in pictures
                    ]
                ),
                "steering": t.train.FeatureList(
                    feature=[
                        t.train.Feature(float_list=t.train.FloatList(value=[0.1 * i]))
                        for i in range(frames)
                    ]
                ),
            }
        ),
    )
    return tf_write(tmp_path / "clips.tfrecord", [sequence.SerializeToString()]), pictures


def test_every_frame_is_a_picture_in_step_order(tmp_path):
    path, pictures = clip(tmp_path)
    record = tfv_open(str(path))[0]
    assert record.type == "sequence_example"
    found = record.images()
    assert [a.data for a in found] == pictures
    assert [(a.key, a.index, a.layout) for a in found] == [
        ("frames", i, "frames") for i in range(4)
    ]
    first = np.asarray(record.image().convert("RGB"))
    assert first.shape == tuple(tf().io.decode_jpeg(pictures[0]).shape)
