"""SQL over records of a project's own message type: a column a field path, of the
type's kinds, every value against the values the module ``protoc`` generates wrote
(and a record the type does not parse: every field NULL); group-bys and unnesting
against counts over those messages; a path the sampled records do not set found from
the type; TensorBoard's own event files read as ``tensorflow.Event`` against
TensorBoard's loader."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.tf_oracle import tf_write
from tests.user_protos import descriptor_set, frames, generated, proto_folder
from tfr_viewer.app.sql import run_sql
from tfr_viewer.core.analyze import sql_tables
from tfr_viewer.core.decode import message_types
from tfr_viewer.core.io import Dataset

COUNT = 40
BROKEN = 13  # the record the type does not parse


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("sqlmessages")
    sets = descriptor_set(proto_folder(root), root / "drive.pb")
    messages = frames(COUNT)
    payloads = [m.SerializeToString() for m in messages]
    payloads.insert(BROKEN, b"\xff\xff\xff")  # no Frame: an unfinished tag
    messages.insert(BROKEN, None)
    tf_write(root / "frames.tfrecord", payloads)
    kind = message_types.load(descriptor_set=str(sets)).get("drive.Frame")
    return root / "frames.tfrecord", kind, messages


def _sql(made, query: str):
    path, kind, _ = made
    with Dataset([str(path)]) as ds:
        ds.message_type = kind
        return run_sql(query, {"records": ds}).table


def test_a_column_a_field_path_of_the_types_kinds(made):
    table = _sql(made, "SELECT * FROM records LIMIT 1")
    types = {f.name: str(f.type) for f in table.schema}
    assert types == {
        "index": "int64",
        "file": "string",
        "offset": "int64",
        "length": "int64",
        "status": "string",
        "context.name": "string",
        "timestamp_micros": "int64",
        "images.name": "list<l: string>",
        "images.image": "list<l: binary>",
        "images.pose_timestamp": "list<l: double>",
        "lasers.name": "list<l: string>",
        "lasers.ranges": "list<l: float>",
        "lasers.intensities": "list<l: int64>",
        "taken.seconds": "int64",
        "taken.nanos": "int64",
        "seed": "uint64",
        "night": "bool",
    }  # the maps (context.stats, labels) are no columns


def test_every_value_is_the_generated_modules(made):
    names = generated().common.CameraName.Name
    table = _sql(made, "SELECT * FROM records ORDER BY index").to_pylist()
    assert len(table) == COUNT + 1
    for row, m in zip(table, made[2], strict=True):
        fields = {k: v for k, v in row.items() if k not in sql_tables.RECORD_COLUMNS}
        if m is None:
            assert row["status"] == "ok" and set(fields.values()) == {None}
            continue
        assert fields == {
            "context.name": m.context.name,
            "timestamp_micros": m.timestamp_micros,
            "images.name": [names(c.name) for c in m.images],
            "images.image": [c.image for c in m.images],
            "images.pose_timestamp": [c.pose_timestamp for c in m.images],
            "lasers.name": [names(x.name) for x in m.lasers],
            "lasers.ranges": [v for x in m.lasers for v in x.ranges],
            "lasers.intensities": [v for x in m.lasers for v in x.intensities],
            "taken.seconds": m.taken.seconds,
            "taken.nanos": m.taken.nanos,
            "seed": m.seed,
            "night": m.night,
        }


def test_a_group_by_and_unnesting_count_what_the_messages_hold(made):
    messages = [m for m in made[2] if m is not None]
    names = generated().common.CameraName.Name
    by_segment = _sql(
        made,
        'SELECT "context.name" AS s, count(*) AS n, max(seed) AS top FROM records '
        'WHERE "context.name" IS NOT NULL GROUP BY 1 ORDER BY 1',
    ).to_pylist()
    theirs = Counter(m.context.name for m in messages)
    assert {r["s"]: r["n"] for r in by_segment} == dict(theirs)
    tops = {r["s"]: r["top"] for r in by_segment}
    assert tops == {s: max(m.seed for m in messages if m.context.name == s) for s in theirs}
    cameras = _sql(
        made, 'SELECT unnest("images.name") AS c, count(*) AS n FROM records GROUP BY 1'
    ).to_pylist()
    assert {r["c"]: r["n"] for r in cameras} == dict(
        Counter(names(c.name) for m in messages for c in m.images)
    )
    nights = _sql(made, "SELECT index FROM records WHERE night ORDER BY index").to_pylist()
    assert [r["index"] for r in nights] == [
        i for i, m in enumerate(made[2]) if m is not None and m.night
    ]


def test_a_path_the_sampled_records_do_not_set_is_found_from_the_type(made, monkeypatch):
    monkeypatch.setattr(sql_tables, "SAMPLE", 1)  # the first record only: its nanos are 0
    path, kind, _ = made
    with Dataset([str(path)]) as ds:
        ds.index()
        ds.message_type = kind
        assert "taken.nanos" not in sql_tables.table_of("records", ds).features
    table = _sql(made, 'SELECT count("taken.nanos") AS n, sum("taken.nanos") AS s FROM records')
    messages = [m for m in made[2] if m is not None]
    assert table.to_pylist() == [{"n": COUNT, "s": sum(m.taken.nanos for m in messages)}]


def test_event_files_are_tables_of_tensorboards_events(tmp_path):
    from tests.summary_files import tensorboard_log, write_summaries

    path = write_summaries(tmp_path / "run", steps=6)
    with Dataset([str(path)]) as ds:  # read as events with no type given
        table = run_sql(
            'SELECT step, unnest("summary.value.tag") AS tag FROM records '
            'WHERE "summary.value.tag" IS NOT NULL ORDER BY step, tag',
            {"records": ds},
        ).table.to_pylist()
    loader = tensorboard_log(tmp_path)
    (run,) = loader.Runs()
    theirs = sorted(
        (event.step, tag)
        for tag in loader.Runs()[run]["tensors"]
        for event in loader.Tensors(run, tag)
    )
    ours = sorted((r["step"], r["tag"]) for r in table)
    assert ours == theirs


def test_serialized_tensors_are_tables_of_their_fields(tmp_path):
    """Records of ``tf.io.serialize_tensor``: dtype by name and shape against TensorFlow."""
    import numpy as np

    from tests.tf_oracle import tf

    t = tf()
    tensors = [np.arange(i + 2, dtype=np.float32).reshape(1, -1) for i in range(5)]
    tensors += [np.full((2, 2, i + 1), i, dtype=np.int32) for i in range(3)]
    path = tmp_path / "tensors.tfrecord"
    tf_write(path, [t.io.serialize_tensor(x).numpy() for x in tensors])
    with Dataset([str(path)]) as ds:
        rows = run_sql(
            'SELECT index, dtype, "tensor_shape.dim.size" AS shape FROM records ORDER BY index',
            {"records": ds},
        ).table.to_pylist()
    names = {t.float32: "DT_FLOAT", t.int32: "DT_INT32"}
    assert [(r["dtype"], r["shape"]) for r in rows] == [
        (names[t.constant(x).dtype], list(t.constant(x).shape)) for x in tensors
    ]
