"""Which histograms of a tag are drawn (all, or some spread evenly with both ends), and
a histogram's line over its buckets."""

from __future__ import annotations

import numpy as np

from tfr_viewer.ui.panels.histogram_plot import drawn_steps, outline


def test_every_step_up_to_the_most_then_spread_evenly_with_both_ends():
    assert drawn_steps(5, most=10) == [0, 1, 2, 3, 4]
    picked = drawn_steps(1_000, most=10)
    assert len(picked) == 10 and picked[0] == 0 and picked[-1] == 999
    assert np.all(np.diff(picked) >= 100)
    assert drawn_steps(0) == []


def test_a_histogram_line_steps_over_each_bucket():
    buckets = np.array([[0.0, 1.0, 3.0], [1.0, 2.5, 5.0]])
    x, y = outline(buckets)
    assert x.tolist() == [0.0, 1.0, 1.0, 2.5]
    assert y.tolist() == [3.0, 3.0, 5.0, 5.0]
