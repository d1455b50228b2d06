"""Curves for drawing: every scalar point of a log folder by run and tag, as
TensorBoard's own loader keeping everything reads them, however the points arrive in
chunks; TensorBoard's smoothing of a curve."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.summary_files import tensorboard_tensors
from tests.tf_oracle import tf
from tfr_viewer.core.analyze.event_log import EventLog
from tfr_viewer.core.analyze.scalar_series import ScalarSeries, smoothed
from tfr_viewer.core.io import Dataset
from tfr_viewer.core.io.event_runs import run_names


def tensorboard_smoothing(values: list[float], weight: float) -> list[float]:
    """The smoothing of TensorBoard's line chart, written from its description: a running
    average of the finite values, debiased by ``1 - weight ** n`` (``Math.pow``); other
    values drawn as they are; a constant curve as it is."""
    if all(v == values[0] for v in values):
        return list(values)
    last, n, out = 0.0, 0, []
    for v in values:
        if not math.isfinite(v):
            out.append(v)
            continue
        last = last * weight + (1 - weight) * v
        n += 1
        out.append(last / (1 - math.pow(weight, n)))
    return out


@pytest.mark.parametrize("weight", [0.0, 0.3, 0.6, 0.95, 0.999])
def test_smoothing_draws_as_tensorboard_draws(weight):
    rng = np.random.default_rng(5)
    values = rng.normal(size=3_000).cumsum()
    values[[10, 400, 401]] = [np.nan, np.inf, -np.inf]
    got = smoothed(values, weight)
    expected = np.array(tensorboard_smoothing(values.tolist(), weight))
    finite = np.isfinite(expected)
    assert np.array_equal(np.isfinite(got), finite)
    assert np.allclose(got[finite], expected[finite], rtol=1e-9, atol=1e-12)
    assert np.array_equal(got[~finite], values[~finite], equal_nan=True)


def test_a_constant_curve_and_the_slider_s_ends():
    flat = np.full(50, 0.25)
    assert np.array_equal(smoothed(flat, 0.9), flat)
    line = np.arange(5.0)
    assert np.array_equal(smoothed(line, 0.0), line)
    assert smoothed(np.zeros(0), 0.6).shape == (0,)
    for weight in (-0.1, 1.0):
        with pytest.raises(ValueError, match="outside"):
            smoothed(line, weight)


def test_every_point_of_every_run_however_it_arrives(tmp_path):
    t = tf()
    for run, steps in (("train", 1_300), ("eval", 40)):
        writer = t.summary.create_file_writer(str(tmp_path / run))
        with writer.as_default():
            for step in range(steps):
                t.summary.scalar("loss", 1.0 / (step + 1) + len(run), step=step)
                if step % 2:
                    t.summary.scalar("lr", 0.1 * step, step=step)
        writer.close()
    paths = sorted(str(p) for p in tmp_path.glob("*/events.out.tfevents.*"))
    series = ScalarSeries()
    with Dataset(paths) as ds:
        ds.index(verify=True)
        log = EventLog(run_names(paths))
        for r in range(len(ds)):
            log.add(r, ds.locate(r)[0], ds.read(r))
            if r % 97 == 0:  # chunks of every size, one point up
                series.add(log.scalars.take())
            if r == 1_000:  # a curve asked for halfway, then gathered on
                assert len(series.series("train", "loss")) > 0
        series.add(log.scalars.take())
    expected = tensorboard_tensors(tmp_path, "scalars")
    assert {key for key in expected if key in series} == set(expected)
    assert series.points == sum(len(e) for e in expected.values())
    for (run, tag), events in expected.items():
        curve = series.series(run, tag)
        assert curve.step.tolist() == [e.step for e in events]
        assert curve.wall_time.tolist() == [e.wall_time for e in events]
        assert curve.value.tolist() == [float(t.make_ndarray(e.tensor_proto)) for e in events]
        assert np.all(np.diff(curve.record) > 0)  # each point's own record, in order
        assert curve.x("relative")[0] == 0.0
        assert np.allclose(curve.x("relative") * 3600, curve.wall_time - curve.wall_time[0])
    assert len(series.series("train", "nothing")) == 0
