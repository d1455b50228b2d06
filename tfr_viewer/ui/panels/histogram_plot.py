"""The histograms of one tag over its steps, drawn by pyqtgraph as TensorBoard's
overlay draws them: one line a step over its buckets (the count over each bucket's
width), the earliest palest, the latest darkest. A click on a line emits
``picked(record)``: the record of that step."""

from __future__ import annotations

import os

import numpy as np

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")  # never another binding beside ours
import pyqtgraph as pg  # noqa: E402
from PySide6.QtCore import Signal  # noqa: E402
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget  # noqa: E402

from ...core.analyze.event_log import HistogramPoint  # noqa: E402
from ...core.text import plural  # noqa: E402

MOST_LINES = 200  # steps drawn at most, spread evenly over the tag's steps (both ends)


def drawn_steps(count: int, most: int = MOST_LINES) -> list[int]:
    """Which of ``count`` histograms are drawn: all up to ``most``, else ``most`` of
    them spread evenly, the first and the last among them."""
    if count <= most:
        return list(range(count))
    return sorted(set(np.linspace(0, count - 1, most).round().astype(int).tolist()))


def outline(buckets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A histogram's line: over each bucket ``(left, right, count)``, its count, as
    steps from edge to edge."""
    left, right, count = buckets[:, 0], buckets[:, 1], buckets[:, 2]
    x = np.empty(2 * len(buckets))
    y = np.empty(2 * len(buckets))
    x[0::2], x[1::2] = left, right
    y[0::2] = y[1::2] = count
    return x, y


class HistogramPlot(QWidget):
    """The plot of one tag's histograms; ``picked(record)`` when a line is clicked."""

    picked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = pg.PlotWidget(self, background="w")
        self.plot.showGrid(x=True, y=True, alpha=0.2)
        self.plot.getAxis("left").enableAutoSIPrefix(False)
        self.plot.setLabel("left", "count")
        self.caption = QLabel("Select a histogram tag.", self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.caption)
        layout.addWidget(self.plot, 1)
        self.shown: list[HistogramPoint] = []

    def show_histograms(self, title: str, points: list[HistogramPoint]) -> None:
        """Draw ``points`` (one tag's, in step order) under ``title``."""
        self.plot.clear()
        picked = drawn_steps(len(points))
        self.shown = [points[i] for i in picked]
        for n, h in enumerate(self.shown):
            if not len(h.buckets):
                continue
            shade = 200 - int(170 * n / max(len(self.shown) - 1, 1))
            x, y = outline(h.buckets)
            line = pg.PlotCurveItem(x, y, pen=pg.mkPen((shade, shade // 2, 30), width=1.2))
            line.setClickable(True, width=6)
            line.sigClicked.connect(lambda _item, _event, record=h.record: self.picked.emit(record))
            self.plot.addItem(line)
        if not points:
            self.caption.setText("Select a histogram tag.")
            return
        drawn = (
            plural(len(points), "step")
            if len(self.shown) == len(points)
            else f"{len(self.shown)} of {plural(len(points), 'step')}, spread evenly"
        )
        self.caption.setText(
            f"{title}: steps {points[0].step:,} to {points[-1].step:,} ({drawn}); "
            "the latest darkest; click a line to select its record"
        )
        self.plot.enableAutoRange()
