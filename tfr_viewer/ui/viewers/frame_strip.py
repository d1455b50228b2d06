"""The frame strip under a picture: a SequenceExample's frames of one feature list, one
after another (arrows, a slider, ``[`` and ``]``)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSlider, QToolButton, QWidget


class FrameStrip(QWidget):
    """Chooses one of ``frames`` (the positions, among the viewer's pictures, of the
    frames of one list, in step order). ``chosen`` carries the position picked."""

    chosen = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.previous = QToolButton(self)
        self.previous.setArrowType(Qt.ArrowType.LeftArrow)
        self.previous.setToolTip("Previous frame ([)")
        self.next = QToolButton(self)
        self.next.setArrowType(Qt.ArrowType.RightArrow)
        self.next.setToolTip("Next frame (])")
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setToolTip("Frames of the sequence: drag, or use the arrow keys")
        self.label = QLabel(self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.previous, self.slider, self.next, self.label):
            layout.addWidget(widget, 1 if widget is self.slider else 0)
        self.frames: list[int] = []
        self.key = ""
        self.previous.clicked.connect(lambda: self.step(-1))
        self.next.clicked.connect(lambda: self.step(1))
        self.slider.valueChanged.connect(self._moved)
        context = Qt.ShortcutContext.WidgetWithChildrenShortcut
        for keys, by in (("[", -1), ("]", 1)):
            shortcut = QShortcut(QKeySequence(keys), parent or self)
            shortcut.setContext(context)
            shortcut.activated.connect(lambda by=by: self.step(by) if self.isVisible() else None)

    def set_frames(self, key: str, frames: list[int], current: int) -> None:
        """Show the strip for the frames of list ``key`` at position ``current`` (one of
        ``frames``); hidden when there are fewer than two frames."""
        self.key, self.frames = key, frames
        blocked = self.slider.blockSignals(True)
        self.slider.setRange(0, max(0, len(frames) - 1))
        self.slider.setValue(frames.index(current) if current in frames else 0)
        self.slider.blockSignals(blocked)
        self._label()
        self.setVisible(len(frames) > 1)

    def step(self, by: int) -> None:
        """Move ``by`` frames (within the first and last)."""
        if self.frames:
            self.slider.setValue(min(max(self.slider.value() + by, 0), len(self.frames) - 1))

    def _moved(self, value: int) -> None:
        self._label()
        if 0 <= value < len(self.frames):
            self.chosen.emit(self.frames[value])

    def _label(self) -> None:
        self.label.setText(f"{self.key}: frame {self.slider.value()} of {len(self.frames)}")
