"""A small bar chart drawn by pyqtgraph whose bars can be clicked.

``bar_clicked(index)`` fires when the user clicks bar ``index``. Bars are either
categories (``set_categories``: one bar per label) or a histogram (``set_histogram``:
bars between bin edges). A second series (``compare``) is drawn beside the first in
another colour, for two datasets on one chart.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")  # never another binding beside ours
import pyqtgraph as pg  # noqa: E402
from PySide6.QtCore import QPoint, QPointF, Signal  # noqa: E402
from PySide6.QtWidgets import QSizePolicy, QWidget  # noqa: E402

FIRST = (66, 133, 244)
SECOND = (234, 134, 40)


class BarChart(pg.PlotWidget):
    bar_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None, height: int = 150) -> None:
        super().__init__(parent, background="w")
        self.setMinimumHeight(height)
        self.setMaximumHeight(height + 60)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMenuEnabled(False)
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        self.getPlotItem().getAxis("left").setWidth(44)
        self.centres = np.zeros(0)
        self.widths = np.zeros(0)
        self.heights = np.zeros(0)
        self.scene().sigMouseClicked.connect(self._clicked)

    def _draw(self, centres, widths, heights, second=None, ticks=None) -> None:
        self.clear()
        self.centres = np.asarray(centres, dtype=np.float64)
        self.widths = np.asarray(widths, dtype=np.float64)
        self.heights = np.asarray(heights, dtype=np.float64)
        if second is None:
            self.addItem(
                pg.BarGraphItem(x=self.centres, height=self.heights, width=self.widths, brush=FIRST)
            )
        else:
            half = self.widths / 2
            self.addItem(
                pg.BarGraphItem(
                    x=self.centres - half / 2, height=self.heights, width=half, brush=FIRST
                )
            )
            self.addItem(
                pg.BarGraphItem(
                    x=self.centres + half / 2,
                    height=np.asarray(second, dtype=np.float64),
                    width=half,
                    brush=SECOND,
                )
            )
        axis = self.getPlotItem().getAxis("bottom")
        axis.setTicks([ticks] if ticks is not None else None)
        top = max(
            float(self.heights.max(initial=0)),
            float(np.max(second, initial=0)) if second is not None else 0,
        )
        self.setYRange(0, top * 1.05 or 1, padding=0)
        if len(self.centres):
            lo = float((self.centres - self.widths / 2).min())
            hi = float((self.centres + self.widths / 2).max())
            self.setXRange(lo, hi, padding=0.02)

    def set_categories(
        self, labels: Sequence[str], counts: Sequence[float], second: Sequence[float] | None = None
    ) -> None:
        """One bar per category, labelled on the axis (long labels shortened)."""
        n = len(labels)
        shown = [(i, t if len(t) <= 12 else t[:11] + "…") for i, t in enumerate(labels)]
        step = max(1, n // 12)
        self._draw(np.arange(n), np.full(n, 0.8), counts, second, shown[::step])

    def set_histogram(
        self, edges: Sequence[float], counts: Sequence[float], second: Sequence[float] | None = None
    ) -> None:
        """Bars between consecutive ``edges``."""
        e = np.asarray(edges, dtype=np.float64)
        self._draw((e[:-1] + e[1:]) / 2, np.diff(e) * 0.95, counts, second)

    def bar_at(self, x: float, y: float) -> int | None:
        """The bar under the view coordinates ``(x, y)`` (or above a short bar)."""
        if not len(self.centres):
            return None
        hits = np.flatnonzero(np.abs(self.centres - x) <= self.widths / 2)
        if not len(hits) or y < 0:
            return None
        return int(hits[0])

    def bar_position(self, index: int) -> QPoint:
        """Where bar ``index`` is, in the widget's coordinates (its middle, or just above
        the axis for a short bar)."""
        y = max(float(self.heights[index]) / 2, 0.0)
        view = self.getPlotItem().vb.mapViewToScene(QPointF(float(self.centres[index]), y))
        return self.mapFromScene(view)

    def _clicked(self, event) -> None:  # noqa: ANN001
        vb = self.getPlotItem().vb
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        point = vb.mapSceneToView(event.scenePos())
        hit = self.bar_at(point.x(), point.y())
        if hit is not None:
            self.bar_clicked.emit(hit)
