"""SQL over datasets against pandas over TensorFlow's parse of the same records: a
group-by over the boxes of a detection set, the train × val leakage join on each
picture's SHA-256, a window function, list unnesting, our picture functions, text
records, the records' own columns (a damaged one's status, its features NULL), a key
only late records hold, a key of two kinds; and what is refused: anything but one
SELECT over the tables, table functions, files."""

from __future__ import annotations

import hashlib
import io

import numpy as np
import pandas as pd
import pytest

from tests.planted_faults import example_of
from tests.tf_oracle import tf, tf_parsed, tf_write
from tfr_viewer.app.sql import run_sql
from tfr_viewer.core.analyze.sql import Query, SqlError
from tfr_viewer.core.analyze.sql_tables import SAMPLE, table_of
from tfr_viewer.core.io import Dataset

CLASSES = {1: b"cat", 2: b"dog", 3: b"bird"}


def _picture(i: int) -> bytes:
    from PIL import Image

    side = (16 + i % 5, 12 + i % 3)
    out = io.BytesIO()
    Image.new("RGB", side, (i * 9 % 256, 40, 90)).save(out, "PNG" if i % 2 else "JPEG")
    return out.getvalue()


def _detection(i: int) -> dict:
    labels = [1 + (i * 7 + k) % 3 for k in range(i % 4)]
    return {
        "image/encoded": [_picture(i)],
        "image/object/class/label": labels,
        "image/object/class/text": [CLASSES[c] for c in labels],
        "image/object/bbox/xmin": [0.1 * k for k in range(len(labels))],
        "split/score": [i / 7],
    }


@pytest.fixture(scope="module")
def detection(tmp_path_factory):
    root = tmp_path_factory.mktemp("sql")
    train = [_detection(i) for i in range(60)]
    val = [_detection(i) for i in (5, 17, 200, 201, 33)]  # three pictures also in train
    tf_write(root / "train.tfrecord", [example_of(f) for f in train])
    tf_write(root / "val.tfrecord", [example_of(f) for f in val])
    return root


def _parsed(path) -> pd.DataFrame:
    """Every record as TensorFlow's parser reads it, a column a feature (lists)."""
    kinds = {"image/encoded": "bytes", "image/object/class/label": "int64",
             "image/object/class/text": "bytes", "image/object/bbox/xmin": "float"}  # fmt: skip
    return pd.DataFrame(tf_parsed(path, kinds))


def _run(query: str, **paths) -> pd.DataFrame:
    datasets = {name: Dataset.open([str(p)]) for name, p in paths.items()}
    try:
        return run_sql(query, datasets).to_pandas()
    finally:
        for ds in datasets.values():
            ds.close()


def test_boxes_per_class_as_pandas_counts_them(detection):
    ours = _run(
        'SELECT c, count(*) AS n FROM (SELECT unnest("image/object/class/label") AS c '
        "FROM records) GROUP BY c ORDER BY c",
        records=detection / "train.tfrecord",
    )
    frame = _parsed(detection / "train.tfrecord")
    theirs = frame["image/object/class/label"].explode().dropna().astype(int).value_counts()
    assert dict(zip(ours["c"], ours["n"], strict=True)) == theirs.sort_index().to_dict()


def test_the_leakage_join_finds_the_pictures_in_both(detection):
    ours = _run(
        'SELECT t.index AS t, v.index AS v FROM train t JOIN val v ON sha256(t."image/encoded"[1])'
        ' = sha256(v."image/encoded"[1]) ORDER BY t, v',
        train=detection / "train.tfrecord",
        val=detection / "val.tfrecord",
    )
    train, val = _parsed(detection / "train.tfrecord"), _parsed(detection / "val.tfrecord")
    digest = [hashlib.sha256(p[0]).hexdigest() for p in train["image/encoded"]]
    pairs = [
        (t, v)
        for v, p in enumerate(val["image/encoded"])
        for t, d in enumerate(digest)
        if d == hashlib.sha256(p[0]).hexdigest()
    ]
    assert list(zip(ours["t"], ours["v"], strict=True)) == sorted(pairs)
    assert len(pairs) == 3


def test_a_window_function_and_text_by_class(detection):
    ours = _run(
        'SELECT index, len("image/object/class/label") AS n, sum(len("image/object/class/'
        'label")) OVER (ORDER BY index) AS running FROM records ORDER BY index',
        records=detection / "train.tfrecord",
    )
    frame = _parsed(detection / "train.tfrecord")
    counts = frame["image/object/class/label"].map(len)
    assert ours["n"].tolist() == counts.tolist()
    assert ours["running"].tolist() == counts.cumsum().tolist()
    texts = _run(
        'SELECT decode(t) AS t, count(*) AS n FROM (SELECT unnest("image/object/class/text") '
        "AS t FROM records) GROUP BY ALL ORDER BY t",
        records=detection / "train.tfrecord",
    )
    theirs = frame["image/object/class/text"].explode().dropna().value_counts()
    assert dict(zip(texts["t"], texts["n"], strict=True)) == {
        k.decode(): v for k, v in theirs.to_dict().items()
    }


def test_floats_and_picture_sizes_are_tensorflows(detection):
    ours = _run(
        'SELECT "image/object/bbox/xmin" AS x, image_width("image/encoded"[1]) AS w, '
        'image_height("image/encoded"[1]) AS h, image_format("image/encoded"[1]) AS f '
        "FROM records ORDER BY index",
        records=detection / "train.tfrecord",
    )
    t = tf()
    frame = _parsed(detection / "train.tfrecord")
    theirs = zip(frame["image/encoded"], frame["image/object/bbox/xmin"], strict=True)
    for row, (pictures, xs) in zip(ours.itertuples(), theirs, strict=True):
        shape = t.io.decode_image(pictures[0]).shape
        assert (row.h, row.w) == (shape[0], shape[1])
        assert row.f == ("png" if pictures[0][:4] == b"\x89PNG" else "jpeg")
        assert np.array_equal(np.asarray(row.x, np.float32), np.asarray(xs, np.float32))


def test_the_records_own_columns_and_a_damaged_one(tmp_path):
    from tests.planted_faults import _damage

    path = tmp_path / "d.tfrecord"
    payloads = [example_of({"n": [i]}) for i in range(12)]
    tf_write(path, payloads)
    _damage(path, 4)
    ours = _run('SELECT index, "offset", length, status, n FROM records', records=path)
    offset = 0
    for i, row in enumerate(ours.itertuples()):
        assert (row.index, row.offset, row.length) == (i, offset, len(payloads[i]))
        offset += 16 + len(payloads[i])
        if i == 4:
            assert row.status == "bad_data_crc" and row.n is None
        else:
            assert row.status == "ok" and list(row.n) == [i]
    # the status alone, no feature named: each payload checked all the same
    counted = _run("SELECT status, count(*) AS k FROM records GROUP BY 1 ORDER BY 1", records=path)
    assert counted.values.tolist() == [["bad_data_crc", 1], ["ok", 11]]


def test_a_key_only_late_records_hold_is_found(tmp_path):
    path = tmp_path / "late.tfrecord"
    count = 3000
    sampled = set(np.unique(np.linspace(0, count - 1, SAMPLE).astype(np.int64)).tolist())
    late = next(i for i in range(count - 1, 0, -1) if i not in sampled)
    features = [{"n": [i]} for i in range(count)]
    features[late]["rare"] = [b"here"]
    tf_write(path, [example_of(f) for f in features])
    with Dataset([str(path)]) as ds:
        ds.index()
        assert "rare" not in table_of("records", ds).features
    ours = _run("SELECT index FROM records WHERE rare IS NOT NULL", records=path)
    assert ours["index"].tolist() == [late]


def test_a_key_of_two_kinds_is_null_where_it_is_the_other(tmp_path):
    path = tmp_path / "kinds.tfrecord"
    tf_write(path, [example_of({"v": [i]}) for i in range(9)] + [example_of({"v": [0.5]})])
    with Dataset([str(path)]) as ds:
        report = run_sql("SELECT count(v) AS held FROM records", {"records": ds})
    assert report.table.column("held").to_pylist() == [9]
    assert report.warnings and "'v' is read as NULL in 1 records" in report.warnings[0]


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("COPY records TO 'out.csv'", "only a SELECT"),
        ("ATTACH 'other.db'", "only a SELECT"),
        ("INSTALL httpfs", "only a SELECT"),
        ("SET memory_limit = '100GB'", "only a SELECT"),
        ("SELECT 1; SELECT 2", "one statement"),
        ("SELECT * FROM read_csv('FILE')", "table function"),
        ("SELECT * FROM 'FILE'", "file system operations are disabled"),
        ("SELECT nope FROM records", "no column 'nope'"),
        ("SELECT * FROM elsewhere", "the tables here: records"),
        ("SELEC 1", "syntax error"),
    ],
)
def test_what_is_refused_is_one_sql_error(tmp_path, query, said):
    outside = tmp_path / "secret.csv"
    outside.write_text("a,b\n1,2\n")
    path = tmp_path / "d.tfrecord"
    tf_write(path, [example_of({"n": [1]})])
    with Dataset([str(path)]) as ds:
        ds.index()
        table = table_of("records", ds)
        with pytest.raises(SqlError, match=said) as caught:
            Query(query.replace("FILE", str(outside)), {"records": table}).run()
    assert "\n" not in str(caught.value)
    assert not (tmp_path / "out.csv").exists() and outside.read_text() == "a,b\n1,2\n"


def test_a_query_past_its_memory_is_one_sql_error(tmp_path):
    path = tmp_path / "d.tfrecord"
    tf_write(path, [example_of({"n": [i]}) for i in range(3000)])
    with Dataset([str(path)]) as ds:
        ds.index()
        table = table_of("records", ds)
        hungry = (
            "SELECT max(len(l)) FROM (SELECT list(a.index || '-' || b.index) AS l "
            "FROM records a, records b GROUP BY a.index % 2)"
        )
        with pytest.raises(SqlError, match="(?i)memory"):
            Query(hungry, {"records": table}, memory_limit="64MB").run()


def test_a_query_is_cancelled_from_another_thread(tmp_path):
    import threading

    path = tmp_path / "d.tfrecord"
    tf_write(path, [example_of({"n": [i]}) for i in range(2000)])
    with Dataset([str(path)]) as ds:
        ds.index()
        table = table_of("records", ds)
        endless = "SELECT count(*) FROM records a, records b, records c, records d"
        query = Query(endless, {"records": table})
        stop = threading.Event()
        query.stop = stop.is_set
        threading.Timer(0.5, stop.set).start()
        with pytest.raises(SqlError, match="cancelled"):
            query.run()


def test_text_records_word_counts_as_pandas(tmp_path):
    path = tmp_path / "reviews.tfrecord"
    texts = ["good film", "bad film bad plot", "good good plot", "fine", "bad acting"]
    tf_write(path, [example_of({"text": [t.encode()], "label": [int("good" in t)],
                                "tokens": list(range(len(t.split())))})
                    for t in texts * 3])  # fmt: skip
    ours = _run(
        "SELECT w, count(*) AS n FROM (SELECT unnest(string_split(decode(text[1]), ' ')) AS w "
        "FROM records) GROUP BY w ORDER BY w",
        records=path,
    )
    by_label = _run(
        "SELECT label[1] AS label, avg(len(tokens)) AS tokens, count(*) AS n FROM records "
        "GROUP BY 1 ORDER BY 1",
        records=path,
    )
    t = tf()
    spec = {"text": t.io.FixedLenFeature([], t.string), "label": t.io.FixedLenFeature([], t.int64),
            "tokens": t.io.VarLenFeature(t.int64)}  # fmt: skip
    rows = []
    for record in t.data.TFRecordDataset(str(path)):
        parsed = t.io.parse_single_example(record, spec)
        rows.append({"text": parsed["text"].numpy().decode(), "label": int(parsed["label"]),
                     "tokens": len(parsed["tokens"].values)})  # fmt: skip
    frame = pd.DataFrame(rows)
    words = frame["text"].str.split(" ").explode().value_counts().sort_index()
    assert dict(zip(ours["w"], ours["n"], strict=True)) == words.to_dict()
    grouped = frame.groupby("label").agg(tokens=("tokens", "mean"), n=("label", "size"))
    assert by_label["label"].tolist() == grouped.index.tolist()
    assert np.allclose(by_label["tokens"], grouped["tokens"]) and by_label["n"].tolist() == [
        int(n) for n in grouped["n"]
    ]


def test_episodes_their_steps_and_rewards_as_tfds_reads_them(tmp_path):
    from tests.rlds_data import Planned, Shape, tfds_episodes, write_rlds

    folder = write_rlds(tmp_path, {"train": [Planned(5, seed=1), Planned(8, seed=2),
                                             Planned(3, seed=3)]}, Shape(size=32))  # fmt: skip
    ours = _run(
        'SELECT len("steps/reward") AS steps, list_sum("steps/reward") AS reward, '
        'decode("episode_metadata/file_path"[1]) AS path, '
        'len(list_filter("steps/is_last", lambda x: x = 1)) AS last FROM train ORDER BY index',
        train=folder,
    )
    theirs = tfds_episodes(folder, "train")
    assert ours["steps"].tolist() == [len(e["steps"]["reward"]) for e in theirs]
    assert np.allclose(ours["reward"], [float(np.sum(e["steps"]["reward"])) for e in theirs])
    assert ours["path"].tolist() == [e["episode_metadata"]["file_path"].decode() for e in theirs]
    assert ours["last"].tolist() == [int(np.sum(e["steps"]["is_last"])) for e in theirs]


@pytest.mark.parametrize(
    "where",
    [
        "index BETWEEN 40 AND 44",
        "index >= 40 AND 45 > index",
        "index IN (40, 41, 42, 43, 44, 99)",
        "r.index > 39 AND index <= 44 AND label[1] >= 0",
    ],
)
def test_a_where_on_index_reads_only_those_records(tmp_path, where, monkeypatch):
    """The rows are those the whole WHERE gives; the records read, those it bounds."""
    from tfr_viewer.core.analyze import sql_tables

    path = tmp_path / "n.tfrecord"
    tf_write(path, [example_of({"label": [i % 4]}) for i in range(60)])
    read: list[int] = []
    real = sql_tables._batch

    def counted(table, chunk, schema, where):
        read.extend(chunk.tolist())
        return real(table, chunk, schema, where)

    monkeypatch.setattr(sql_tables, "_batch", counted)
    ours = _run(f"SELECT r.index AS i, label[1] AS l FROM records r WHERE {where} ORDER BY i",
                records=path)  # fmt: skip
    assert ours["i"].tolist() == [40, 41, 42, 43, 44]
    assert ours["l"].tolist() == [i % 4 for i in range(40, 45)]
    assert sorted(read) == [40, 41, 42, 43, 44]
    read.clear()  # the table read twice: every record read (once), the same rows
    joined = _run("SELECT count(*) AS n FROM records r JOIN records s ON r.index = s.index "
                  "WHERE r.index BETWEEN 40 AND 44", records=path)  # fmt: skip
    assert joined["n"].tolist() == [5] and sorted(read) == list(range(60))


def test_a_feature_named_as_a_record_column_is_feature_colon_its_name(tmp_path):
    path = tmp_path / "named.tfrecord"
    features = [{"index": [100 + i], "Length": [b"long" * i], "label": [i]} for i in range(6)]
    tf_write(path, [example_of(f) for f in features])
    query = (
        'SELECT index, length, "feature:index"[1] AS i, octet_length("FEATURE:LENGTH"[1]) AS n '
        'FROM records WHERE "feature:index"[1] > 101 ORDER BY index'
    )
    ours = _run(query, records=path)
    theirs = [(i, len(example_of(f)), 100 + i, 4 * i) for i, f in enumerate(features) if i > 1]
    assert list(ours.itertuples(index=False, name=None)) == theirs
    columns = _run("SELECT * FROM records LIMIT 1", records=path).columns.tolist()
    assert columns == ["index", "file", "offset", "length", "status", "feature:Length",
                       "feature:index", "label"]  # fmt: skip


def test_a_file_changed_while_the_query_reads_it_is_said_as_such(tmp_path):
    """The file cut after it was indexed: the reading's own error, in one line."""
    from tfr_viewer.core.user_error import UserError

    path = tmp_path / "cut.tfrecord"
    tf_write(path, [example_of({"n": [i], "pad": [bytes(500)]}) for i in range(200)])
    with Dataset([str(path)]) as ds:
        ds.index()
        with open(path, "r+b") as f:
            f.truncate(path.stat().st_size // 2)
        with pytest.raises(UserError) as raised:
            run_sql("SELECT sum(n[1]) AS s FROM records", {"records": ds})
    said = str(raised.value)
    assert "changed" in said and str(path) in said and "\n" not in said
    assert "Traceback" not in said


def test_a_stream_its_reader_closes_early_keeps_no_error():
    """DuckDB done with a table's stream (a LIMIT) closes it: no error of the stream's
    then, so a later failure of the query is said as DuckDB's; a stream's own error
    (a file cut) is kept, to be raised as it is."""

    def failing():
        yield 1
        raise ValueError("cut")

    query = Query("SELECT 1", {})
    parts = query._kept_error(iter([1, 2, 3]))
    assert next(parts) == 1
    parts.close()
    assert query._stream_error is None
    with pytest.raises(ValueError):
        list(query._kept_error(failing()))
    assert isinstance(query._stream_error, ValueError)
