"""Captions drawn on the picture: a box's class (and a prediction's score) on a filled
background of its colour, at screen size whatever the zoom."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPen
from PySide6.QtWidgets import QGraphicsRectItem, QGraphicsSimpleTextItem

from ...core.decode import readable_on


def caption_item(text: str, colour: QColor, at: QPointF) -> QGraphicsRectItem:
    """A class caption on a filled background of the box's colour, in black or white
    (whichever reads better), drawn at screen size whatever the zoom."""
    label = QGraphicsSimpleTextItem(text)
    label.setFont(QFont("Sans", 9))
    label.setBrush(QBrush(QColor(readable_on(colour.name()))))
    bounds = label.boundingRect().adjusted(-3, -1, 3, 1)
    background = QGraphicsRectItem(bounds)
    background.setBrush(QBrush(colour))
    background.setPen(QPen(Qt.PenStyle.NoPen))
    label.setParentItem(background)
    background.setFlag(background.GraphicsItemFlag.ItemIgnoresTransformations)
    background.setPos(at)
    background.setZValue(3)
    background.setData(0, text)
    return background
