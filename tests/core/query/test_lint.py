"""Filter warnings: what compiles but would silently match nothing."""

from __future__ import annotations

from tfr_viewer.core.query.lint import lint_filter

KINDS = {
    "label": "int64",
    "image/height": "int64",
    "image/object/bbox/xmin": "float",
    "image/object/class/text": "bytes",
    "width": "int64",
    "height": "int64",
}


def test_a_missing_key_gets_the_closest_known_one():
    assert lint_filter("lable == 3", KINDS) == [
        "no record in the sample has `lable`; did you mean `label`?"
    ]
    assert lint_filter('f["image/heigth"] > 1', KINDS) == [
        'no record in the sample has `image/heigth`; did you mean `f["image/height"]`?'
    ]


def test_a_slashed_key_without_quotes_is_named_as_one_key():
    assert lint_filter("image/height > 100", KINDS) == [
        "`image/height` without quotes is read as a division; a key with slashes goes in "
        'quotes: f["image/height"]'
    ]
    deep = lint_filter("min(image/object/bbox/xmin) < 0", KINDS)
    assert deep == [
        "`image/object/bbox/xmin` without quotes is read as a division; a key with slashes "
        'goes in quotes: f["image/object/bbox/xmin"]'
    ]
    assert lint_filter("image/heigth > 100", KINDS) == [
        'no record in the sample has `image/heigth`; did you mean `f["image/height"]`?'
    ]


def test_a_division_of_features_that_exist_is_left_alone():
    assert lint_filter("width / height > 1.5", KINDS) == []
    assert lint_filter("label / 2 == 1", KINDS) == []


def test_kinds_that_never_match_and_bare_words():
    assert lint_filter('label == "3"', KINDS) == [
        "label holds numbers (int64), so it never equals the text '3'; "
        "compare with a number: label == 3"
    ]
    assert lint_filter('f["image/object/class/text"] == circle', KINDS) == [
        '`circle` is not a feature; to compare f["image/object/class/text"] with the text '
        'circle, quote it: f["image/object/class/text"] == "circle"'
    ]
    assert lint_filter("label == 3 and (", KINDS) == []  # does not parse: no warning
