"""Rows left out before DuckDB sees them: each WHERE gives the rows DuckDB gives over
every row (the filter turned off), the terms of the forms it takes do leave rows out,
and a few against pandas over TensorFlow's parse; the forms it does not take are left
to DuckDB alone."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from tests.planted_faults import _damage, example_of
from tests.tf_oracle import tf_parsed, tf_write
from tfr_viewer.app.sql import run_sql
from tfr_viewer.core.analyze import sql as sql_module, sql_tables
from tfr_viewer.core.analyze.sql_row_filter import row_filter
from tfr_viewer.core.io import Dataset

COUNT = 90
DAMAGED = 31
BIG = (1 << 62) + 1
FLOATS = [0.1, 0.14, float("nan"), float("inf"), -0.0, 0.5, 2.5, -3.0, 1e-30]
NAMES = [b"cat", b"dog", b"", b"\xff\xfe", b"cattle", b"a\\x41"]


def _features(i: int) -> dict:
    out: dict = {"score": [FLOATS[(i + k) % len(FLOATS)] for k in range(1 + i % 3)]}
    if i % 5:
        out["label"] = [(i * 7 + k) % 4 for k in range(i % 4)] + ([BIG] if i % 11 == 0 else [])
    if i % 3:
        out["name"] = [NAMES[(i + k) % len(NAMES)] for k in range(1 + i % 2)]
    out["mixed"] = [0.5] if i % 9 == 0 else [i % 6]
    return out


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("rowfilter")
    records = [example_of(_features(i)) for i in range(COUNT)]
    tf_write(root / "clean.tfrecord", records)
    tf_write(root / "mixed.tfrecord", records)
    _damage(root / "mixed.tfrecord", DAMAGED)
    return root / "mixed.tfrecord"


PUSHED = [
    "label[1] = 2",
    "label[1] <> 2",
    "label[-1] >= 2",
    "label[2] IN (0, 3)",
    "2 < label[1]",
    "2 <> label[-1]",
    f"label[-1] = {BIG}",
    "label[1] BETWEEN 1 AND 2",
    "list_contains(label, 3)",
    "3 IN label",
    "array_has(label, 0) OR len(label) > 2",
    "len(label) >= 2",
    "length(label) = 0",
    "label IS NOT NULL",
    "label IS NULL",
    "score[1] > 0.1",
    "score[1] = 0.1",
    "score[1] = 0.14",
    "score[1] <= 0",
    "score[1] = 0",
    "score[-1] > 1e3",
    "score[2] < -1",
    "list_contains(score, 0.5)",
    "score[1] BETWEEN 0.1 AND 0.5",
    "name[1] = 'cat'",
    "name[1] < 'd'",
    "name[-1] <> 'dog'",
    "name[1] = ''",
    "list_contains(name, 'cattle')",
    "name[1] IN ('cat', 'dog')",
    "records.label[1] = 1",
    "mixed[1] = 3",
    "mixed[1] >= 0",
    "LABEL[1] = 1 AND score[1] > 0",
    "label[1] = 1 AND index % 2 = 0",
]
NOT_PUSHED = [
    "NOT (label[1] = 2)",
    "label[1] + 1 = 3",
    "label[1] = index",
    "label[1] = 2.5",
    "score[1] = '0.5'",
    "name[1] = 'a\\x41'",
    "name[1] = 1",
    "label[1] = 2 OR index = 3",
    "label[0] = 1",
    "label[1:2] = [1]",
]


def _indexes(query: str, path, *, pushed: bool = True, monkeypatch=None) -> tuple[list, int]:
    """The query's ``index`` column and the rows DuckDB was given."""
    given = [0]
    real = sql_tables._batch

    def counted(table, chunk, schema, where):
        batch = real(table, chunk, schema, where)
        given[0] += batch.num_rows
        return batch

    monkeypatch.setattr(sql_tables, "_batch", counted)
    if not pushed:
        monkeypatch.setattr(sql_module, "row_filter", lambda *a: None)
    with Dataset.open([str(path)]) as ds:
        table = run_sql(query, {"records": ds}).table
    monkeypatch.undo()
    return table.column("index").to_pylist(), given[0]


@pytest.mark.parametrize("where", PUSHED)
def test_a_term_it_takes_gives_duckdbs_rows_and_leaves_rows_out(data, where, monkeypatch):
    query = f"SELECT index FROM records WHERE {where} ORDER BY index"
    assert row_filter(_tree(query), "records", _kinds(data)) is not None
    ours, given = _indexes(query, data, monkeypatch=monkeypatch)
    theirs, every = _indexes(query, data, pushed=False, monkeypatch=monkeypatch)
    assert ours == theirs
    assert every == COUNT
    assert len(ours) <= given < COUNT or (given == COUNT and len(ours) >= COUNT - 1)
    assert DAMAGED not in ours or "IS NULL" in where


@pytest.mark.parametrize("where", NOT_PUSHED)
def test_a_term_of_another_form_is_left_to_duckdb(data, where, monkeypatch):
    query = f"SELECT index FROM records WHERE {where} ORDER BY index"
    assert row_filter(_tree(query), "records", _kinds(data)) is None
    try:
        ours, given = _indexes(query, data, monkeypatch=monkeypatch)
    except sql_module.SqlError:
        return  # DuckDB's own refusal (a list compared with text, a BLOB with 1)
    assert given == COUNT
    theirs, _ = _indexes(query, data, pushed=False, monkeypatch=monkeypatch)
    assert ours == theirs


def test_a_join_is_left_to_duckdb(data):
    query = "SELECT r.index FROM records r JOIN records s ON r.index = s.index WHERE r.label[1] = 2"
    assert row_filter(_tree(query), "records", _kinds(data)) is None


def test_the_rows_kept_are_those_pandas_finds_over_tensorflows_parse(data, monkeypatch):
    frame = _parsed(data.parent / "clean.tfrecord")
    cases = {
        "label[1] = 2": lambda r: len(r.label) >= 1 and r.label[0] == 2,
        "list_contains(name, 'cat')": lambda r: b"cat" in r.name,
        "len(label) >= 2": lambda r: len(r.label) >= 2,
        "score[1] > 0.1": lambda r: r.score[0] > np.float32(0.1) or math.isnan(r.score[0]),
    }
    for where, holds in cases.items():
        query = f"SELECT index FROM records WHERE {where} ORDER BY index"
        ours, _ = _indexes(query, data, monkeypatch=monkeypatch)
        theirs = [i for i, row in enumerate(frame.itertuples()) if i != DAMAGED and holds(row)]
        assert ours == theirs, where


def _parsed(path) -> pd.DataFrame:
    """Every record as TensorFlow's parser reads it (a key a record lacks: no values)."""
    return pd.DataFrame(tf_parsed(path, {"label": "int64", "name": "bytes", "score": "float"}))


def _tree(query: str) -> dict:
    import duckdb

    con = duckdb.connect()
    try:
        return json.loads(con.execute("SELECT json_serialize_sql(?)", [query]).fetchone()[0])
    finally:
        con.close()


def _kinds(path) -> dict[str, str]:
    with Dataset.open([str(path)]) as ds:
        ds.index()
        return sql_tables.table_of("records", ds).features


def test_the_other_columns_are_extracted_from_the_rows_kept_only(data, monkeypatch):
    """The WHERE's keys first; the pictures-like ``name`` only of the rows they keep."""
    seen: list[int] = []
    real = sql_tables._columns

    def counted(table, block, keys):
        if keys == ["name"]:
            seen.append(int((block.starts >= 0).sum()))
        return real(table, block, keys)

    monkeypatch.setattr(sql_tables, "_columns", counted)
    with Dataset.open([str(data)]) as ds:
        rows = run_sql(
            "SELECT index, name FROM records WHERE label[1] = 2 ORDER BY index", {"records": ds}
        ).table.to_pylist()
    assert rows and sum(seen) == len(rows)
    assert all(r["index"] != DAMAGED for r in rows)


def test_a_long_in_list_is_one_test(data, monkeypatch):
    """20,000 constants: tested at once, the same rows as DuckDB's alone."""
    constants = ", ".join(str(v) for v in range(3, 20_003))
    query = f"SELECT index FROM records WHERE label[1] IN (0, {constants}) ORDER BY index"
    found = row_filter(_tree(query), "records", _kinds(data))
    assert found is not None and len(found.tests) == 1
    ours, given = _indexes(query, data, monkeypatch=monkeypatch)
    theirs, _ = _indexes(query, data, pushed=False, monkeypatch=monkeypatch)
    assert ours == theirs and given < COUNT
