"""Scalar curves of a log folder drawn by pyqtgraph: several runs and tags on one
plot, every point (pyqtgraph thins only what it draws, keeping each pixel's highest
and lowest), smoothed as TensorBoard smooths them (the smoothed line solid, the points
as written faint behind it), against the step, the hours since each curve began, or
the wall time; the mouse wheel and a drag zoom and pan, a right click offers the view's
menu. A click near a point emits ``picked(record)``: the record that holds it."""

from __future__ import annotations

import os

import numpy as np

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")  # never another binding beside ours
import pyqtgraph as pg  # noqa: E402
from PySide6.QtCore import QPointF, Qt, Signal  # noqa: E402
from PySide6.QtWidgets import QVBoxLayout, QWidget  # noqa: E402

from ...core.analyze.scalar_series import Series, smoothed  # noqa: E402
from ..style import label_colour  # noqa: E402

AXIS_TITLES = {"step": "step", "relative": "hours since the curve began", "wall_time": "time"}
PICK_PIXELS = 8.0  # how near a click must be to a point to pick it


class ScalarPlot(QWidget):
    """The plot; ``picked(record)`` when a point is clicked."""

    picked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.axis = "step"
        self.weight = 0.0
        self.shown: list[Series] = []
        self._xs: list[np.ndarray] = []
        self.plot = pg.PlotWidget(self, background="w")
        self.plot.showGrid(x=True, y=True, alpha=0.2)
        self.plot.getAxis("left").enableAutoSIPrefix(False)
        self.legend = self.plot.addLegend(offset=(-10, 10), labelTextSize="8pt")
        self.plot.scene().sigMouseClicked.connect(self._clicked)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)

    def show_curves(self, curves: list[Series], weight: float, axis: str) -> None:
        """Draw ``curves`` smoothed at ``weight`` against ``axis`` (a name of
        :data:`~...core.analyze.scalar_series.X_AXES`); the view is fitted to them when
        the curves or the axis changed, kept when they only grew or were smoothed."""
        keep_view = axis == self.axis and [(s.run, s.tag) for s in curves] == [
            (s.run, s.tag) for s in self.shown
        ]
        if axis != self.axis:
            bottom = pg.DateAxisItem() if axis == "wall_time" else pg.AxisItem("bottom")
            self.plot.setAxisItems({"bottom": bottom})
        self.axis, self.weight, self.shown = axis, weight, list(curves)
        self.plot.clear()
        self.legend.clear()
        self.plot.setLabel("bottom", AXIS_TITLES[axis])
        self._xs = []
        several_runs = len({s.run for s in curves}) > 1
        for i, s in enumerate(curves):
            x = s.x(axis)
            self._xs.append(x)
            colour = label_colour(i, None)
            name = f"{s.run}: {s.tag}" if several_runs else s.tag
            if weight > 0:
                faint = pg.mkColor(colour)
                faint.setAlpha(45)
                self._line(x, s.value, pg.mkPen(faint, width=1), None)
                self._line(x, smoothed(s.value, weight), pg.mkPen(colour, width=2), name)
            else:
                self._line(x, s.value, pg.mkPen(colour, width=1.4), name)
        if not keep_view:
            self.plot.enableAutoRange()

    def _line(self, x: np.ndarray, y: np.ndarray, pen: object, name: str | None) -> None:
        item = self.plot.plot(x, np.where(np.isfinite(y), y, np.nan), pen=pen, name=name)
        item.setDownsampling(auto=True, method="peak")
        item.setClipToView(True)
        item.setSkipFiniteCheck(False)

    def point_near(self, x: float, y: float) -> tuple[Series, int] | None:
        """The point (its curve and its place in it) nearest the view's ``(x, y)``
        within :data:`PICK_PIXELS` on the screen; None when none is that near."""
        width, height = self.plot.getViewBox().viewPixelSize()
        best: tuple[float, Series, int] | None = None
        for s, xs in zip(self.shown, self._xs, strict=True):
            if not len(s):
                continue
            with np.errstate(invalid="ignore"):
                far = np.hypot((xs - x) / width, (s.value - y) / height)
            far = np.where(np.isfinite(far), far, np.inf)
            i = int(np.argmin(far))
            if far[i] <= PICK_PIXELS and (best is None or far[i] < best[0]):
                best = (float(far[i]), s, i)
        return None if best is None else (best[1], best[2])

    def view_position(self, series: Series, i: int) -> QPointF:
        """Where point ``i`` of ``series`` is drawn, in the plot widget's own pixels."""
        vb = self.plot.getViewBox()
        scene = vb.mapViewToScene(QPointF(float(series.x(self.axis)[i]), float(series.value[i])))
        at: QPointF = self.plot.mapFromScene(scene)
        return at

    def _clicked(self, event: object) -> None:
        if event.button() != Qt.MouseButton.LeftButton:  # type: ignore[attr-defined]
            return
        vb = self.plot.getViewBox()
        at = vb.mapSceneToView(event.scenePos())  # type: ignore[attr-defined]
        found = self.point_near(at.x(), at.y())
        if found is not None:
            series, i = found
            self.picked.emit(int(series.record[i]))
