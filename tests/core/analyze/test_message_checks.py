"""The checks that apply to any message, on records of a project's own type written by
its generated module: each fault at its record (and field path), none on the sound
records (the program's, on one process or two: ``tests/commands/test_message_types.py``)."""

from __future__ import annotations

import pytest

from tests.tf_oracle import tf_write
from tests.user_protos import descriptor_set, frames, generated, proto_folder
from tfr_viewer.core.analyze.checks import check_dataset
from tfr_viewer.core.decode import message_types
from tfr_viewer.core.io import Dataset


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    return faulty_frames(tmp_path_factory.mktemp("checks"))


def faulty_frames(root):
    """Frames with one fault of each kind (see :data:`EXPECTED`): the ``.proto``
    folder, its descriptor set and the file."""
    protos = proto_folder(root)
    sets = descriptor_set(protos, root / "drive.pb")
    g = generated()
    good = frames(10)
    payloads = [m.SerializeToString() for m in good]
    payloads[2] = payloads[2][: len(payloads[2]) // 3]  # cut inside a field: unparseable
    later = g.frame_v2.Frame(timestamp_micros=1, driver="sam")
    payloads[4] = later.SerializeToString()  # a field the type does not define
    odd = good[5]
    odd.images[1].name = 9  # a camera the enum names not
    odd.images[0].pose_timestamp = float("nan")
    odd.lasers[0].ranges[1] = float("inf")
    payloads[5] = odd.SerializeToString()
    payloads[7] = b""  # no field at all
    path = root / "frames.tfrecord"
    tf_write(path, payloads)
    return protos, sets, path


EXPECTED = {
    ("message_unparseable", 2, None),
    ("message_unknown_fields", 4, None),
    ("message_enum_unnamed", 5, "images[1].name"),
    ("message_not_finite", 5, "images[0].pose_timestamp"),
    ("message_not_finite", 5, "lasers[0].ranges[1]"),
    ("message_empty", 7, None),
}


def test_each_fault_at_its_record_and_field(made):
    _, sets, path = made
    with Dataset([str(path)]) as ds:
        ds.index(verify=True)
        ds.message_type = message_types.load(descriptor_set=str(sets)).get("drive.Frame")
        found = check_dataset(ds)
    assert {(f.kind, f.record, f.feature) for f in found} == EXPECTED
    assert all(f.file == str(path) and f.offset is not None for f in found)
    enum = next(f for f in found if f.kind == "message_enum_unnamed")
    assert "is 9, a number drive.CameraName names not" in enum.message
