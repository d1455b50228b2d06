"""Choosing and changing a box in the picture with the mouse and the keys.

A click selects the smallest shown box under the pointer (a click elsewhere clears the
selection); dragging a box moves it, dragging a corner of the selected box resizes it;
Tab and Shift+Tab go to the next and previous box; the arrow keys move the selected box
by one image pixel (ten with Shift); Delete removes it; C changes its class; B, then a
drag over the picture, draws a new box. Changes are asked for with
``edit_requested(kind, box, corners)`` — ``"move"`` and ``"add"`` with corners (a ``Box``) in the
record's own convention (fractions, or pixels), ``"delete"`` and ``"class"`` with none
— and made by the window's edit actions, so that each is an undoable edit of the
overlay. A drag shows the box where it will go (dashed) until the button is released.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPen
from PySide6.QtWidgets import QApplication, QGraphicsRectItem, QGraphicsView

from ...core.decode.layouts import Box

HANDLE = 7  # screen pixels around a corner of the selected box that grab the corner
_CORNERS = {
    "tl": ("xmin", "ymin"),
    "tr": ("xmax", "ymin"),
    "bl": ("xmin", "ymax"),
    "br": ("xmax", "ymax"),
}
_ARROWS = {
    Qt.Key.Key_Left: (-1, 0),
    Qt.Key.Key_Right: (1, 0),
    Qt.Key.Key_Up: (0, -1),
    Qt.Key.Key_Down: (0, 1),
}


class BoxPicker(QObject):
    """The selected box of one image view; ``changed(box or None)`` when it moves on."""

    changed = Signal(object)
    edit_requested = Signal(str, int, object)  # kind, box, corners (or None)

    def __init__(self, view: QGraphicsView, shown: Callable[[int], bool]) -> None:
        super().__init__(view)
        self.view = view
        self.shown = shown  # whether box number n is drawn (its class is not hidden)
        self.boxes: Sequence[Box] = ()
        self.scale = (1.0, 1.0)  # scene pixels per unit of the record's convention
        self.selected: int | None = None
        self._drag: tuple[str, int, QPointF] | None = None  # grip, box, where it began
        self.drawing = False  # B: the next drag draws a new box
        self._ghost: QGraphicsRectItem | None = None
        view.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._viewport = view.viewport()  # compared by identity: no call while torn down
        view.installEventFilter(self)
        self._viewport.installEventFilter(self)

    def set_boxes(self, boxes: Sequence[Box], scale: tuple[float, float], keep: bool) -> None:
        """The boxes of the image now shown; ``keep`` keeps the selection's number (the
        same record after an edit) when it still names a box."""
        self.boxes, self.scale = boxes, scale
        if not keep or self.selected is None or self.selected >= len(boxes):
            self.select(None)

    def select(self, box: int | None) -> None:
        if box != self.selected:
            self.selected = box
            self.changed.emit(box)

    # -- the mouse and the keys ------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        kind = event.type()
        if watched is self._viewport and isinstance(event, QMouseEvent):
            if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
                return self._press(event)
            if kind == QEvent.Type.MouseMove and self._drag is not None:
                self._dragged(self.view.mapToScene(event.position().toPoint()))
                return True
            if kind == QEvent.Type.MouseButtonRelease and self._drag is not None:
                self._release(self.view.mapToScene(event.position().toPoint()))
                return True
            return False
        if kind == QEvent.Type.ShortcutOverride and watched is self.view:
            # Del and the arrows act on the selected box, not on the window's records
            assert isinstance(event, QKeyEvent)
            if self.selected is not None and (
                event.key() == Qt.Key.Key_Delete or event.key() in _ARROWS
            ):
                event.accept()
                return True
            return False
        if kind == QEvent.Type.KeyPress and watched is self.view:
            assert isinstance(event, QKeyEvent)
            return self._key(event)
        return False

    # -- dragging ----------------------------------------------------------------------
    def _press(self, event: QMouseEvent) -> bool:
        self.view.setFocus()
        at = self.view.mapToScene(event.position().toPoint())
        if self.drawing:
            self._drag = ("new", -1, at)
            return True
        grip = self._grip(event.position())
        if grip is not None:
            assert self.selected is not None
            self._drag = (grip, self.selected, at)
            return True
        box = self._box_at(at)
        self.select(box)
        if box is None:
            return False  # the view pans on a drag over the picture
        self._drag = ("move", box, at)
        return True

    def _grip(self, pos: QPointF) -> str | None:
        """The corner of the selected box within :data:`HANDLE` screen pixels of
        ``pos`` (a viewport position), if any."""
        if self.selected is None or self.selected >= len(self.boxes):
            return None
        rect = self._rect(self.selected)
        corners = (
            ("tl", rect.topLeft()),
            ("tr", rect.topRight()),
            ("bl", rect.bottomLeft()),
            ("br", rect.bottomRight()),
        )
        for name, corner in corners:
            seen = self.view.mapFromScene(corner)
            if abs(seen.x() - pos.x()) <= HANDLE and abs(seen.y() - pos.y()) <= HANDLE:
                return name
        return None

    def _rect(self, box: int, corners: Box | None = None) -> QRectF:
        """Box ``box`` (or ``corners`` in the record's convention) in scene pixels."""
        c = corners if corners is not None else self.boxes[box]
        sx, sy = self.scale
        return QRectF(
            QPointF(c.xmin * sx, c.ymin * sy), QPointF(c.xmax * sx, c.ymax * sy)
        ).normalized()

    def _target(self, at: QPointF) -> tuple[int, Box] | None:
        """Where the drag would put its box, in the record's convention."""
        if self._drag is None:
            return None
        grip, box, start = self._drag
        dx, dy = at.x() - start.x(), at.y() - start.y()
        if grip == "new":
            sx, sy = self.scale
            xs = sorted((start.x() / sx, at.x() / sx))
            ys = sorted((start.y() / sy, at.y() / sy))
            return box, Box(xs[0], ys[0], xs[1], ys[1])
        if grip == "move":
            return box, self._moved_box(box, dx, dy)
        b = self.boxes[box]
        sx, sy = self.scale
        x_key, y_key = _CORNERS[grip]
        dragged = replace(
            b, **{x_key: getattr(b, x_key) + dx / sx, y_key: getattr(b, y_key) + dy / sy}
        )
        # a corner dragged past the opposite one turns the box over, never inside out
        xs = sorted((dragged.xmin, dragged.xmax))
        ys = sorted((dragged.ymin, dragged.ymax))
        return box, Box(xs[0], ys[0], xs[1], ys[1])

    def _dragged(self, at: QPointF) -> None:
        target = self._target(at)
        if target is None:
            return
        box, corners = target
        if self._ghost is None or self._ghost.scene() is None:
            self._ghost = QGraphicsRectItem()
            pen = QPen(QColor("white"), 2, Qt.PenStyle.DashLine)
            pen.setCosmetic(True)
            self._ghost.setPen(pen)
            self._ghost.setZValue(10)
            self.view.scene().addItem(self._ghost)
        self._ghost.setRect(self._rect(box, corners))

    def _release(self, at: QPointF) -> None:
        target = self._target(at)
        grip = self._drag[0] if self._drag is not None else ""
        start = self._drag[2] if self._drag is not None else at
        self._drag = None
        self.drawing = False
        if self._ghost is not None and self._ghost.scene() is not None:
            self._ghost.scene().removeItem(self._ghost)
        self._ghost = None
        self._viewport.unsetCursor()
        moved = self.view.mapFromScene(at) - self.view.mapFromScene(start)
        if target is None or moved.manhattanLength() < QApplication.startDragDistance():
            return  # a click, not a drag
        box, corners = target
        self.edit_requested.emit("add" if grip == "new" else "move", box, corners)

    def _box_at(self, at: QPointF) -> int | None:
        sx, sy = self.scale
        under = [
            (abs((b.xmax - b.xmin) * sx * (b.ymax - b.ymin) * sy), n)
            for n, b in enumerate(self.boxes)
            if self.shown(n)
            and min(b.xmin, b.xmax) * sx <= at.x() <= max(b.xmin, b.xmax) * sx
            and min(b.ymin, b.ymax) * sy <= at.y() <= max(b.ymin, b.ymax) * sy
        ]
        return min(under)[1] if under else None

    def _key(self, event: QKeyEvent) -> bool:
        key = event.key()
        shown = [n for n in range(len(self.boxes)) if self.shown(n)]
        if key == Qt.Key.Key_Escape and (self.drawing or self.selected is not None):
            self.drawing = False
            self._viewport.unsetCursor()
            self.select(None)
            return True
        if key == Qt.Key.Key_B and self.boxes is not None:
            self.drawing = True  # the next drag over the picture draws a box
            self.view.viewport().setCursor(Qt.CursorShape.CrossCursor)
            return True
        if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab) and shown:
            back = key == Qt.Key.Key_Backtab or bool(
                event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            )
            if self.selected not in shown:
                self.select(shown[-1] if back else shown[0])
            else:
                step = -1 if back else 1
                self.select(shown[(shown.index(self.selected) + step) % len(shown)])
            return True
        if self.selected is None:
            return False
        if key == Qt.Key.Key_Delete:
            self.edit_requested.emit("delete", self.selected, None)
            return True
        if key == Qt.Key.Key_C:
            self.edit_requested.emit("class", self.selected, None)
            return True
        if key in _ARROWS:
            pixels = 10 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1
            dx, dy = _ARROWS[Qt.Key(key)]
            self.edit_requested.emit("move", self.selected, self._moved(dx * pixels, dy * pixels))
            return True
        return False

    def _moved(self, dx: float, dy: float) -> Box:
        """The selected box's corners moved by (dx, dy) image pixels."""
        assert self.selected is not None
        return self._moved_box(self.selected, dx, dy)

    def _moved_box(self, box: int, dx: float, dy: float) -> Box:
        """Box ``box``'s corners moved by (dx, dy) image pixels, in the record's
        convention."""
        b = self.boxes[box]
        sx, sy = self.scale
        return Box(b.xmin + dx / sx, b.ymin + dy / sy, b.xmax + dx / sx, b.ymax + dy / sy)
