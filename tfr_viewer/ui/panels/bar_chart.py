"""A small bar chart drawn by pyqtgraph whose bars can be clicked.

``bar_clicked(index)`` fires when the user clicks bar ``index``. Bars are either
categories (``set_categories``: one bar per label) or a histogram (``set_histogram``:
bars between bin edges). A second series (``compare``) is drawn beside the first in
another colour, for two datasets on one chart.

Category labels never overlap and say what tells them apart: what all labels begin and
end with (``camera_front/frame_0000…​.jpg``) is said once under the axis and each bar
shows the rest, shortened in its middle to the room its bar has at the chart's width;
every second or third label is left out when even that is too little, and the bar under
the mouse names its whole label in a tool tip.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")  # never another binding beside ours
import pyqtgraph as pg  # noqa: E402
from PySide6.QtCore import QPoint, QPointF, Qt, Signal  # noqa: E402
from PySide6.QtGui import QFontMetrics, QResizeEvent  # noqa: E402
from PySide6.QtWidgets import QSizePolicy, QWidget  # noqa: E402

FIRST = (66, 133, 244)
SECOND = (234, 134, 40)
GAP = 8  # pixels between two labels
SHORTEST = 4  # characters worth showing of a label (with its "…")


def value_text(value: float) -> str:
    """A number under a histogram: whole numbers whole (``16000``), others in three
    figures."""
    return str(int(value)) if float(value).is_integer() else f"{value:.3g}"


def shared_ends(labels: Sequence[str]) -> tuple[str, list[str]]:
    """What every label begins and ends with, as ``begin…end`` (``""`` when they share
    nothing worth saying), and each label without it. A label that would be left empty
    keeps its whole text."""
    if len(labels) < 2:
        return "", list(labels)
    begin = os.path.commonprefix(list(labels))
    end = os.path.commonprefix([t[len(begin) :][::-1] for t in labels])[::-1]
    if len(begin) + len(end) < SHORTEST:
        return "", list(labels)
    rest = [t[len(begin) : len(t) - len(end)] for t in labels]
    if any(not r for r in rest):
        return "", list(labels)
    return f"{begin}…{end}", rest


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
        self.labels: list[str] = []
        self.second: np.ndarray | None = None
        self.hint = ""  # the tool tip away from the bars, and under each bar's own
        self.scene().sigMouseClicked.connect(self._clicked)
        self.scene().sigMouseMoved.connect(self._hovered)

    def _draw(
        self,
        centres: Sequence[float] | np.ndarray,
        widths: Sequence[float] | np.ndarray,
        heights: Sequence[float] | np.ndarray,
        second: Sequence[float] | None = None,
        ticks: Sequence[tuple[float, str]] | None = None,
    ) -> None:
        self.clear()
        self.centres = np.asarray(centres, dtype=np.float64)
        self.widths = np.asarray(widths, dtype=np.float64)
        self.heights = np.asarray(heights, dtype=np.float64)
        self.second = None if second is None else np.asarray(second, dtype=np.float64)
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
            if ticks is None:  # numbers placed in the range just set
                self._space_value_ticks()

    def set_categories(
        self, labels: Sequence[str], counts: Sequence[float], second: Sequence[float] | None = None
    ) -> None:
        """One bar per category, labelled on the axis as the width allows."""
        n = len(labels)
        self.labels = [str(t) for t in labels]
        self._draw(np.arange(n), np.full(n, 0.8), counts, second, self.category_ticks())

    def category_ticks(self) -> list[tuple[int, str]]:
        """The labels shown under the bars at the chart's width: ``(bar, text)``, each
        text the part of its label that differs from the others, within the room of its
        bar (or of every ``step`` bars when some are left out), shortened in its
        middle."""
        n = len(self.labels)
        if not n:
            return []
        shared, texts = shared_ends(self.labels)
        self.getPlotItem().getAxis("bottom").setLabel(shared or None)
        metrics = QFontMetrics(self.getPlotItem().getAxis("bottom").font())
        left = self.getPlotItem().getAxis("left").width()
        room = max(1.0, (self.width() - left - 16) / n)  # pixels a bar
        widest = max(metrics.horizontalAdvance(t) for t in texts) + GAP
        least = metrics.horizontalAdvance("M" * SHORTEST) + GAP
        step = math.ceil(min(widest, least) / room)
        width = int(step * room) - GAP
        return [
            (i, metrics.elidedText(texts[i], Qt.TextElideMode.ElideMiddle, width))
            for i in range(0, n, step)
        ]

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        # (nothing drawn yet while the plot is built, no plot once it is taken down)
        if self.getPlotItem() is None or not len(getattr(self, "centres", ())):
            return
        if self.labels:  # the room of each label changed
            self.getPlotItem().getAxis("bottom").setTicks([self.category_ticks()])
        else:
            self._space_value_ticks()

    def _axis_length(self) -> int:
        axis = int(self.getPlotItem().getAxis("left").width())
        return max(1, int(self.width()) - axis - 16)

    def value_step(self) -> float:
        """The distance between two numbers under a histogram: a 1, 2 or 5 times a power
        of ten that leaves room for the widest number between every two."""
        lo = float((self.centres - self.widths / 2).min())
        hi = float((self.centres + self.widths / 2).max())
        span = hi - lo
        if span <= 0:
            return 1.0
        metrics = QFontMetrics(self.getPlotItem().getAxis("bottom").font())
        widest = max(metrics.horizontalAdvance(value_text(v)) for v in (lo, hi, -span, span))
        rough = span * (widest + GAP) / self._axis_length()  # its room, in values
        power = 10 ** math.floor(math.log10(rough))
        return float(next(m * power for m in (1, 2, 5, 10) if m * power >= rough))

    def value_ticks(self) -> list[tuple[float, str]]:
        """The numbers under a histogram: multiples of :meth:`value_step` whose text
        lies whole within the axis; when none does, one near the middle."""
        view_lo, view_hi = self.getPlotItem().vb.viewRange()[0]
        if view_hi <= view_lo:
            return []
        metrics = QFontMetrics(self.getPlotItem().getAxis("bottom").font())
        length = self._axis_length()
        step = self.value_step()

        def inside(v: float) -> bool:
            x = (v - view_lo) / (view_hi - view_lo) * length
            half = metrics.horizontalAdvance(value_text(v)) / 2
            return bool(half <= x <= length - half)

        first = math.ceil(view_lo / step)
        values = [k * step for k in range(first, math.floor(view_hi / step) + 1)]
        kept = [v for v in values if inside(v)]
        if not kept:
            middle = (view_lo + view_hi) / 2
            power = 10 ** math.floor(math.log10(abs(middle))) if middle else 1.0
            kept = [v for v in (round(middle / power) * power,) if inside(v)]
        return [(v, value_text(v)) for v in kept]

    def _space_value_ticks(self) -> None:
        self.getPlotItem().getAxis("bottom").setTicks([self.value_ticks()])

    def set_histogram(
        self, edges: Sequence[float], counts: Sequence[float], second: Sequence[float] | None = None
    ) -> None:
        """Bars between consecutive ``edges``."""
        e = np.asarray(edges, dtype=np.float64)
        self.labels = []
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
        seen: QPoint = self.mapFromScene(view)
        return seen

    def bar_text(self, index: int) -> str:
        """What the tool tip of bar ``index`` says: its whole label and its count(s)."""
        name = self.labels[index] if index < len(self.labels) else ""
        count = f"{self.heights[index]:,.0f}"
        if self.second is not None:
            count += f" / {self.second[index]:,.0f}"
        return f"{name}: {count}" if name else count

    def _hovered(self, scene_pos: QPointF) -> None:
        vb = self.getPlotItem().vb
        hit = None
        if vb.sceneBoundingRect().contains(scene_pos):
            point = vb.mapSceneToView(scene_pos)
            hit = self.bar_at(point.x(), max(point.y(), 0.0))
        if hit is None:
            self.setToolTip(self.hint)
        else:
            self.setToolTip("\n".join(t for t in (self.bar_text(hit), self.hint) if t))

    def _clicked(self, event: Any) -> None:  # pyqtgraph's MouseClickEvent
        vb = self.getPlotItem().vb
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        point = vb.mapSceneToView(event.scenePos())
        hit = self.bar_at(point.x(), point.y())
        if hit is not None:
            self.bar_clicked.emit(hit)
