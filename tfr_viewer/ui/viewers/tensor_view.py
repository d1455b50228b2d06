"""A tensor as a table (the last two axes of the first slice) plus an image when it looks
like one (2-D, or 3-D with 1, 3 or 4 channels)."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QLabel, QSplitter, QTableView, QVBoxLayout, QWidget

from ...core.decode import (
    Decoded,
    TensorPayload,
    array_to_rgba,
    decode,
    detect,
    features_of,
)
from ...core.text import dtype_text, value_text
from .image_view import ZoomView, to_qimage

Index = QModelIndex | QPersistentModelIndex


class ArrayModel(QAbstractTableModel):
    """A 2-D view of a numpy array (vectors are one column)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.array = np.zeros((0, 0))

    def set_array(self, values: np.ndarray) -> None:
        self.beginResetModel()
        arr = np.asarray(values)
        while arr.ndim > 2:
            arr = arr[0]
        self.array = (
            arr.reshape(-1, 1) if arr.ndim == 1 else arr.reshape(1, 1) if (arr.ndim == 0) else arr
        )
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else self.array.shape[0]

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() or self.array.ndim < 2 else self.array.shape[1]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or role != Qt.ItemDataRole.DisplayRole:
            return None
        return value_text(self.array[index.row(), index.column()])

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """0-based indices, as numpy and TensorFlow number them."""
        if role == Qt.ItemDataRole.DisplayRole:
            return str(section)
        return None


class TensorViewer(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.info = QLabel(self)
        self.model = ArrayModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.image = ZoomView(self)
        split = QSplitter(self)
        split.addWidget(self.table)
        split.addWidget(self.image)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.info)
        layout.addWidget(split, 1)

    # -- as a viewer of the preview (see preview.VIEWERS) ---------------------------
    def offer(self, decoded: Decoded) -> TensorPayload | None:
        """The record's tensor, or the first tensor serialized in one of its bytes
        features."""
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

    def present(self, tensor: TensorPayload) -> None:
        self.set_tensor(tensor)

    def clear(self) -> None:
        self.info.clear()
        self.model.set_array(np.zeros((0, 0)))
        self.image.scene().clear()

    def set_tensor(self, tensor: TensorPayload) -> None:
        shape = "×".join(map(str, tensor.shape)) or "scalar"
        more = " (table shows the first 2-D slice)" if len(tensor.shape) > 2 else ""
        note = f" — {tensor.note}" if tensor.note else ""
        self.info.setText(f"{dtype_text(tensor.dtype)}, shape {shape}{more}{note}")
        self.model.set_array(tensor.values)
        scene = self.image.scene()
        scene.clear()
        rgba = (
            array_to_rgba(tensor.values) if tensor.dtype != "string" and not tensor.note else None
        )
        self.image.setVisible(rgba is not None)
        if rgba is not None:
            scene.addPixmap(QPixmap.fromImage(to_qimage(rgba)))
            self.image.fit()
