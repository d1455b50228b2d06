"""The preview tabs for one record. A viewer of :data:`VIEWERS` is offered each decoded
record and says what it would show of it (``offer``: None for nothing); the first one
with something to show is brought forward, the hex view (which shows every record's
bytes) otherwise. A payload type that wants a preview of its own adds a viewer module
and its entry here."""

from __future__ import annotations

from typing import Any, Protocol, TypeVar, cast

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QTabWidget, QWidget

from ...core.decode import Decoded
from .hex_view import HexViewer
from .image_view import ImageViewer
from .tensor_view import TensorViewer
from .text_view import TextViewer

V = TypeVar("V", bound=QWidget)


class Viewer(Protocol):
    """A preview tab: what it would show of a record, showing it, and showing nothing."""

    def offer(self, decoded: Decoded) -> Any | None: ...
    def present(self, content: Any) -> None: ...
    def clear(self) -> None: ...


# (name, tab title, class), in the order of preference
VIEWERS: tuple[tuple[str, str, type[QWidget]], ...] = (
    ("images", "Image", ImageViewer),
    ("tensor", "Tensor", TensorViewer),
    ("text", "Text", TextViewer),
)


class PreviewPane(QTabWidget):
    """Chooses the most useful tab for each record; ``ready`` fires once shown."""

    ready = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.viewers: dict[str, QWidget] = {}
        for name, title, cls in VIEWERS:
            viewer = self.viewers[name] = cls(self)
            self.addTab(viewer, title)
        self.hex = HexViewer(self)
        self.addTab(self.hex, "Hex")

    def _viewer(self, kind: type[V]) -> V:
        return next(v for v in self.viewers.values() if isinstance(v, kind))

    @property
    def images(self) -> ImageViewer:
        return self._viewer(ImageViewer)

    @property
    def tensor(self) -> TensorViewer:
        return self._viewer(TensorViewer)

    @property
    def text(self) -> TextViewer:
        return self._viewer(TextViewer)

    def show_record(self, decoded: Decoded | None, raw: bytes, damage: str | None = None) -> None:
        """Show a decoded record; ``decoded`` None shows only ``raw`` in the hex view and
        clears every other tab (nothing of an earlier record stays). ``damage`` says what
        is wrong with a damaged record, above its picture."""
        self.hex.set_data(raw)
        self.images.set_damage(damage)
        if decoded is None:
            self._nothing()
            self.ready.emit()
            return
        try:
            self._show(decoded)
        except Exception as exc:  # a viewer must never break the window: show the bytes
            self._nothing()
            self.hex.where.setText(f"cannot preview this record ({type(exc).__name__}: {exc})")
        self.ready.emit()

    def _nothing(self) -> None:
        for viewer in self.viewers.values():
            cast(Viewer, viewer).clear()
            self.setTabEnabled(self.indexOf(viewer), False)
        self.setCurrentWidget(self.hex)

    def _show(self, decoded: Decoded) -> None:
        chosen: QWidget = self.hex
        for widget in self.viewers.values():
            viewer = cast(Viewer, widget)
            content = viewer.offer(decoded)
            if content is None:
                viewer.clear()
            else:
                viewer.present(content)
                if chosen is self.hex:
                    chosen = widget
            self.setTabEnabled(self.indexOf(widget), content is not None)
        self.setCurrentWidget(chosen)
