"""The bar chart's category labels: what tells them apart, never overlapping at any
width, and the whole label of the bar under the mouse."""

from __future__ import annotations

from itertools import pairwise

import pytest
from PySide6.QtCore import QPoint, QPointF
from PySide6.QtGui import QFontMetrics

from tfr_viewer.ui.panels.bar_chart import BarChart, shared_ends

NAMES = [f"camera_front/frame_{i:06d}.jpg" for i in range(18)]


def test_shared_ends_are_said_once():
    assert shared_ends(NAMES) == ("camera_front/frame_0000….jpg", [f"{i:02d}" for i in range(18)])
    assert shared_ends(["car", "person", "traffic light"]) == (
        "",
        ["car", "person", "traffic light"],
    )
    assert shared_ends(["10", "11", "12"]) == ("", ["10", "11", "12"])  # too little to say
    assert shared_ends(["a.jpg", "a.jpg.jpg"]) == ("", ["a.jpg", "a.jpg.jpg"])  # one empty
    assert shared_ends(["only.jpg"]) == ("", ["only.jpg"])


def _never_overlap(chart: BarChart) -> list[str]:
    metrics = QFontMetrics(chart.getPlotItem().getAxis("bottom").font())
    ticks = chart.category_ticks()
    centres = [chart.bar_position(i).x() for i, _ in ticks]
    widths = [metrics.horizontalAdvance(t) for _, t in ticks]
    for k in range(1, len(ticks)):
        assert centres[k] - centres[k - 1] >= (widths[k] + widths[k - 1]) / 2, ticks
    return [t for _, t in ticks]


@pytest.mark.parametrize("width", [900, 330, 160])
def test_file_names_are_told_apart_at_any_width(qtbot, width):
    chart = BarChart()
    qtbot.addWidget(chart)
    chart.resize(width, 180)
    chart.show()
    chart.set_categories(NAMES, [4] * 6 + [3] * 12)
    qtbot.waitExposed(chart)
    shown = _never_overlap(chart)
    assert chart.getPlotItem().getAxis("bottom").labelText == "camera_front/frame_0000….jpg"
    assert len(set(shown)) == len(shown)  # no two alike
    if width == 900:
        assert shown == [f"{i:02d}" for i in range(18)]  # every bar named
    elif width == 330:
        assert shown == [f"{i:02d}" for i in range(0, 18, 2)]  # every second bar
    else:
        assert 2 <= len(shown) < 9 and shown[0] == "00"


def test_a_narrower_chart_thins_its_labels(qtbot):
    chart = BarChart()
    qtbot.addWidget(chart)
    long_names = [f"{w}_category" for w in "alpha beta gamma delta epsilon zeta".split()]
    chart.resize(900, 180)
    chart.show()
    chart.set_categories(long_names, [1, 2, 3, 4, 5, 6])
    qtbot.waitExposed(chart)
    assert [t for _, t in chart.category_ticks()] == [
        w.removesuffix("_category") for w in long_names
    ]
    chart.resize(150, 180)
    qtbot.waitUntil(lambda: len(chart.getPlotItem().getAxis("bottom")._tickLevels[0]) < 6)
    _never_overlap(chart)


def test_the_bar_under_the_mouse_names_its_whole_label(qtbot):
    chart = BarChart()
    qtbot.addWidget(chart)
    chart.resize(330, 180)
    chart.show()
    chart.hint = "Click a bar to show its records"
    chart.set_categories(NAMES, [4] * 6 + [3] * 12)
    qtbot.waitExposed(chart)
    _hover(qtbot, chart, chart.bar_position(7), f"{NAMES[7]}: 3\nClick a bar to show its records")
    _hover(qtbot, chart, QPoint(2, 2), "Click a bar to show its records")  # off the bars


def _hover(qtbot, chart, where, expected):
    """Move the mouse to ``where`` until the tool tip says ``expected`` (the chart's
    scene takes at most one mouse move each frame, so a move may be skipped; Qt drops a
    move to where the mouse already is, so the moves wobble by a pixel)."""
    wobble = [where, where + QPoint(1, 0)]

    def moved_and_said():
        wobble.reverse()
        qtbot.mouseMove(chart.viewport(), wobble[0])
        return chart.toolTip() == expected

    qtbot.waitUntil(moved_and_said, timeout=5000)


@pytest.mark.parametrize("width", [600, 160, 110])
def test_a_histograms_numbers_never_overlap(qtbot, width):
    """Image widths of 64 to 16,000 pixels in a narrow card: the numbers under the bars
    are spaced so that each is read whole."""
    chart = BarChart()
    qtbot.addWidget(chart)
    chart.resize(width, 180)
    chart.show()
    edges = list(range(64, 16_064, 800))
    chart.set_histogram(edges, [1] * (len(edges) - 1))
    qtbot.waitExposed(chart)
    axis = chart.getPlotItem().getAxis("bottom")
    vb = chart.getPlotItem().vb
    metrics = QFontMetrics(axis.font())
    (drawn,) = axis._tickLevels  # what the axis draws
    assert len(drawn) >= 1
    placed = sorted((vb.mapViewToScene(QPointF(v, 0)).x(), t) for v, t in drawn)
    for (x0, t0), (x1, t1) in pairwise(placed):
        room = x1 - x0
        assert room >= (metrics.horizontalAdvance(t0) + metrics.horizontalAdvance(t1)) / 2, placed
    left, right = vb.sceneBoundingRect().left(), vb.sceneBoundingRect().right()
    for x, text in placed:  # each whole within the axis
        half = metrics.horizontalAdvance(text) / 2
        assert left - 1 <= x - half and x + half <= right + 1, (text, x, left, right)
    if width == 600:
        assert len(drawn) >= 4
