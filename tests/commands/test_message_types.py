"""A project's own message type through the program: ``--proto``, ``--descriptor-set``
and ``--message`` on ``show`` and on the filtering commands; a filter over field paths
matching the records the generated module's values say; every mistake one line and
exit 2."""

from __future__ import annotations

import json

import pytest

from tests.core.analyze.test_message_checks import EXPECTED, faulty_frames
from tests.program import program
from tests.tf_oracle import tf_write
from tests.user_protos import descriptor_set, frames, note_sequences, proto_folder


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("cli")
    protos = proto_folder(root)
    sets = descriptor_set(protos, root / "all.pb")
    messages = frames(16)
    path = root / "frames.tfrecord"
    tf_write(path, [m.SerializeToString() for m in messages])
    return root, protos, sets, path, messages


def test_show_json_names_every_field_as_the_api_does(made):
    import tfr_viewer as tfv

    _, protos, sets, path, messages = made
    done = program("show", "--json", "5", str(path), "--descriptor-set", str(sets),
                   "--message", "drive.Frame")  # fmt: skip
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["type"] == "message" and shown["message"] == "drive.Frame"
    assert shown["fields"]["context"]["name"] == messages[5].context.name
    assert [i["name"] for i in shown["fields"]["images"]] == ["FRONT", "FRONT_LEFT", "SIDE_LEFT"]
    view = tfv.open(path, proto=protos, message="drive.Frame")
    api = view[5].to_json()
    assert json.loads(json.dumps(api, default=str))["fields"] == shown["fields"]


def test_the_chosen_type_is_said_on_stderr(made):
    _, protos, _, path, _ = made
    done = program("show", "0", str(path), "--proto", str(protos))
    assert done.returncode == 0, done.stderr
    assert "message drive.Frame" in done.stdout
    (note,) = [line for line in done.stderr.splitlines() if line.startswith("note: ")]
    assert "records read as drive.Frame: 16 of 16 records sampled parse" in note


FILTERS = {
    'f["context.name"] == "segment-1"': lambda m: m.context.name == "segment-1",
    'len(f["images"]) == 3': lambda m: len(m.images) == 3,
    'f["images"][2]["name"] == "SIDE_LEFT"': lambda m: len(m.images) > 2 and m.images[2].name == 3,
    'f["lasers"][0]["ranges"][2] >= 9': lambda m: m.lasers[0].ranges[2] >= 9,
    'f["context.stats"]["yaw"] < -1': lambda m: m.context.stats.get("yaw", 0) < -1,
    'f["labels"]["7"] == "car"': lambda m: m.labels.get(7) == "car",
    'f["night"] and f["timestamp_micros"] > 1700000000000000': lambda m: (
        m.night and m.timestamp_micros > 1_700_000_000_000_000
    ),
    'has("context.stats") and not f["night"]': lambda m: not m.night,
}


@pytest.mark.parametrize("text", list(FILTERS))
def test_a_filter_over_field_paths_matches_what_the_values_say(made, text):
    _, protos, _, path, messages = made
    done = program("list", str(path), "--proto", str(protos), "--message", "drive.Frame",
                   "--filter", text, "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    found = [json.loads(line)["index"] for line in done.stdout.splitlines()]
    assert found == [i for i, m in enumerate(messages) if FILTERS[text](m)]
    assert "warning" not in done.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--message", "drive.Frame"], "--message drive.Frame: give its --proto"),
        (["--proto", "PROTOS", "--message", "Nope"], "--message Nope: names no message type"),
        (["--proto", "MISSING"], "no such .proto file or folder"),
        (["--proto", "BROKEN"], "protoc cannot compile it: "),
        (["--proto", "IMPORTS"], "protoc cannot compile it: "),
        (["--descriptor-set", "DATA"], "not a FileDescriptorSet"),
        (["--proto", "PROTOS", "--descriptor-set", "SET"], "not both"),
        (["--proto", "PROTOS", "--message", "drive.Frame", "--filter", 'f["nope"] == 1'],
         "drive.Frame has no field 'nope' (its fields: context, "),
        (["--proto", "PROTOS", "--message", "drive.Frame", "--filter", 'f["seed.x"] == 1'],
         "seed of drive.Frame holds no fields"),
    ],
)  # fmt: skip
def test_each_mistake_is_one_line_and_exit_2(made, tmp_path, args, said):
    _, protos, sets, path, _ = made
    broken = tmp_path / "broken.proto"
    broken.write_text('syntax = "proto3";\nmessage A { int32 x = 1 }\n')
    imports = tmp_path / "imports"
    imports.mkdir()
    (imports / "a.proto").write_text('syntax = "proto3";\nimport "gone.proto";\nmessage A {}\n')
    names = {"PROTOS": protos, "SET": sets, "DATA": path, "MISSING": tmp_path / "none",
             "BROKEN": broken, "IMPORTS": imports}  # fmt: skip
    argv = [str(names.get(a, a)) for a in args]
    command = "list" if "--filter" in args else "show"
    done = program(command, *(["0"] if command == "show" else []), str(path), *argv)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and said in lines[0] and "Traceback" not in done.stderr


def test_other_types_read_their_own_files(made, tmp_path):
    _, protos, _, _, _ = made
    path = tmp_path / "notes.tfrecord"
    tf_write(path, [s.SerializeToString() for s in note_sequences(5)])
    done = program("count", str(path), "--proto", str(protos), "--filter",
                   'len(f["notes"]) >= 5 and f["tempo_qpm"] == 120.5')  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "2"


def test_one_proto_file_finds_its_imports_in_a_folder_above(made):
    """``protos/drive/frame.proto`` imports ``drive/common.proto``: the root of its
    imports is the folder above its own."""
    _, protos, _, path, messages = made
    done = program("show", "--json", "2", str(path), "--proto",
                   str(protos / "drive" / "frame.proto"), "--message", "drive.Frame")  # fmt: skip
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)["fields"]
    assert shown["lasers"][0]["name"] == "SIDE_LEFT" and shown["seed"] == messages[2].seed


def test_check_finds_each_fault_on_one_process_or_two(tmp_path):
    protos, _, path = faulty_frames(tmp_path)
    outputs = []
    for jobs in ("1", "2"):
        done = program("check", str(path), "--proto", str(protos), "--message",
                       "drive.Frame", "--json", "--jobs", jobs)  # fmt: skip
        assert done.returncode == 1, done.stderr  # an error among the findings
        outputs.append(json.loads(done.stdout)["findings"])
    assert outputs[0] == outputs[1]
    assert {(f["kind"], f["record"], f["feature"]) for f in outputs[0]} == EXPECTED


def test_hostile_type_files_are_refused_in_one_line(made, tmp_path):
    """A FIFO as the descriptor set or the .proto (nothing writes to it: reading would
    wait for ever), a descriptor set far too large, a folder whose one FIFO named
    ``.proto`` is passed over."""
    import os

    _, protos, _, path, _ = made
    fifo = tmp_path / "types.pb"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.pb"
    with open(huge, "wb") as f:
        f.truncate(65 << 20)
    folder = tmp_path / "folder"
    (folder / "drive").mkdir(parents=True)
    for name in ("drive/common.proto", "drive/frame.proto"):
        (folder / name).write_text((protos / name).read_text())
    os.mkfifo(folder / "waits.proto")
    cases = [
        (["--descriptor-set", str(fifo)], "not a regular file"),
        (["--proto", str(fifo)], "not a regular file"),
        (["--descriptor-set", str(huge)], "larger than 64 MB"),
    ]
    for args, said in cases:
        done = program("show", "0", str(path), *args, timeout=60)
        assert done.returncode == 2 and said in done.stderr, (args, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1
    done = program("show", "0", str(path), "--proto", str(folder), "--message", "Frame",
                   timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "message drive.Frame" in done.stdout


def test_the_messages_tensorflow_writes_read_by_name_as_a_users_are(tmp_path):
    """``--message tensorflow.Example`` (no .proto: the built-in definitions) reads an
    Example by name, as TensorFlow's parser reads it; a filter over its paths; a
    TensorProto likewise."""
    import numpy as np

    from tests.tf_oracle import tf

    t = tf()
    examples = [
        t.train.Example(features=t.train.Features(feature={
            "label": t.train.Feature(int64_list=t.train.Int64List(value=[i, 2 * i])),
            "name": t.train.Feature(bytes_list=t.train.BytesList(value=[f"n{i}".encode()])),
        })).SerializeToString()
        for i in range(6)
    ]  # fmt: skip
    path = tmp_path / "examples.tfrecord"
    tf_write(path, examples)
    done = program("show", "--json", "4", str(path), "--message", "tensorflow.Example")
    assert done.returncode == 0, done.stderr
    feature = json.loads(done.stdout)["fields"]["features"]["feature"]
    parsed = t.io.parse_single_example(
        examples[4], {"label": t.io.VarLenFeature(t.int64), "name": t.io.VarLenFeature(t.string)}
    )
    assert feature["label"]["int64_list"]["value"] == parsed["label"].values.numpy().tolist()
    assert feature["name"]["bytes_list"]["value"][0]["text"] == "n4"
    counted = program("count", str(path), "--message", "Example", "--filter",
                      'f["features.feature"]["label"]["int64_list"]["value"][1] >= 6')  # fmt: skip
    assert counted.returncode == 0, counted.stderr
    assert counted.stdout.strip() == "3"
    tensors = tmp_path / "tensors.tfrecord"
    values = np.arange(6, dtype=np.float32).reshape(2, 3)
    tf_write(tensors, [t.io.serialize_tensor(t.constant(values)).numpy()])
    shown = json.loads(program("show", "--json", "0", str(tensors), "--message",
                               "tensorflow.TensorProto").stdout)["fields"]  # fmt: skip
    dims = [d["size"] for d in shown["tensor_shape"]["dim"]]
    assert shown["dtype"] == "DT_FLOAT" and dims == [2, 3]
    content = np.frombuffer(__import__("base64").b64decode(shown["tensor_content"]["base64"]),
                            dtype=np.float32)  # fmt: skip
    assert np.array_equal(content.reshape(dims), values)


def test_a_commands_type_is_taken_back_after_it(made):
    """Commands run in turn in one process: the next one reads records as its own
    options say, not as the one before."""
    from tfr_viewer.cli import main
    from tfr_viewer.core.io import Dataset

    _, protos, _, path, _ = made
    assert main(["count", str(path), "--proto", str(protos), "--message", "drive.Frame"]) == 0
    assert Dataset.message_type is None
    assert main(["count", str(path)]) == 0


def test_stats_of_named_fields_the_same_on_one_process_or_two(made, tmp_path):
    """Two shards (a split each on two processes): every path's figures as one pass
    gives them, the type chosen once for both."""
    _, protos, _, _, messages = made
    shards = []
    for n, part in enumerate((messages[:9], messages[9:])):
        shards.append(tmp_path / f"frames-{n}.tfrecord")
        tf_write(shards[-1], [m.SerializeToString() for m in part])
    outputs = []
    for jobs in ("1", "2"):
        done = program("stats", *map(str, shards), "--proto", str(protos), "--json",
                       "--jobs", jobs)  # fmt: skip
        assert done.returncode == 0, done.stderr
        outputs.append(json.loads(done.stdout))
    assert outputs[0] == outputs[1]
    found = outputs[0]
    assert found["message"] == "drive.Frame" and found["messages"] == len(messages)
    stamps = found["features"]["timestamp_micros"]["numeric"]
    assert stamps["min"] == min(m.timestamp_micros for m in messages)
    assert stamps["max"] == max(m.timestamp_micros for m in messages)
    text = program("stats", *map(str, shards), "--proto", str(protos))
    assert text.returncode == 0, text.stderr
    assert "read as drive.Frame" in text.stdout
    line = next(x for x in text.stdout.splitlines() if x.startswith("images.name "))
    assert "CameraName" in line and "'FRONT' 16" in line
