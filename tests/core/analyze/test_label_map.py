"""Label maps: read in linear time as protobuf's own text-format parser reads them, and
written so that every name, whatever it holds, reads back as itself."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, text_format

from tfr_viewer.core.analyze.label_map import (
    LabelMapError,
    label_map_text,
    name_line,
    parse_label_map,
)


def _label_map_class():
    """The Object Detection API's StringIntLabelMap, described here for the oracle."""
    f = descriptor_pb2.FieldDescriptorProto
    fdp = descriptor_pb2.FileDescriptorProto(name="oracle_label_map.proto", package="oracle")
    keypoint = fdp.message_type.add(name="Keypoint")
    keypoint.field.add(name="id", number=1, type=f.TYPE_INT32, label=f.LABEL_OPTIONAL)
    keypoint.field.add(name="label", number=2, type=f.TYPE_STRING, label=f.LABEL_OPTIONAL)
    item = fdp.message_type.add(name="Item")
    item.field.add(name="name", number=1, type=f.TYPE_STRING, label=f.LABEL_OPTIONAL)
    item.field.add(name="id", number=2, type=f.TYPE_INT32, label=f.LABEL_OPTIONAL)
    item.field.add(name="display_name", number=3, type=f.TYPE_STRING, label=f.LABEL_OPTIONAL)
    item.field.add(
        name="keypoints",
        number=4,
        type=f.TYPE_MESSAGE,
        label=f.LABEL_REPEATED,
        type_name=".oracle.Keypoint",
    )
    top = fdp.message_type.add(name="LabelMap")
    top.field.add(
        name="item", number=1, type=f.TYPE_MESSAGE, label=f.LABEL_REPEATED, type_name=".oracle.Item"
    )
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("oracle.LabelMap"))


def _protobuf_reads(text: str) -> dict[int, str]:
    msg = text_format.Parse(text, _label_map_class()())
    return {i.id: i.name or i.display_name for i in msg.item}


NAMES = {
    1: "it's",
    2: "a}b",
    3: "new\nline item { id: 99 }",
    4: 'q"uote\\',
    5: "ünïcödé 猫",
    6: "tab\tand\rreturn",
    7: "",
    8: "# not a comment",
}

TEXTS = [
    label_map_text(NAMES),
    "item { id: 1 name: 'cat' }\nitem { id: 2 display_name: \"dog\" }",
    "# a comment\nitem: { name: 'a' 'b' id: 3 keypoints { id: 0 label: 'nose' } }",
    'item < id: 4; name: "x\\x41\\101\\n" >',
    "item { id: 5 name: '\\'quoted\\'' display_name: 'other' }",
]


@pytest.mark.parametrize("text", TEXTS)
def test_a_label_map_reads_as_protobuf_reads_it(text):
    assert parse_label_map(text) == _protobuf_reads(text)


def test_every_name_reads_back_as_itself():
    assert parse_label_map(label_map_text(NAMES)) == NAMES
    lines = "".join(name_line(NAMES[i]) for i in sorted(NAMES)).splitlines()
    assert len(lines) == len(NAMES)  # one class a line, whatever the names hold


@pytest.mark.parametrize(
    "text",
    [
        "item { name: 'no id' }",
        "item { id: 1 name: 'open'",
        "item { id: 1 name: 'x' } }",
        "item {" * 200,
        "item { id: 1 name: 'line\nbreak' }",
        "",
    ],
)
def test_what_is_not_a_label_map_is_refused_in_one_line(text):
    with pytest.raises(LabelMapError) as caught:
        parse_label_map(text, "map.pbtxt")
    assert str(caught.value).startswith("map.pbtxt") and "\n" not in str(caught.value)


def test_a_large_hostile_label_map_is_refused_in_linear_time(tmp_path):
    """300 KB of `item {` took a minute with a regular expression that backtracked."""
    path = tmp_path / "bomb.pbtxt"
    path.write_text("item {" * 50_000)
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "check", "--label-map", str(path), str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "bomb.pbtxt" in run.stderr
    assert time.monotonic() - started < 60
