"""``schema`` of records of a project's own type: every field path some record sets,
with its type, the records that set it and the values a record holds, as the generated
module's messages hold them; the records the type does not parse counted; through the
program too."""

from __future__ import annotations

import json

import pytest

from tests.program import program
from tests.tf_oracle import tf_write
from tests.user_protos import frames, proto_folder
from tfr_viewer.app.schema import schema
from tfr_viewer.core.decode import message_types
from tfr_viewer.core.io import Dataset


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("schema")
    protos = proto_folder(root)
    messages = frames(12)
    payloads = [m.SerializeToString() for m in messages]
    payloads.append(b"\xff\xff")  # no Frame
    path = root / "frames.tfrecord"
    tf_write(path, payloads)
    return protos, path, messages


def _expected(messages) -> dict:
    def counts(m) -> dict[str, int]:
        return {
            "context.name": 1,
            "context.stats": len(m.context.stats),
            "timestamp_micros": 1,
            "images.name": len(m.images),
            "images.image": len(m.images),
            "images.pose_timestamp": sum(1 for i in m.images if i.pose_timestamp),
            "lasers.name": len(m.lasers),
            "lasers.ranges": sum(len(x.ranges) for x in m.lasers),
            "lasers.intensities": sum(len(x.intensities) for x in m.lasers),
            "taken.seconds": 1 if m.taken.seconds else 0,
            "taken.nanos": 1 if m.taken.nanos else 0,
            "labels": len(m.labels),
            "seed": 1,
            "night": 1 if m.night else 0,
        }

    per = [counts(m) for m in messages]
    out = {}
    for path in per[0]:
        held = [c[path] for c in per if c[path]]
        if held:
            out[path] = {"records": len(held), "values": [min(held), max(held)]}
    return out


def test_every_path_set_counted_as_the_messages_hold_it(made):
    protos, path, messages = made
    with Dataset([str(path)]) as ds:
        ds.message_type = message_types.load(str(protos)).get("drive.Frame")
        found = schema(ds).to_json()
    assert (found["message"], found["records"], found["unparseable"]) == ("drive.Frame", 13, 1)
    got = {p: {"records": f["records"], "values": f["values"]} for p, f in found["fields"].items()}
    assert got == _expected(messages)
    assert list(found["fields"])[:3] == ["context.name", "context.stats", "timestamp_micros"]
    assert found["fields"]["images.name"]["type"] == "CameraName"
    assert found["fields"]["lasers.ranges"]["type"] == "repeated float"


def test_the_program_prints_it(made):
    protos, path, _ = made
    done = program("schema", str(path), "--proto", str(protos), "--message", "drive.Frame",
                   "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["fields"]["seed"]["type"] == "fixed64"
    text = program("schema", str(path), "--proto", str(protos), "--message", "drive.Frame")
    assert text.stdout.startswith("# drive.Frame: 13 records looked at, 1 the type does not")
    assert "images.name" in text.stdout and "in 12 of 13 records" in text.stdout
