"""``features.json`` read as TFDS writes it (each feature's kind, dtype, shape and the
sequence it is a step of), and a hand-made or hostile one described as far as it holds."""

from __future__ import annotations

import json

from tfr_viewer.core.io.tfds_features import MAX_FEATURES, feature_specs


def _tensor(dtype, *dims):
    shape = {"dimensions": [str(d) for d in dims]} if dims else {}
    return {"tensor": {"dtype": dtype, "encoding": "none", "shape": shape}}


def _dict(**features):
    return {"featuresDict": {"features": features}}


def test_a_nested_dataset_of_steps_is_flattened_into_record_keys():
    document = _dict(
        steps={
            "sequence": {
                "feature": _dict(
                    action=_tensor("float32", 7),
                    obs=_dict(
                        image={
                            "image": {
                                "dtype": "uint8",
                                "encodingFormat": "jpeg",
                                "shape": {"dimensions": ["64", "64", "3"]},
                            }
                        },
                    ),
                    is_first=_tensor("bool"),
                    text={"text": {}},
                )
            }
        },
        episode_metadata=_dict(score=_tensor("float32"), label={"classLabel": {"numClasses": "3"}}),
    )
    specs = feature_specs(document)
    assert sorted(specs) == [
        "episode_metadata/label",
        "episode_metadata/score",
        "steps/action",
        "steps/is_first",
        "steps/obs/image",
        "steps/text",
    ]
    action = specs["steps/action"]
    assert (action.kind, action.dtype, action.shape, action.sequence, action.name) == (
        "tensor",
        "float32",
        (7,),
        "steps",
        "action",
    )
    image = specs["steps/obs/image"]
    assert (image.kind, image.encoding, image.shape, image.size) == (
        "image",
        "jpeg",
        (64, 64, 3),
        64 * 64 * 3,
    )
    assert specs["steps/is_first"].shape == () and specs["steps/is_first"].size == 1
    assert specs["episode_metadata/score"].sequence is None
    assert specs["episode_metadata/label"].kind == "class_label"


def test_a_hostile_document_describes_what_it_can():
    assert feature_specs(None) == {}
    assert feature_specs([1, 2]) == {}
    assert feature_specs(_dict(a="text", b={"tensor": "no"}, c=_tensor("float32", "x", "-1"))) == {
        "c": feature_specs(_dict(c=_tensor("float32", "x", "-1")))["c"]
    }
    open_dims = feature_specs(_dict(c=_tensor("float32", "x", "-1", "9" * 5000)))["c"]
    assert open_dims.shape == (None, None, None) and open_dims.size is None
    deep: dict = _tensor("float32")
    for _ in range(200):
        deep = _dict(x=deep)
    assert feature_specs(json.loads(json.dumps(deep))) == {}  # deeper than followed
    many = _dict(**{f"k{i}": _tensor("int64") for i in range(MAX_FEATURES + 50)})
    assert len(feature_specs(many)) == MAX_FEATURES
