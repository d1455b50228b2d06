"""Layouts are recognised by shape, and hand mapping overrides the guess."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from PIL import Image

from tfr_viewer.core.decode.layouts import KeyMap, recognise
from tfr_viewer.core.decode.payloads import decode
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.write.build import build_example

SAMPLES = Path(__file__).resolve().parents[4] / "resources" / "samples"


def png(w=8, h=6, mode="RGB") -> bytes:
    buf = io.BytesIO()
    Image.new(mode, (w, h)).save(buf, format="PNG")
    return buf.getvalue()


def features(values, kinds=None):
    return decode(build_example(values, kinds)).payload.features


def test_object_detection_sample():
    with Dataset([str(SAMPLES / "shapes_odapi.tfrecord")]) as ds:
        ds.index()
        feats = decode(ds.read(0)).payload.features
    (ann,) = recognise(feats)
    assert ann.layout == "odapi" and ann.key == "image/encoded"
    xmin = feats["image/object/bbox/xmin"].values
    assert len(ann.boxes) == len(xmin)
    assert ann.boxes[0].xmin == float(xmin[0])
    assert ann.boxes[0].text in ("circle", "square", "triangle")
    assert ann.boxes[0].label == int(feats["image/object/class/label"].values[0])
    assert ann.normalized


def test_tfds_boxes_are_ymin_xmin_ymax_xmax():
    feats = features(
        {"image": png(), "objects/bbox": [0.1, 0.2, 0.3, 0.4], "label": 4},
        kinds={"objects/bbox": "float"},
    )
    (ann,) = recognise(feats)
    assert ann.layout == "tfds"
    b = ann.boxes[0]
    assert np.allclose([b.ymin, b.xmin, b.ymax, b.xmax], [0.1, 0.2, 0.3, 0.4])
    assert ann.label == 4


def test_tutorial_and_raw_pixels():
    (ann,) = recognise(
        features({"image_raw": png(), "label": 2, "height": 6, "width": 8, "depth": 3})
    )
    assert ann.layout == "tutorial" and ann.label == 2
    raw = bytes(range(24)) * 3  # 6 x 4 x 3
    (ann,) = recognise(features({"pixels": raw, "rows": 6, "cols": 4}))
    assert ann.layout == "raw" and ann.raw_shape == (6, 4, 3)


def test_names_vary_and_hand_mapping_wins():
    feats = features(
        {"img": png(), "bx0": [0.1], "by0": [0.1], "bx1": [0.5], "by1": [0.5], "cls": [1]},
        kinds={k: "float" for k in ("bx0", "by0", "bx1", "by1")},
    )
    (ann,) = recognise(feats)
    assert ann.key == "img" and ann.boxes == ()
    km = KeyMap(xmin="bx0", ymin="by0", xmax="bx1", ymax="by1", label="cls")
    (ann,) = recognise(feats, km)
    assert len(ann.boxes) == 1 and ann.boxes[0].xmax == np.float32(0.5)
    assert ann.boxes[0].label == 1


def test_masks_keypoints_several_images_and_no_image():
    feats = features(
        {
            "image/encoded": png(),
            "thumb": png(2, 2),
            "image/object/bbox/xmin": [0.0],
            "image/object/bbox/ymin": [0.0],
            "image/object/bbox/xmax": [1.0],
            "image/object/bbox/ymax": [1.0],
            "image/object/mask": [png(8, 6, "L")],
            "image/object/keypoint/x": [0.5, 0.25],
            "image/object/keypoint/y": [0.5, 0.75],
        },
        kinds={
            "image/object/bbox/xmin": "float",
            "image/object/bbox/ymin": "float",
            "image/object/bbox/xmax": "float",
            "image/object/bbox/ymax": "float",
        },
    )
    anns = recognise(feats)
    assert sorted(a.key for a in anns) == ["image/encoded", "thumb"]
    main = next(a for a in anns if a.key == "image/encoded")
    assert len(main.masks) == 1 and main.keypoints == ((0.5, 0.5), (0.25, 0.75))
    assert recognise(features({"label": 1})) == []


def test_a_box_a_little_past_the_image_is_still_in_fractions():
    from tfr_viewer.core.decode.payload_types import FeatureData

    def floats(*v):
        return FeatureData("float", list(v))

    features = {
        "image/encoded": FeatureData("bytes", [b"\xff\xd8\xff\xe0" + bytes(40)]),
        "image/object/bbox/xmin": floats(0.1, 0.5),
        "image/object/bbox/ymin": floats(0.2, 0.5),
        "image/object/bbox/xmax": floats(1.2, 0.6),
        "image/object/bbox/ymax": floats(0.7, 0.6),
    }
    assert recognise(features)[0].normalized
    features["image/object/bbox/xmax"] = floats(50.0, 60.0)
    assert not recognise(features)[0].normalized


def test_keys_named_by_hand_that_a_record_lacks_are_guessed():
    from tfr_viewer.core.decode.layouts import KeyMap

    named = KeyMap(image="photo", xmin="left", label="kind")
    assert named.present_in(["photo", "kind"]) == KeyMap(image="photo", label="kind")
    assert named.present_in([]) == KeyMap()
    assert named.named() == {"image": "photo", "xmin": "left", "label": "kind"}


def _mnist_like(tmp_path, feature):
    """An MNIST-style file written by TensorFlow: 784 pixel values under ``image``."""
    from tests.tf_oracle import tf, tf_write

    t = tf()
    rng = np.random.default_rng(5)
    digit = rng.random((28, 28)).astype(np.float32)
    payload = t.train.Example(
        features=t.train.Features(
            feature={
                "image": feature(digit),
                "label": t.train.Feature(int64_list=t.train.Int64List(value=[7])),
            }
        )
    ).SerializeToString()
    return tf_write(tmp_path / "mnist.tfrecord", [payload]), digit


def test_pixels_stored_as_floats_are_a_picture_and_say_which_keys(tmp_path):
    from tests.tf_oracle import tf
    from tfr_viewer import open as tfv_open

    t = tf()
    path, digit = _mnist_like(
        tmp_path, lambda d: t.train.Feature(float_list=t.train.FloatList(value=d.ravel()))
    )
    record = tfv_open(str(path))[0]
    (picture,) = record.images()
    assert picture.raw_shape == (28, 28, 1)
    assert "pixels of 'image' (784 float values) shown as 28×28×1" in picture.notes[0]
    shown = np.asarray(record.image())
    assert shown.shape == (28, 28)
    assert np.array_equal(shown, np.clip(np.rint(digit * 255), 0, 255).astype(np.uint8))


def test_numbers_with_a_shape_key_are_a_picture_of_that_shape():
    values = list(range(2 * 40 * 3))
    found = recognise(features({"pixels": values, "image/shape": [2, 40, 3]}, {"pixels": "int64"}))
    (picture,) = found
    assert picture.raw_shape == (2, 40, 3)
    assert "the shape from 'image/shape'" in picture.notes[0]
    # numbers under a key that names no picture, and with no shape, stay numbers
    assert recognise(features({"embedding": [0.5] * 784})) == []


def test_a_detection_record_without_boxes_keeps_its_layout():
    """A background picture of an Object Detection API set: empty box lists, its
    layout all the same (not "generic")."""
    corners = {f"image/object/bbox/{c}": [] for c in ("xmin", "ymin", "xmax", "ymax")}
    (picture,) = recognise(
        features({"image/encoded": png(), **corners}, dict.fromkeys(corners, "float"))
    )
    assert picture.boxes == () and picture.layout == "odapi"
