"""The preview tabs for one record: images (with overlays), tensor, text and hex."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QTabWidget, QWidget

from ...core.decode import (
    Decoded,
    KeyMap,
    TensorPayload,
    TextPayload,
    decode,
    detect,
    features_of,
    recognise,
)
from .hex_view import HexViewer
from .image_view import ImageViewer
from .tensor_view import TensorViewer
from .text_view import TextViewer


def _first_tensor(decoded: Decoded) -> TensorPayload | None:
    p = decoded.payload
    if isinstance(p, TensorPayload):
        return p
    for fd in (features_of(p) or {}).values():
        if fd.kind == "bytes":
            for v in fd.values[:4]:
                if detect(v) == "tensor":
                    inner = decode(v).payload
                    if isinstance(inner, TensorPayload):
                        return inner
    return None


class PreviewPane(QTabWidget):
    """Chooses the most useful tab for each record; ``ready`` fires once shown."""

    ready = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.images = ImageViewer(self)
        self.tensor = TensorViewer(self)
        self.text = TextViewer(self)
        self.hex = HexViewer(self)
        self.addTab(self.images, "Image")
        self.addTab(self.tensor, "Tensor")
        self.addTab(self.text, "Text")
        self.addTab(self.hex, "Hex")
        self.keymap = KeyMap()

    def show_record(self, decoded: Decoded | None, raw: bytes) -> None:
        """Show a decoded record; ``decoded`` None shows only ``raw`` in the hex view and
        clears every other tab (nothing of an earlier record stays)."""
        self.hex.set_data(raw)
        if decoded is None:
            self.images.set_annotations([])
            self.tensor.clear()
            self.text.set_text("")
            for tab in (self.images, self.tensor, self.text):
                self.setTabEnabled(self.indexOf(tab), False)
            self.setCurrentWidget(self.hex)
            self.ready.emit()
            return
        try:
            self._show(decoded)
        except Exception as exc:  # a viewer must never break the window: show the bytes
            self.images.set_annotations([])
            for tab in (self.images, self.tensor, self.text):
                self.setTabEnabled(self.indexOf(tab), False)
            self.setCurrentWidget(self.hex)
            self.hex.where.setText(f"cannot preview this record ({type(exc).__name__}: {exc})")
        self.ready.emit()

    def _show(self, decoded: Decoded) -> None:
        p = decoded.payload
        features = features_of(p)
        annotations = recognise(features, self.keymap) if features else []
        self.images.set_annotations(annotations)
        tensor = _first_tensor(decoded)
        if tensor is not None:
            self.tensor.set_tensor(tensor)
        self.text.set_text(p.text if isinstance(p, TextPayload) else "")
        self.setTabEnabled(self.indexOf(self.images), bool(annotations))
        self.setTabEnabled(self.indexOf(self.tensor), tensor is not None)
        self.setTabEnabled(self.indexOf(self.text), isinstance(p, TextPayload))
        if annotations:
            self.setCurrentWidget(self.images)
        elif tensor is not None:
            self.setCurrentWidget(self.tensor)
        elif isinstance(p, TextPayload):
            self.setCurrentWidget(self.text)
        else:
            self.setCurrentWidget(self.hex)
