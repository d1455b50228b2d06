"""``check`` on records that are not Examples (TensorBoard events, a project's own
messages): no finding per record, one note that the Example checks do not apply."""

from __future__ import annotations

import json

import pytest

from tests.program import program
from tests.protoc_modules import FASTQ, compile_proto, fastq_records
from tests.summary_files import write_summaries
from tests.tf_oracle import tf, tf_write


def _findings(*argv: str) -> tuple[int, list[dict]]:
    done = program("check", "--json", *argv)
    assert "Traceback" not in done.stderr
    return done.returncode, json.loads(done.stdout)["findings"]


def test_an_event_file_gets_one_note_and_passes(tmp_path):
    path = write_summaries(tmp_path / "logs")
    code, findings = _findings(str(path))
    assert code == 0
    assert [f["kind"] for f in findings] == ["checks_not_applicable"]
    (note,) = findings
    assert note["severity"] == "info" and note["record"] is None
    assert "none of the" in note["message"] and "type event" in note["message"]
    # the same over a folder (the log folder the user points at) and in parts
    code, again = _findings("--jobs", "2", str(tmp_path / "logs"))
    assert (code, again) == (0, findings)


@pytest.mark.parametrize("lengths", [[150, 60, 90, 200], [40, 50, 60]])
def test_a_protobuf_file_gets_one_note_and_passes(tmp_path, lengths):
    """Records that are printable text, or that TensorFlow's parser would read as an
    empty Example, are still no empty records."""
    payloads = fastq_records(compile_proto(FASTQ), lengths)
    path = tf_write(tmp_path / "reads.tfrecord", payloads)
    code, findings = _findings(str(path))
    assert code == 0
    assert [f["kind"] for f in findings] == ["checks_not_applicable"]


SCENARIO = """
syntax = "proto3";
package driving;
message State {
  double center_x = 1;
  double center_y = 2;
  bool valid = 3;
}
message Track {
  int32 id = 1;
  repeated State states = 2;
}
message Scenario {
  string scenario_id = 5;
  repeated double timestamps_seconds = 1;
  repeated Track tracks = 2;
}
"""


def test_driving_scenarios_get_one_note_and_pass(tmp_path):
    module = compile_proto(SCENARIO)
    payloads = []
    for n in range(6):
        scenario = module.Scenario(
            scenario_id=f"s{n}", timestamps_seconds=[0.1 * t for t in range(5)]
        )
        for i in range(3):
            track = scenario.tracks.add(id=i)
            for t in range(5):
                track.states.add(center_x=1.5 * t, center_y=-2.0 * i, valid=t % 2 == 0)
        payloads.append(scenario.SerializeToString())
    path = tf_write(tmp_path / "scenarios.tfrecord", payloads)
    code, findings = _findings(str(path))
    assert code == 0
    assert [f["kind"] for f in findings] == ["checks_not_applicable"]


def test_empty_examples_are_still_empty_records_and_events_among_examples_are_named(tmp_path):
    t = tf()
    full = t.train.Example(
        features=t.train.Features(
            feature={"label": t.train.Feature(int64_list=t.train.Int64List(value=[1]))}
        )
    ).SerializeToString()
    events = write_summaries(tmp_path / "logs")
    from tfr_viewer.core.io import Dataset

    with Dataset([str(events)]) as ds:
        ds.index()
        one_event = ds.read(1)
    payloads = [full, b"", t.train.Example().SerializeToString(), one_event, full]
    path = tf_write(tmp_path / "mixed.tfrecord", payloads)
    code, findings = _findings(str(path))
    assert code == 1
    empty = sorted(f["record"] for f in findings if f["kind"] == "empty_record")
    assert empty == [1, 2]
    (note,) = [f for f in findings if f["kind"] == "checks_not_applicable"]
    assert "1 of 5 records is no tf.train.Example (record 3 holds" in note["message"]
