"""One value of a project's own record set by its field path, read back by the
generated module: every kind of field (a nested string, a repeated message's enum and
double, a packed float, a map's value, an unsigned 64-bit integer, a bool), fields the
type does not define kept, and each wrong path or text one ``EditError``."""

from __future__ import annotations

import numpy as np
import pytest

from tests.user_protos import frames, generated, proto_folder
from tfr_viewer.core.decode import message_types
from tfr_viewer.core.write.edits import EditError
from tfr_viewer.core.write.message_edits import set_field


@pytest.fixture(scope="module")
def kind(tmp_path_factory):
    protos = proto_folder(tmp_path_factory.mktemp("edits"))
    return message_types.load(str(protos)).get("drive.Frame")


EDITS = [
    ("context.name", "'renamed'", lambda m: m.context.name == "renamed"),
    ("images[1].name", "'REAR'", lambda m: m.images[1].name == 4),
    ("images[0].name", "2", lambda m: m.images[0].name == 2),
    ("images[1].pose_timestamp", "0.125", lambda m: m.images[1].pose_timestamp == 0.125),
    ("lasers[0].ranges[2]", "7.5", lambda m: m.lasers[0].ranges[2] == np.float32(7.5)),
    ("lasers[0].intensities[0]", "-12", lambda m: m.lasers[0].intensities[0] == -12),
    ("context.stats['speed']", "9.75", lambda m: m.context.stats["speed"] == 9.75),
    ("labels[3]", "truck", lambda m: m.labels[3] == "truck"),
    ("seed", str(2**64 - 1), lambda m: m.seed == 2**64 - 1),
    ("night", "true", lambda m: m.night is True),
    ("taken.nanos", "42", lambda m: m.taken.nanos == 42),
]


@pytest.mark.parametrize(("path", "text", "holds"), EDITS)
def test_a_value_set_by_its_path_reads_back(kind, path, text, holds):
    original = frames(4)[3]
    edited = type(original).FromString(set_field(kind, original.SerializeToString(), path, text))
    assert holds(edited)
    # everything else as it was
    for other, _, check in EDITS:
        if other.split("[")[0].split(".")[0] != path.split("[")[0].split(".")[0]:
            assert check(edited) == check(original), other


def test_fields_the_type_does_not_define_are_kept(kind):
    g = generated()
    later = g.frame_v2.Frame(timestamp_micros=5, driver="sam", tags=[1, 2])
    later.context.name = "x"
    payload = set_field(kind, later.SerializeToString(), "context.name", "y")
    back = g.frame_v2.Frame.FromString(payload)
    assert (back.context.name, back.driver, list(back.tags)) == ("y", "sam", [1, 2])


@pytest.mark.parametrize(
    ("path", "text", "said"),
    [
        ("nope", "1", "has no field 'nope'"),
        ("images[9].name", "FRONT", "images holds 3 values"),
        ("images.name", "FRONT", "name one value of the list images"),
        ("images[0].name", "SIDEWAYS", "is no CameraName (UNKNOWN, FRONT"),
        ("seed", "-1", "outside 0..18446744073709551615"),
        ("timestamp_micros", "soon", "is no whole number"),
        ("night", "maybe", "is no bool"),
        ("context", "x", "a message; set one of its fields"),
        ("context.stats['gone']", "1", "has no key 'gone'"),
        ("lasers[0].ranges[1]", "1e39", "outside a float's range"),
    ],
)
def test_a_wrong_path_or_text_is_one_error(kind, path, text, said):
    payload = frames(4)[3].SerializeToString()
    with pytest.raises(EditError, match=None) as caught:
        set_field(kind, payload, path, text)
    assert said in str(caught.value)
