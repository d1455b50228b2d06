"""One read of event files: every scalar point past TensorBoard's default reservoir,
as TensorBoard's own loader keeping everything reads them; each tag's points, steps
and bytes; the bytes of each kind of event adding up to the files'."""

from __future__ import annotations

import os

import numpy as np

from tests.summary_files import tensorboard_tensors, write_tf1_summaries
from tests.tf_oracle import tf
from tfr_viewer.core.analyze.event_log import OTHER, EventLog
from tfr_viewer.core.io import Dataset


def _log(paths, runs=None) -> EventLog:
    with Dataset(paths) as ds:
        ds.index(verify=True)
        log = EventLog(runs or ["."] * len(paths))
        for r in range(len(ds)):
            log.add(r, ds.locate(r)[0], ds.read(r))
    return log


def test_every_point_past_the_reservoir_as_tensorboard_reads_them(tmp_path):
    t = tf()
    writer = t.summary.create_file_writer(str(tmp_path))
    rng = np.random.default_rng(1)
    with writer.as_default():
        for step in range(1_500):  # past the 1,000 points TensorBoard keeps by default
            t.summary.scalar("loss", float(rng.random()), step=step)
            if step % 3 == 0:
                t.summary.scalar("eval/accuracy", step / 1_500, step=step)
    writer.close()
    paths = [str(p) for p in tmp_path.glob("events.out.tfevents.*")]
    log = _log(paths)
    c = log.scalars.peek()
    got: dict = {}
    for tag, step, wall, value in zip(c.tag, c.step, c.wall_time, c.value, strict=True):
        got.setdefault((".", c.tags[tag]), []).append((step, wall, value))
    expected = {
        key: [(e.step, e.wall_time, float(t.make_ndarray(e.tensor_proto))) for e in events]
        for key, events in tensorboard_tensors(tmp_path, "scalars").items()
    }
    assert got == expected
    assert len(got[(".", "loss")]) == 1_500 and len(got[(".", "eval/accuracy")]) == 500
    loss = log.tags[(".", "loss")]
    assert (loss.plugin, loss.points, loss.first_step, loss.last_step) == (
        "scalars",
        1_500,
        0,
        1_499,
    )


def test_the_bytes_of_tags_and_kinds_add_up_to_the_files(tmp_path):
    path = write_tf1_summaries(tmp_path / "events.out.tfevents.5.host", steps=6)
    log = _log([str(path)])
    assert round(log.total_bytes()) == os.path.getsize(path)
    kinds = {kind: counts for (_, kind), counts in log.kinds.items()}
    assert kinds["summary"][0] == 6 and kinds["graph_def"][0] == 1
    assert {"file_version", "session_log"} <= set(kinds) and OTHER not in kinds
    summary_bytes = sum(e.bytes for e in log.tags.values())
    assert abs(summary_bytes - kinds["summary"][1]) < 1e-6
    assert {e.tag: e.plugin for e in log.tags.values()} == {
        "lr": "scalars",
        "acc": "scalars",
        "dist": "histograms",
    }
    # a histogram takes more room than a scalar in the same events
    assert log.tags[(".", "dist")].bytes > 3 * log.tags[(".", "lr")].bytes


def _state(log: EventLog) -> dict:
    c = log.scalars.peek()
    return {
        "kinds": dict(log.kinds),
        "tags": {key: _nan_free(vars(entry)) for key, entry in log.tags.items()},
        "scalars": [
            (c.runs[r], c.tags[t], st, w, v, rec)
            for r, t, st, w, v, rec in zip(
                *(
                    getattr(c, n).tolist()
                    for n in ("run", "tag", "step", "wall_time", "value", "record")
                ),
                strict=True,
            )
        ],
        "histograms": [(h.tag, h.step, h.record, h.buckets.tolist()) for h in log.histograms],
        "summaries": log.summaries,
        "hparams": log.hparams,
    }


def _nan_free(entry: dict) -> dict:
    value = entry["last_value"]
    return {**entry, "last_value": "NaN" if value is not None and value != value else value}


def _same(a: dict, b: dict) -> None:
    import math

    assert a["kinds"] == b["kinds"] and a["tags"] == b["tags"]
    assert a["histograms"] == b["histograms"] and a["summaries"] == b["summaries"]
    assert a["hparams"] == b["hparams"]
    assert len(a["scalars"]) == len(b["scalars"])
    for x, y in zip(a["scalars"], b["scalars"], strict=True):  # NaN equals NaN here
        assert x[:4] == y[:4] and x[5] == y[5]
        assert x[4] == y[4] or (math.isnan(x[4]) and math.isnan(y[4]))


def _both_ways(payloads: list[bytes]) -> tuple[dict, dict]:
    from tfr_viewer.core.io.payload_block import PayloadBlock

    block = PayloadBlock.of(payloads)
    records = np.arange(len(payloads), dtype=np.int64)
    by_block, one_by_one = EventLog(["r"]), EventLog(["r"])
    by_block.add_block(records, 0, block)
    for r, p in enumerate(payloads):
        one_by_one.add(r, 0, p)
    return _state(by_block), _state(one_by_one)


def _events(tmp_path) -> list[bytes]:
    from tests.summary_files import write_summaries

    paths = [write_summaries(tmp_path / "tf2", steps=6)]
    paths.append(write_tf1_summaries(tmp_path / "tf1" / "events.out.tfevents.1.h", steps=6))
    payloads = []
    for path in paths:
        with Dataset([str(path)]) as ds:
            ds.index(verify=True)
            payloads += [ds.read(r) for r in range(len(ds))]
    return payloads


def _made_events() -> list[bytes]:
    """Events as other writers make them: tensors of a float or a double as their
    content or their values, shapes of ones, values with and without metadata, a
    negative step, NaN, and tensors that are no scalar."""
    t = tf()
    summary, event = t.compat.v1.Summary, t.compat.v1.Event
    meta = t.compat.v1.SummaryMetadata(
        plugin_data=t.compat.v1.SummaryMetadata.PluginData(plugin_name="scalars")
    )
    tensors = [
        t.make_tensor_proto(np.float32(0.5)),
        t.make_tensor_proto(np.float64(-2.25)),
        t.make_tensor_proto(np.array([[3.0]], dtype=np.float32)),
        t.make_tensor_proto(np.array([1.0, 2.0], dtype=np.float32)),
        t.make_tensor_proto(np.int64(7)),
        t.make_tensor_proto(np.float32("nan")),
    ]
    from tensorflow.core.framework import tensor_pb2

    tensors.append(tensor_pb2.TensorProto(dtype=1, float_val=[4.5]))
    tensors.append(tensor_pb2.TensorProto(dtype=2, double_val=[0.125]))
    out = []
    for i, tensor in enumerate(tensors):
        value = summary.Value(tag=f"t{i % 3}", tensor=tensor)
        if i != 4:
            value.metadata.CopyFrom(meta)
        out.append(event(wall_time=10.0 + i, step=i - 3, summary=summary(value=[value])))
    out.append(
        event(
            wall_time=1.0,
            step=2,
            summary=summary(value=[summary.Value(tag="t0", tensor=tensors[0])]),
        )
    )
    other = t.compat.v1.SummaryMetadata(
        plugin_data=t.compat.v1.SummaryMetadata.PluginData(plugin_name="custom")
    )
    out.append(
        event(
            wall_time=2.0,
            summary=summary(value=[summary.Value(tag="c", tensor=tensors[0], metadata=other)]),
        )
    )
    out.append(event(wall_time=3.0, summary=summary()))
    out.append(
        event(wall_time=4.0, log_message=t.compat.v1.LogMessage(level=30, message="careful"))
    )
    return [e.SerializeToString() for e in out]


def test_the_compiled_pass_reads_events_as_the_decoder_does(tmp_path):
    by_block, one_by_one = _both_ways(_events(tmp_path) + _made_events())
    _same(by_block, one_by_one)
    assert len(by_block["scalars"]) > 20


def test_the_compiled_pass_agrees_on_damaged_and_hostile_events(tmp_path):
    rng = np.random.default_rng(7)
    good = _events(tmp_path) + _made_events()
    hostile = [b"", b"\x09", b"\x09" + bytes(8), b"\x09" + bytes(8) + b"\x2a\x05\x0a\x03\x0a\x01"]
    for _ in range(3000):
        p = bytearray(good[int(rng.integers(len(good)))])
        for _ in range(int(rng.integers(1, 4))):
            at = int(rng.integers(len(p)))
            kind = int(rng.integers(3))
            if kind == 0:
                p[at] = int(rng.integers(256))
            elif kind == 1:
                del p[at:]
            else:
                p[at:at] = bytes([int(rng.integers(256))])
            if not p:
                break
        hostile.append(bytes(p))
    by_block, one_by_one = _both_ways(hostile)
    _same(by_block, one_by_one)


def test_the_compiled_pass_reads_on_when_its_buffers_are_full(tmp_path, monkeypatch):
    from tfr_viewer.core import kernels

    small = kernels.EventPass
    monkeypatch.setattr(kernels, "EventPass", lambda: small(values=3, tags=2))
    by_block, one_by_one = _both_ways(_events(tmp_path) + _made_events())
    _same(by_block, one_by_one)


def test_a_large_block_read_in_parts_side_by_side_reads_as_the_decoder_does(tmp_path, monkeypatch):
    """A block of thousands of events, its parts read two at a time on two threads
    (events the compiled pass leaves to Python on both sides of a part's edge, buffers
    that fill within a part, a last part alone): the same log as the decoder's, record
    by record."""
    from tfr_viewer.core import kernels
    from tfr_viewer.core.analyze import event_log

    sides: list[int] = []
    real = event_log._side_by_side
    monkeypatch.setattr(event_log, "_two_cores", lambda: True)
    monkeypatch.setattr(event_log, "_PART_BYTES", 40_000)
    monkeypatch.setattr(
        event_log, "_side_by_side", lambda reads: sides.append(len(reads)) or real(reads)
    )
    small = kernels.EventPass
    monkeypatch.setattr(kernels, "EventPass", lambda: small(values=50, tags=2))
    good = _events(tmp_path) + _made_events()
    payloads = (good * (3000 // len(good) + 1))[:3000]
    cuts = event_log._cuts(np.array([len(p) for p in payloads], dtype=np.int64))
    while len(cuts) % 2:  # an odd number of parts: the last read alone
        payloads.append(good[0])
        cuts = event_log._cuts(np.array([len(p) for p in payloads], dtype=np.int64))
    edge = cuts[3]
    for row in (edge - 1, edge):  # a part's edge between two events left to Python
        payloads[row] = b"\x0a" + payloads[row][1:]
    assert len(cuts) > 6
    by_block, one_by_one = _both_ways(payloads)
    _same(by_block, one_by_one)
    parts = len(cuts) - 1
    assert sides == ([2] * (parts // 2) + [1] if kernels.compiled_in_use() else [])
    assert len(by_block["scalars"]) > 1500
