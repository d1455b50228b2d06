"""A tag's text or image summaries step by step: a table of its steps (step, time, the
text), and for images the pictures of the step selected, read from its record. Up and
Down walk the steps; selecting a step emits ``picked(record)``; Show in Gallery emits
``gallery(records)``, the records of every step."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QImage, QPainter, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.analyze.event_log import SummaryPoint
from ...core.decode.payloads import event
from ...core.text import plural

ReadRecord = Callable[[int], bytes]  # a record's payload, as the window has it
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


def pictures(payload: bytes, tag: str) -> list[bytes]:
    """The encoded pictures of ``tag`` in an event's payload, in order."""
    return [a.data for a in event.images(event.decode(payload), None) if a.key == tag]


class StepSummaries(QWidget):
    """The steps of one tag; ``picked(record)`` when a step is selected."""

    picked = Signal(int)
    gallery = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.caption = QLabel("Select a text or image tag.", self)
        self.gallery_button = QPushButton("Show in Gallery", self)
        self.gallery_button.setToolTip("Show the records of every step of the tag in the gallery")
        self.gallery_button.clicked.connect(
            lambda: self.gallery.emit(sorted({p.record for p in self.points}))
        )
        self.gallery_button.hide()
        self.table = QTableWidget(0, 3, self)
        self.table.setHorizontalHeaderLabels(["step", "time", "text"])
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._selected)
        self.picture = QLabel(self)
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.sheet_area = QScrollArea(self)
        self.sheet_area.setWidget(self.picture)
        self.sheet_area.setWidgetResizable(True)
        self.sheet_area.hide()
        row = QHBoxLayout()
        row.addWidget(self.table, 2)
        row.addWidget(self.sheet_area, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        top.addWidget(self.caption, 1)
        top.addWidget(self.gallery_button)
        layout.addLayout(top)
        layout.addLayout(row, 1)
        self.points: list[SummaryPoint] = []
        self.read: ReadRecord | None = None
        self._quiet = False

    def show_points(self, title: str, points: list[SummaryPoint], read: ReadRecord | None) -> None:
        """List ``points`` (one tag's, in order) under ``title``; ``read`` reads a
        record's payload for an image tag's pictures."""
        self.points, self.read = list(points), read
        images = bool(points) and points[0].plugin == "images"
        self.table.setColumnHidden(2, images)
        self.sheet_area.setVisible(images)
        self.gallery_button.setVisible(images)
        self.picture.clear()
        self.table.setRowCount(len(points))
        for r, p in enumerate(points):
            step = QTableWidgetItem(f"{p.step:,}")
            step.setTextAlignment(_RIGHT)
            self.table.setItem(r, 0, step)
            when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(p.wall_time))
            self.table.setItem(r, 1, QTableWidgetItem(when))
            self.table.setItem(r, 2, QTableWidgetItem(p.text or ""))
        self.table.resizeColumnsToContents()
        self.caption.setText(
            f"{title}: {plural(len(points), 'step')}" if points else "Select a text or image tag."
        )
        if points:
            self._quiet = True  # the first step shown, not picked by the user
            try:
                self.table.selectRow(0)
            finally:
                self._quiet = False

    def picture_count(self) -> int:
        """How many pictures the step shown has (0 for text)."""
        return len(self.picture.property("pictures") or [])

    def _selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if not rows or not self.points:
            return
        p = self.points[rows[0].row()]
        if p.plugin == "images" and self.read is not None:
            self._show_pictures(pictures(self.read(p.record), p.tag))
        if not self._quiet:
            self.picked.emit(p.record)

    def _show_pictures(self, encoded: list[bytes]) -> None:
        images = [QImage.fromData(data) for data in encoded]
        images = [i for i in images if not i.isNull()]
        self.picture.setProperty("pictures", encoded)
        if not images:
            self.picture.setText("No picture could be decoded at this step.")
            return
        width = sum(i.width() for i in images) + 4 * (len(images) - 1)
        height = max(i.height() for i in images)
        sheet = QImage(width, height, QImage.Format.Format_ARGB32)
        sheet.fill(Qt.GlobalColor.transparent)
        painter = QPainter(sheet)
        x = 0
        for image in images:
            painter.drawImage(x, 0, image)
            x += image.width() + 4
        painter.end()
        shown = QPixmap.fromImage(sheet)
        if shown.height() < 160:  # small summaries drawn larger, pixels kept sharp
            shown = shown.scaledToHeight(160, Qt.TransformationMode.FastTransformation)
        self.picture.setPixmap(shown)
