"""``tensorflow.Event``, built in: every record of event files TensorFlow writes (its
``tf.summary`` writer's scalars, histograms, pictures and text, and events of
TensorFlow 1's kinds: simple values, histograms, pictures, session and log messages)
read by field name as TensorFlow's own ``Event`` parses it, no field unknown."""

from __future__ import annotations

import pytest

from tests.core.decode.payloads.test_message import _dict, same
from tests.tf_oracle import tf, tf_write
from tfr_viewer.core.decode import message_types
from tfr_viewer.core.decode.file_payloads import decode_record
from tfr_viewer.core.decode.payloads import payload_json
from tfr_viewer.core.io import Dataset


def _summaries(folder):
    """A TensorFlow 2 event file, as ``tf.summary`` writes it."""
    t = tf()
    writer = t.summary.create_file_writer(str(folder))
    with writer.as_default():
        for step in range(4):
            t.summary.scalar("loss", 1.0 / (step + 1), step=step)
            t.summary.histogram("weights", t.random.stateless_normal([40], [step, 1]), step=step)
            t.summary.image("picture", t.fill([1, 6, 5, 3], step / 4), step=step)
            t.summary.text("note", f"step {step}", step=step)
    writer.close()
    (path,) = folder.glob("events.out.tfevents.*")
    return path


def _older_kinds(path):
    """Events of TensorFlow 1's kinds, made by TensorFlow's own classes."""
    from tensorflow.core.util import event_pb2

    v1 = tf().compat.v1
    summary = v1.Summary(value=[
        v1.Summary.Value(tag="accuracy", simple_value=0.875),
        v1.Summary.Value(tag="hist", histo=v1.HistogramProto(
            min=-1, max=2.5, num=3, sum=1.5, sum_squares=7.25,
            bucket_limit=[0, 1, 2.5], bucket=[1, 1, 1])),
        v1.Summary.Value(tag="image", image=v1.Summary.Image(
            height=2, width=3, colorspace=3, encoded_image_string=b"\x89PNG fake")),
        v1.Summary.Value(tag="audio", audio=v1.Summary.Audio(
            sample_rate=16000, num_channels=1, length_frames=4,
            encoded_audio_string=b"RIFF", content_type="audio/wav")),
    ])  # fmt: skip
    events = [
        v1.Event(wall_time=1.5e9, file_version="brain.Event:2"),
        v1.Event(wall_time=1.5e9 + 1, step=7, summary=summary),
        v1.Event(step=8, session_log=v1.SessionLog(status=3, checkpoint_path="/ckpt/model-8")),
        v1.Event(step=9, log_message=v1.LogMessage(level=30, message="slow step")),
        v1.Event(
            step=10, tagged_run_metadata=event_pb2.TaggedRunMetadata(tag="run", run_metadata=b"x")
        ),
    ]
    tf_write(path, [e.SerializeToString() for e in events])
    return path


@pytest.mark.parametrize("writer", ["tf.summary", "older kinds"])
def test_every_event_reads_as_tensorflows_event(tmp_path, writer):
    path = (
        _summaries(tmp_path) if writer == "tf.summary" else _older_kinds(tmp_path / "v1.tfevents")
    )
    event = tf().compat.v1.Event
    kind = message_types.built_in().get("tensorflow.Event")
    with Dataset([str(path)]) as ds:
        ds.index(verify=True)
        ds.message_type = kind
        assert len(ds) > 4
        for r in range(len(ds)):
            record = payload_json(decode_record(ds, r))
            assert record["message"] == "tensorflow.Event"
            assert "unknown_fields" not in record, r
            same(record["fields"], _dict(event.FromString(ds.read(r))), f"record {r}")


def test_events_filtered_by_field_path(tmp_path):
    from tests.program import program

    path = _older_kinds(tmp_path / "v1.tfevents")
    text = 'f["summary.value"][1]["histo"]["num"] == 3 or f["session_log.status"] == "CHECKPOINT"'
    done = program("list", str(path), "--message", "tensorflow.Event", "--filter", text)
    assert done.returncode == 0, done.stderr
    assert [int(line.split()[0]) for line in done.stdout.splitlines()] == [1, 2]
