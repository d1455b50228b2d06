"""A project's own message type through the Python API: ``tfv.open(path, proto=...,
message=...)`` reads records by name, and ``to_arrow``/``to_pandas`` give a column a
field, typed by the type and flattened, every value as the generated module reads it;
a record that does not parse is left out; every mistake is one ``UserError``."""

from __future__ import annotations

import numpy as np
import pytest

import tfr_viewer as tfv
from tests.tf_oracle import tf_write
from tests.user_protos import descriptor_set, frames, proto_folder
from tfr_viewer.core.user_error import UserError


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("api")
    protos = proto_folder(root)
    sets = descriptor_set(protos, root / "drive.pb")
    messages = frames(9)
    payloads = [m.SerializeToString() for m in messages]
    payloads.insert(4, payloads[0][:7])  # no Frame: left out of the table
    path = root / "frames.tfrecord"
    tf_write(path, payloads)
    return protos, sets, path, messages


def test_a_table_of_every_field_as_the_generated_module_reads_it(made):
    pa = pytest.importorskip("pyarrow")
    _, sets, path, messages = made
    table = tfv.open(path, descriptor_set=sets, message="drive.Frame").to_arrow()
    assert table.num_rows == len(messages)
    types = {f.name: f.type for f in table.schema}
    assert types["seed"] == pa.uint64() and types["timestamp_micros"] == pa.int64()
    assert types["lasers"].value_type.field("ranges").type == pa.list_(pa.float32())
    assert types["night"] == pa.bool_() and types["taken.nanos"] == pa.int32()
    rows = table.to_pylist()
    for got, m in zip(rows, messages, strict=True):
        assert got["context.name"] == m.context.name
        assert dict(got["context.stats"]) == dict(m.context.stats)
        assert got["timestamp_micros"] == m.timestamp_micros and got["seed"] == m.seed
        assert [i["image"] for i in got["images"]] == [i.image for i in m.images]
        names = [m.DESCRIPTOR.fields_by_name["images"].message_type.fields_by_name["name"]
                 .enum_type.values_by_number[i.name].name for i in m.images]  # fmt: skip
        assert [i["name"] for i in got["images"]] == names
        ranges = np.array(got["lasers"][0]["ranges"], dtype=np.float32)
        assert np.array_equal(ranges, np.array(m.lasers[0].ranges, dtype=np.float32))
        assert got["lasers"][0]["intensities"] == list(m.lasers[0].intensities)
        assert (got["taken.seconds"], got["taken.nanos"]) == (m.taken.seconds, m.taken.nanos)
        assert dict(got["labels"]) == dict(m.labels) and got["night"] == m.night


def test_pandas_a_filter_and_chosen_columns(made):
    pytest.importorskip("pandas")
    protos, _, path, messages = made
    view = tfv.open(path, proto=protos, message="drive.Frame")
    night = view.filter('f["night"]')
    frame = night.to_pandas(["context.name", "seed"])
    assert list(frame.columns) == ["context.name", "seed"]
    assert frame["seed"].tolist() == [m.seed for m in messages if m.night]
    with pytest.raises(UserError, match="has no column 'nope'"):
        view.to_arrow(["nope"])


def test_each_mistake_is_one_user_error(made, tmp_path):
    protos, sets, path, _ = made
    with pytest.raises(UserError, match="give its proto= or descriptor_set= too"):
        tfv.open(path, message="drive.Frame")
    with pytest.raises(UserError, match="names no message type"):
        tfv.open(path, proto=protos, message="drive.Nope")
    with pytest.raises(UserError, match="not a FileDescriptorSet"):
        tfv.open(path, descriptor_set=path)
    with pytest.raises(UserError, match="no such .proto file or folder"):
        tfv.open(path, proto=tmp_path / "gone")


def test_statistics_by_field_path(made):
    _, sets, path, messages = made
    report = tfv.open(path, descriptor_set=sets, message="drive.Frame").stats()
    found = report.to_json()
    assert found["message"] == "drive.Frame" and found["other_payloads"] == 1
    ranges = [r for m in messages for laser in m.lasers for r in laser.ranges]
    assert found["features"]["lasers.ranges"]["numeric"]["max"] == max(ranges)
    table = report.to_pandas()
    assert "context.name" in set(table["feature"])
