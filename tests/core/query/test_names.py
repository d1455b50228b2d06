"""A feature named like a record column (index, file, offset, length, status): a bare
name means the feature when the data has one, ``record.NAME`` always the column, in
every command and on every part of a dataset."""

from __future__ import annotations

import json

import pytest

from tests.program import program
from tests.tf_oracle import tf, tf_read, tf_write
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.query import compile_filter, matches_of, matching
from tfr_viewer.core.query.names import (
    bare_record_names,
    column_feature,
    feature_column,
    resolve_names,
)


def _example(**features: int) -> bytes:
    t = tf().train
    feature = {k: t.Feature(int64_list=t.Int64List(value=[v])) for k, v in features.items()}
    return t.Example(features=t.Features(feature=feature)).SerializeToString()


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("names")
    shadowing = tf_write(
        folder / "shadowing.tfrecord",
        [_example(length=2 if i % 4 == 0 else 3, status=1, label=i) for i in range(20)],
    )
    plain = tf_write(folder / "plain.tfrecord", [_example(label=i) for i in range(20)])
    return shadowing, plain


def _count(path, text: str) -> int:
    out = program("count", "--json", "--filter", text, str(path))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["count"]


def _tf_count(path, key: str, value: int) -> int:
    t = tf()
    spec = {key: t.io.FixedLenFeature([], t.int64)}
    return sum(int(t.io.parse_single_example(r, spec)[key].numpy()) == value for r in tf_read(path))


def test_a_bare_name_means_the_feature_when_the_data_has_one(files):
    shadowing, _ = files
    assert _count(shadowing, "length == 2") == _tf_count(shadowing, "length", 2) == 5
    assert _count(shadowing, 'f["length"] == 2') == 5
    assert _count(shadowing, "status == 1") == 20
    frame = len(tf_read(shadowing)[0])
    assert _count(shadowing, f"record.length == {frame}") == 20
    assert _count(shadowing, "record.status == 'ok' and length == 3") == 15


def test_a_bare_name_means_the_record_column_otherwise(files):
    _, plain = files
    lengths = [len(r) for r in tf_read(plain)]
    cut = sorted(lengths)[len(lengths) // 2]
    expected = sum(n > cut for n in lengths)
    assert _count(plain, f"length > {cut}") == _count(plain, f"record.length > {cut}") == expected


def test_a_part_of_a_dataset_filters_by_the_whole_datasets_meaning(files, tmp_path):
    shadowing, _ = files
    with Dataset([str(shadowing)]) as ds:
        ds.index()
        text = resolve_names(ds, "length == 2 or record.index < 0 or index == -1")
        hits = matches_of(matching(ds, compile_filter("length == 2"), verified=False)).tolist()
    assert text == "f['length'] == 2 or record.index < 0 or record.index == -1"
    assert hits == [0, 4, 8, 12, 16]
    # a split that holds no record with the feature still reads the text as the whole does
    with Dataset([str(shadowing)]) as ds:
        ds.index()
        assert compile_filter(text).record_names == frozenset()


def test_names_and_column_ids():
    assert bare_record_names("length > 2 and record.offset > 0 and f['index'] == 1") == {"length"}
    assert column_feature(feature_column("length")) == "length"
    assert column_feature(feature_column('a "quoted"/key')) == 'a "quoted"/key'
    assert column_feature("length") is None
