"""Filter semantics over real records, and hostile expressions that must be refused."""

from __future__ import annotations

import pytest

from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.io.framing import encode_frame
from tfr_viewer.core.query.filtering import matches_of, matching
from tfr_viewer.core.query.language import QueryError, compile_filter
from tfr_viewer.core.write.build import build_example

RECORDS = [
    {"label": 3, "name": "cat", "score": [0.9, 0.7], "image/class/label": 1},
    {"label": 1, "name": "dog", "score": [0.2, 0.95]},
    {"label": [2, 3], "name": "caterpillar", "score": [0.6, 0.6, 0.6]},
    {"name": "émile", "score": []},
]


@pytest.fixture(scope="module")
def ds(tmp_path_factory):
    path = tmp_path_factory.mktemp("q") / "q.tfrecord"
    frames = [encode_frame(build_example(r, kinds={"score": "float"})) for r in RECORDS]
    bad = bytearray(frames[1])
    bad[-1] ^= 1  # record 1: bad payload CRC
    frames[1] = bytes(bad)
    path.write_bytes(b"".join(frames) + encode_frame(b"not an example"))
    with Dataset([str(path)]) as dataset:
        dataset.index()
        yield dataset


def hits(ds, text):
    return matches_of(matching(ds, compile_filter(text), verified=False)).tolist()


# Record 1 has a bad payload CRC, so it has no features; record 4 is not an Example.
@pytest.mark.parametrize(
    "text,expected",
    [
        ("label == 3", [0, 2]),
        ("label != 3", [2]),  # some element differs
        ("not (label == 3)", [1, 3, 4]),
        ("label == [2, 3]", [2]),
        ('f["image/class/label"] == 1', [0]),
        ('has("label")', [0, 2]),
        ('not has("label")', [1, 3, 4]),
        ("len(score) == 3", [2]),
        ("len(score) == 0", [1, 3, 4]),  # missing counts as empty
        ("all(score > 0.5)", [0, 1, 2, 3, 4]),  # all of nothing is true
        ("any(score > 0.5)", [0, 2]),
        ("score > 0.8", [0]),
        ("max(score) > 0.85 or label == 2", [0, 2]),
        ('name == "cat"', [0]),
        ('name in ["dog", "cat"]', [0]),
        ('"cat" in name', [0]),
        ('contains(name, "cat")', [0, 2]),
        ('startswith(name, "é")', [3]),
        ('match(name, "^ca.*r$")', [2]),
        ('lower(name) == "CAT"', []),
        ('status == "bad_data_crc"', [1]),
        ('status == "ok" and length > 20', [0, 2, 3]),
        ("offset == 0", [0]),
        ('endswith(file, "q.tfrecord") and index >= 3', [3, 4]),
        ("label * 2 == 6", [0, 2]),
        ("score[0] > 0.5", [0, 2]),
        ("score[-1] == 0.6", []),  # float32 0.6 is not the double 0.6
        ("1 < label < 3", [2]),
        ("label in [2]", [2]),
    ],
)
def test_semantics(ds, text, expected):
    assert hits(ds, text) == expected


@pytest.mark.parametrize(
    "text,column,fragment",
    [
        ("__import__('os')", 1, "unknown function"),
        ("label.real == 3", 1, "attribute access"),
        ("open('x')", 1, "unknown function"),
        ("[x for x in label]", 1, "comprehension"),
        ("(lambda: 1)()", 1, "plain function names"),
        ("label ** 2 > 1", 1, "Pow"),
        ("label == 3 and foo(1)", 16, "unknown function"),
        ("label = 3", 7, ""),
        ("f[label]", 3, "quoted"),
        ("label == {1: 2}", 10, "dict"),
    ],
)
def test_refused_with_the_column(text, column, fragment):
    with pytest.raises(QueryError) as exc:
        compile_filter(text)
    assert exc.value.column == column
    assert fragment in exc.value.message
    assert "^" in str(exc.value)


@pytest.mark.parametrize(
    "text",
    [
        "(" * 500 + "1" + ")" * 500,
        "not " * 200 + "1",
        " + ".join(["1"] * 300) + " == 1",
        "1" * 5000,
    ],
)
def test_deep_or_huge_expressions_are_refused(text):
    with pytest.raises(QueryError):
        compile_filter(text)


def test_type_mistakes_are_reported_not_crashes(ds):
    with pytest.raises(QueryError, match="arithmetic needs numbers"):
        hits(ds, "name * 2 == 1")
    assert hits(ds, "name > 3") == []
