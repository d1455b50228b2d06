"""Colours and icons shared by the views (status colours, overlay palette)."""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap

from ..core.decode import class_colour
from ..core.io import RecordStatus

_STATUS_COLOURS = {
    RecordStatus.OK: QColor(40, 150, 70),
    RecordStatus.UNVERIFIED: QColor(150, 150, 150),
    RecordStatus.BAD_DATA_CRC: QColor(200, 40, 30),
    RecordStatus.BAD_LENGTH_CRC: QColor(200, 40, 30),
    RecordStatus.TRUNCATED: QColor(210, 110, 0),
}


def status_colour(status: RecordStatus) -> QColor:
    return _STATUS_COLOURS[status]


@cache
def status_icon(status: RecordStatus) -> QIcon:
    """A small filled circle (ok), cross (damaged) or ring (unverified)."""
    pix = QPixmap(12, 12)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    colour = status_colour(status)
    if status is RecordStatus.UNVERIFIED:
        p.setPen(colour)
        p.drawEllipse(2, 2, 8, 8)
    elif status.damaged:
        p.setPen(colour)
        p.setBrush(colour)
        p.drawRect(1, 1, 10, 10)
        p.setPen(QColor("white"))
        p.drawLine(3, 3, 8, 8)
        p.drawLine(8, 3, 3, 8)
    else:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(colour)
        p.drawEllipse(2, 2, 8, 8)
    p.end()
    return QIcon(pix)


def label_colour(label: int | None, text: str | None) -> QColor:
    """One colour per class (the gallery's too)."""
    return QColor(class_colour(label, text))
