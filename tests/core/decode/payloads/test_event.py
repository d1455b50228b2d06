"""TensorBoard event files decode to what TensorFlow's own Event messages hold: wall
time, step, the file version, and every summary value by tag (TensorFlow 2 tensors,
TensorFlow 1 scalars, images, histograms), log messages and session statuses."""

from __future__ import annotations

import glob
import json
import subprocess
import sys

import numpy as np
import pytest

from tests.tf_oracle import tf
from tfr_viewer.core.decode.payloads import decode, payload_json, payload_outline
from tfr_viewer.core.decode.payloads.event import EventPayload
from tfr_viewer.core.io.dataset import Dataset


@pytest.fixture(scope="module")
def events_file(tmp_path_factory):
    """A file written by TensorFlow 2's summary writer: scalars, images (encoded PNGs),
    a histogram and a text as tensors, each with its plugin's name, over three steps."""
    t = tf()
    folder = tmp_path_factory.mktemp("logs")
    writer = t.summary.create_file_writer(str(folder))

    def meta(plugin: str) -> bytes:
        data = t.compat.v1.SummaryMetadata.PluginData(plugin_name=plugin)
        return t.compat.v1.SummaryMetadata(plugin_data=data).SerializeToString()

    png = t.io.encode_png(np.zeros((4, 6, 3), dtype=np.uint8))
    with writer.as_default():
        for step in range(3):
            t.summary.write("loss", t.constant(1.5 / (step + 1)), step, meta("scalars"))
            t.summary.write("train/accuracy", t.constant(0.25 * step), step, meta("scalars"))
        t.summary.write("samples", t.stack([b"6", b"4", png]), 2, meta("images"))
        buckets = t.constant([[0.0, 1.0, 3.0], [1.0, 2.0, 5.0]])
        t.summary.write("weights", buckets, 2, meta("histograms"))
        t.summary.write("notes", t.constant("first run"), 2, meta("text"))
    writer.close()
    (path,) = glob.glob(str(folder / "events.out.tfevents.*"))
    return path


def _tf_events(path: str) -> list:
    return list(tf().compat.v1.train.summary_iterator(path))


def _ours(path: str) -> list[EventPayload]:
    with Dataset([path]) as ds:
        ds.index()
        decoded = [decode(ds.read(i)) for i in range(len(ds))]
    assert all(d.decoder == "event" and d.failed is None for d in decoded)
    return [d.payload for d in decoded]  # type: ignore[misc]


def test_every_event_reads_as_tensorflow_reads_it(events_file):
    theirs = _tf_events(events_file)
    ours = _ours(events_file)
    assert len(ours) == len(theirs) > 3
    for mine, event in zip(ours, theirs, strict=True):
        assert mine.wall_time == event.wall_time
        assert mine.step == event.step
        assert mine.what == (event.WhichOneof("what") or "none")
        if event.HasField("file_version"):
            assert mine.file_version == event.file_version
        if event.HasField("summary"):
            assert [v.tag for v in mine.values] == [v.tag for v in event.summary.value]
            for v, value in zip(mine.values, event.summary.value, strict=True):
                assert v.plugin == (value.metadata.plugin_data.plugin_name or None)
                want = tf().make_ndarray(value.tensor)
                assert v.tensor is not None and v.tensor.values.shape == want.shape
                if want.dtype == object:
                    assert v.tensor.values.tolist() == want.tolist()
                else:
                    np.testing.assert_array_equal(v.tensor.values, want)
    assert {v.tag for e in ours for v in e.values} == {
        "loss",
        "train/accuracy",
        "samples",
        "weights",
        "notes",
    }


def test_tensorflow_1_scalars_logs_and_session_statuses(tmp_path):
    """Events made with TensorFlow's own messages: a ``simple_value``, an encoded image,
    a histogram, a log message and a checkpoint."""
    t = tf()
    png = t.io.encode_png(np.zeros((5, 7, 3), dtype=np.uint8)).numpy()
    summary = t.compat.v1.Summary
    events = [
        t.compat.v1.Event(wall_time=1.7e9 + 0.25, step=7, file_version="brain.Event:2"),
        t.compat.v1.Event(
            wall_time=1.7e9 + 1,
            step=8,
            summary=summary(
                value=[
                    summary.Value(tag="acc", simple_value=0.1),
                    summary.Value(
                        tag="img",
                        image=summary.Image(
                            height=5, width=7, colorspace=3, encoded_image_string=png
                        ),
                    ),
                    summary.Value(tag="h", histo=t.compat.v1.HistogramProto(min=-1, max=3, num=40)),
                ]
            ),
        ),
        t.compat.v1.Event(
            wall_time=1.7e9 + 2,
            step=-3,
            log_message=t.compat.v1.LogMessage(level=30, message="careful"),
        ),
        t.compat.v1.Event(
            wall_time=1.7e9 + 3,
            session_log=t.compat.v1.SessionLog(status=3, checkpoint_path="/ckpt/model-8"),
        ),
    ]
    path = tmp_path / "events.out.tfevents.1"
    with t.io.TFRecordWriter(str(path)) as w:
        for e in events:
            w.write(e.SerializeToString())
    ours = _ours(str(path))
    assert [e.step for e in ours] == [7, 8, -3, 0]
    assert ours[0].file_version == "brain.Event:2" and ours[0].wall_time == 1.7e9 + 0.25
    acc, img, histo = ours[1].values
    assert (acc.tag, acc.kind, acc.value) == ("acc", "scalar", float(np.float32(0.1)))
    assert (img.kind, img.image, img.detail) == ("image", png, "7×5")
    assert (histo.kind, histo.detail) == ("histogram", "40 values in [-1, 3]")
    assert ours[2].message == "warn: careful"
    assert ours[3].message == "checkpoint /ckpt/model-8"
    record = payload_json(decode(events[1].SerializeToString()))
    assert record["summary"][0]["value"] == 0.1  # the float32's shortest text
    assert record["summary"][1]["image"]["image"]["width"] == 7
    nodes = payload_outline(decode(events[1].SerializeToString()))
    summary_node = next(n for n in nodes if n.name == "summary")
    assert [c.name for c in summary_node.children] == ["acc", "img", "h"]


def test_show_prints_an_event_as_json_and_as_text(events_file):
    run = [sys.executable, "-m", "tfr_viewer", "show"]
    done = subprocess.run([*run, "1", "--json", events_file], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["type"] == "event" and record["what"] == "summary"
    event = _tf_events(events_file)[1]
    assert record["wall_time"] == event.wall_time and record["step"] == event.step
    assert record["summary"][0]["tag"] == event.summary.value[0].tag
    text = subprocess.run([*run, "1", events_file], capture_output=True, text=True)
    assert text.returncode == 0, text.stderr
    assert "type event" in text.stdout and event.summary.value[0].tag in text.stdout


@pytest.mark.parametrize(
    "data",
    [
        b"\x09" + b"\x00" * 8 + b"\x10",  # a step whose varint runs past the end
        b"\x09" + b"\x00" * 8 + b"\x58\x01",  # field 11: no Event field
        b"\x09" + b"\x00" * 8 + b"\x09" + b"\x00" * 8,  # wall time twice
        b"\x09\x00\x00",  # a wall time cut short
    ],
)
def test_bytes_that_only_start_like_an_event_are_not_one(data):
    assert decode(data).decoder != "event"


def test_an_image_summary_gives_its_pictures(tmp_path):
    """tf.summary.image's pictures (a TensorFlow 2 ``images`` tensor: width, height, then
    the PNGs) come out of the record whole, as TensorFlow decodes them."""
    from tests.summary_files import write_summaries
    from tests.tf_oracle import tf
    from tfr_viewer import open as tfv_open

    path = write_summaries(tmp_path / "logs")
    view = tfv_open(str(path))
    pictures = [a for record in view for a in record.images()]
    assert [a.key for a in pictures] == ["samples", "samples"]
    for picture in pictures:
        assert tuple(tf().io.decode_png(picture.data).shape) == (16, 12, 3)
    view.close()
