"""Records read as a project's own message type, by name: every field of every record
as the generated module reads it and as ``protoc --decode`` prints it, value for value;
fields the type does not know counted and kept; bytes that are no such message said,
never a traceback."""

from __future__ import annotations

import base64
import math

import numpy as np
import pytest
from google.protobuf import text_format

from tests.tf_oracle import tf_write
from tests.user_protos import (
    descriptor_set,
    frames,
    generated,
    note_sequences,
    proto_folder,
    protoc_decode,
    variants,
)
from tfr_viewer.core.decode import message_types
from tfr_viewer.core.decode.file_payloads import decode_record
from tfr_viewer.core.decode.payloads import (
    payload_images,
    payload_json,
    payload_lines,
    payload_outline,
)
from tfr_viewer.core.io import Dataset


def same(ours, theirs, where="") -> None:
    """Our JSON form against ``MessageToDict`` (field names kept, defaults left out as
    ``protoc`` leaves them out): 64-bit integers as text there, bytes as base64, floats
    as float32 or float64."""
    if isinstance(theirs, dict):
        if "base64" in ours:
            assert ours["base64"] == theirs or base64.b64decode(ours["base64"]) == b"", where
            return
        assert set(ours) == set(theirs), (where, set(ours) ^ set(theirs))
        for key in theirs:
            same(ours[key], theirs[key], f"{where}.{key}")
    elif isinstance(theirs, list):
        assert len(ours) == len(theirs), where
        for k, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            same(a, b, f"{where}[{k}]")
    elif isinstance(ours, dict) and "base64" in ours:
        assert ours["base64"] == theirs, where
    elif isinstance(ours, bool) or isinstance(theirs, bool):
        assert ours is theirs, where
    elif isinstance(ours, int) and isinstance(theirs, str):
        assert ours == int(theirs), where
    elif isinstance(ours, float) or isinstance(theirs, float):
        if isinstance(theirs, str):  # "NaN", "Infinity"
            assert math.isnan(ours) if theirs == "NaN" else ours == float(theirs), where
        else:
            assert ours == theirs or np.float32(ours) == np.float32(theirs), (where, ours, theirs)
    else:
        assert ours == theirs, (where, ours, theirs)


def _dict(message) -> dict:
    """The fields set in a message of the generated module, by name, in the JSON
    form's terms (enums by name, bytes as base64, a map by its keys' text); the well-
    known types as the messages they are (``protoc --decode`` prints them so)."""
    out = {}
    for field, value in message.ListFields():
        entry = field.message_type
        if entry is not None and entry.GetOptions().map_entry:
            kind = entry.fields_by_name["value"]
            out[field.name] = {str(k): _one(kind, value[k]) for k in value}
        elif field.is_repeated:
            out[field.name] = [_one(field, v) for v in value]
        else:
            out[field.name] = _one(field, value)
    return out


def _one(field, value):
    if field.message_type is not None:
        return _dict(value)
    if field.enum_type is not None:
        return field.enum_type.values_by_number[value].name
    if field.type == field.TYPE_BYTES:
        return base64.b64encode(value).decode()
    return value


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("user")
    protos = proto_folder(root)
    sets = descriptor_set(protos, root / "all.pb")
    files = {
        "frames": (root / "frames.tfrecord", frames(12), "drive.Frame"),
        "notes": (root / "notes.tfrecord", note_sequences(9), "music.NoteSequence"),
        "variants": (root / "variants.tfrecord", variants(7), "genomics.Variant"),
    }
    for path, messages, _ in files.values():
        tf_write(path, [m.SerializeToString() for m in messages])
    return root, protos, sets, files


@pytest.mark.parametrize("which", ["frames", "notes", "variants"])
@pytest.mark.parametrize("source", ["proto", "descriptor_set"])
def test_every_record_reads_as_the_generated_module_reads_it(made, which, source):
    root, protos, sets, files = made
    path, messages, name = files[which]
    given = {"proto": str(protos)} if source == "proto" else {"descriptor_set": str(sets)}
    kind = message_types.load(**given).get(name)
    with Dataset([str(path)]) as ds:
        ds.index(verify=True)
        ds.message_type = kind
        for r, message in enumerate(messages):
            decoded = decode_record(ds, r)
            record = payload_json(decoded)
            assert record["type"] == "message" and record["message"] == name
            assert "unknown_fields" not in record
            same(record["fields"], _dict(type(message).FromString(ds.read(r))))


@pytest.mark.parametrize("which", ["frames", "notes", "variants"])
def test_protoc_decode_prints_what_is_read(made, which):
    """``protoc --decode`` of a record, read back into the generated type, holds
    every value our reading gives (a few records each: a process each)."""
    root, protos, _, files = made
    path, messages, name = files[which]
    kind = message_types.load(str(protos)).get(name)
    with Dataset([str(path)]) as ds:
        ds.index(verify=True)
        ds.message_type = kind
        for r in (0, 1, len(messages) - 1):
            printed = protoc_decode(protos, name, ds.read(r))
            theirs = text_format.Parse(printed, type(messages[0])())
            same(payload_json(decode_record(ds, r))["fields"], _dict(theirs))


def test_enums_by_name_doubles_as_numbers_and_maps_by_key(made):
    _, protos, _, files = made
    path, messages, _ = files["frames"]
    kind = message_types.load(str(protos)).get("Frame")  # a name only one type ends in
    with Dataset([str(path)]) as ds:
        ds.index(verify=True)
        ds.message_type = kind
        fields = payload_json(decode_record(ds, 3))["fields"]
    assert [i["name"] for i in fields["images"]] == ["FRONT", "FRONT_LEFT", "SIDE_LEFT"]
    assert fields["images"][0]["image"]["image"]["format"] == "jpeg"
    assert fields["lasers"][0]["ranges"] == [0.5, 1.25, 3.0, 0.003]  # float32's shortest
    assert fields["lasers"][0]["intensities"] == [-3, 3, 7]
    assert fields["images"][1]["pose_timestamp"] == 0.3
    assert fields["seed"] == 2**63 + 3 and fields["labels"] == {"3": "car"}
    assert fields["context"]["stats"] == {"speed": 4.5, "yaw": -0.75}
    assert fields["taken"] == {"seconds": 1_700_000_003, "nanos": 3000}


def test_the_tree_and_the_pictures_name_every_field(made):
    _, protos, _, files = made
    path, messages, _ = files["frames"]
    with Dataset([str(path)]) as ds:
        ds.index(verify=True)
        ds.message_type = message_types.load(str(protos)).get("drive.Frame")
        decoded = decode_record(ds, 1)
    nodes = {n.name: n for n in payload_outline(decoded)}
    assert nodes["images"].kind == "repeated CameraImage" and nodes["images"].count == "3 values"
    first = nodes["images"].children[0]
    assert [c.name for c in first.children] == ["name", "image", "pose_timestamp"]
    assert first.children[0].value == "'FRONT'" and first.children[1].key == "images[0].image"
    assert nodes["context"].children[1].kind == "map<string, double>"
    assert nodes["seed"].kind == "fixed64"
    pictures = payload_images(decoded.payload)
    assert [p.key for p in pictures] == ["images[0].image", "images[1].image", "images[2].image"]
    assert [p.data for p in pictures] == [i.image for i in messages[1].images]
    text = "\n".join(payload_lines(payload_json(decoded)))
    assert "  message drive.Frame" in text and "name: 'FRONT_LEFT'" in text


def test_fields_the_type_does_not_know_are_counted(made, tmp_path):
    _, protos, _, _ = made
    g = generated()
    later = g.frame_v2.Frame(timestamp_micros=5, driver="sam", tags=[1, 2, 3])
    later.context.name = "x"
    later.context.weather = 4
    path = tmp_path / "later.tfrecord"
    tf_write(path, [later.SerializeToString()])
    with Dataset([str(path)]) as ds:
        ds.index(verify=True)
        ds.message_type = message_types.load(str(protos)).get("drive.Frame")
        record = payload_json(decode_record(ds, 0))
    assert record["unknown_fields"] == 3  # driver, tags, the context's weather
    assert record["fields"] == {"context": {"name": "x"}, "timestamp_micros": 5}
    assert "3 fields the type does not define" in "\n".join(payload_lines(record))


def test_bytes_that_are_no_such_message_are_said(made, tmp_path):
    _, protos, _, files = made
    path, messages, _ = files["frames"]
    broken = tmp_path / "broken.tfrecord"
    whole = messages[0].SerializeToString()
    tf_write(broken, [whole[: len(whole) // 2], b"\xff\xff\xff"])
    with Dataset([str(broken)]) as ds:
        ds.index(verify=True)
        ds.message_type = message_types.load(str(protos)).get("drive.Frame")
        for r in range(2):
            record = payload_json(decode_record(ds, r))
            assert record["type"] == "bytes"
            assert record["decoder_error"]["decoder"] == "drive.Frame"


def test_the_type_that_reads_a_file_best_is_chosen_and_said(made):
    _, protos, sets, files = made
    types = message_types.load(descriptor_set=str(sets))
    for which in ("frames", "notes", "variants"):
        path, _, name = files[which]
        with Dataset([str(path)]) as ds:
            ds.index(verify=True)
            ds.message_type = types
            assert payload_json(decode_record(ds, 0))["message"] == name
            (said,) = [w for w in ds.warnings if w.kind == "message_type"]
            assert said.what.startswith(f"records read as {name}: ")
            assert "0 unknown fields" in said.what and "choose with --message" in said.what
