"""The label checks' naming of classes: the dataset-wide names (its labels' texts or a
TFDS folder's ClassLabel names) fill a finding's evidence and message where the record
gave none, and never replace what it gave."""

from __future__ import annotations

from tfr_viewer.core.analyze.findings import Finding
from tfr_viewer.core.analyze.label_checks import class_names, message_of, with_class_names


def test_classes_are_named_where_the_record_gave_no_name():
    evidence = {
        "prediction": 0,
        "score": 0.9,
        "predicted_class": 2,
        "iou": 0.8,
        "class": 1,
        "rank": 0.7,
    }
    bare = Finding(
        "label_class", message_of("label_class", 1, evidence), 4, box=1, evidence=evidence
    )
    named = with_class_names([bare], {1: "cat", 2: "dog"})[0]
    assert named.evidence["text"] == "cat" and named.evidence["predicted_text"] == "dog"
    assert (
        named.message
        == "box 1 is labelled 'cat' (1); the model finds 'dog' (2) there (score 0.90, IoU 0.80)"
    )
    own = {**evidence, "text": "kitten"}
    kept = with_class_names([Finding("label_class", "", 4, box=1, evidence=own)], {1: "cat"})[0]
    assert kept.evidence["text"] == "kitten"
    plain = Finding("box_inverted", "box 0 has …", 3)
    assert with_class_names([plain], {1: "cat"}) == [plain]


def test_the_most_common_name_of_an_id_wins():
    assert class_names({"cat": {1: 5}, "kitty": {1: 2}, "dog": {2: 3}}) == {1: "cat", 2: "dog"}
