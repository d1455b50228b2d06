"""Choosing and changing a box in the picture with the mouse and the keys.

A click selects the smallest shown box under the pointer (a click elsewhere clears the
selection); Tab and Shift+Tab go to the next and previous box; the arrow keys move the
selected box by one image pixel (ten with Shift); Delete removes it. Changes are asked
for with ``edit_requested(kind, box, corners)`` — ``"move"`` with the new corners in
the record's own convention (fractions, or pixels), ``"delete"`` with none — and made by
the window's edit actions, so that each is an undoable edit of the overlay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, QPointF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QGraphicsView

from ...core.decode.layouts import Box

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
        view.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        view.installEventFilter(self)
        view.viewport().installEventFilter(self)

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
        if event.type() == QEvent.Type.MouseButtonPress and watched is self.view.viewport():
            assert isinstance(event, QMouseEvent)
            if event.button() == Qt.MouseButton.LeftButton:
                self.view.setFocus()
                self.select(self._box_at(self.view.mapToScene(event.position().toPoint())))
            return False  # the view still pans on a drag
        if event.type() == QEvent.Type.ShortcutOverride and watched is self.view:
            # Del and the arrows act on the selected box, not on the window's records
            assert isinstance(event, QKeyEvent)
            if self.selected is not None and (
                event.key() == Qt.Key.Key_Delete or event.key() in _ARROWS
            ):
                event.accept()
                return True
            return False
        if event.type() == QEvent.Type.KeyPress and watched is self.view:
            assert isinstance(event, QKeyEvent)
            return self._key(event)
        return False

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
        if key in _ARROWS:
            pixels = 10 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1
            dx, dy = _ARROWS[Qt.Key(key)]
            self.edit_requested.emit("move", self.selected, self._moved(dx * pixels, dy * pixels))
            return True
        if key == Qt.Key.Key_Escape:
            self.select(None)
            return True
        return False

    def _moved(self, dx: float, dy: float) -> dict[str, float]:
        """The selected box's corners moved by (dx, dy) image pixels, in the record's
        convention."""
        assert self.selected is not None
        b = self.boxes[self.selected]
        sx, sy = self.scale
        return {
            "xmin": b.xmin + dx / sx,
            "xmax": b.xmax + dx / sx,
            "ymin": b.ymin + dy / sy,
            "ymax": b.ymax + dy / sy,
        }
