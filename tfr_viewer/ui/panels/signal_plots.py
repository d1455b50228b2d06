"""An episode's signals over its steps (:attr:`~...core.decode.episodes.Episode.signals`:
the action, the states and the reward), drawn by pyqtgraph, one line a dimension, one
plot each, sharing the step axis, with a cursor at the step shown that can be
dragged (``moved(step)``)."""

from __future__ import annotations

import os

import numpy as np

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")  # never another binding beside ours
import pyqtgraph as pg  # noqa: E402
from PySide6.QtCore import Signal  # noqa: E402
from PySide6.QtWidgets import QVBoxLayout, QWidget  # noqa: E402

from ...core.decode.episodes import Episode  # noqa: E402
from ..style import label_colour  # noqa: E402

MAX_LINES = 16  # dimensions of one signal drawn at most


class SignalPlots(QWidget):
    """The plots of one episode; ``moved(step)`` when the cursor is dragged."""

    moved = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = pg.GraphicsLayoutWidget(self)
        self.view.setBackground("w")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        self.names: list[str] = []
        self._cursors: list[pg.InfiniteLine] = []
        self._moving = False

    def set_episode(self, episode: Episode | None) -> None:
        """Draw ``episode``'s signals (None: nothing)."""
        self.view.clear()
        self._cursors = []
        self.names = episode.signals if episode is not None else []
        first = None
        for row, name in enumerate(self.names):
            assert episode is not None
            values = np.asarray(episode.steps[name], dtype=np.float64)
            lines = values.reshape(len(values), -1)
            plot = self.view.addPlot(row=row, col=0)
            plot.setTitle(name, size="9pt")
            plot.getAxis("left").enableAutoSIPrefix(False)
            plot.setMouseEnabled(x=True, y=False)
            plot.showGrid(x=True, y=True, alpha=0.2)
            finite = np.where(np.isfinite(lines), lines, np.nan)
            for dim in range(min(lines.shape[1], MAX_LINES)):
                plot.plot(finite[:, dim], pen=pg.mkPen(label_colour(dim, None), width=1.5))
            if first is None:
                first = plot
            else:
                plot.setXLink(first)
            cursor = pg.InfiniteLine(pos=0, angle=90, movable=True, pen=pg.mkPen("k", width=1))
            cursor.sigPositionChanged.connect(self._dragged)
            plot.addItem(cursor)
            self._cursors.append(cursor)

    def set_step(self, step: int) -> None:
        """Put the cursor at ``step``."""
        self._moving = True
        try:
            for cursor in self._cursors:
                cursor.setValue(step)
        finally:
            self._moving = False

    def cursor_at(self) -> float | None:
        """Where the cursor is (None without a plot)."""
        return float(self._cursors[0].value()) if self._cursors else None

    def _dragged(self, line: pg.InfiniteLine) -> None:
        if not self._moving:
            self.moved.emit(int(round(float(line.value()))))
