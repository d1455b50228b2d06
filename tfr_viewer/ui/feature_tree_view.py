"""The feature tree of the selected record: its keys grouped by ``/``, values editable
in place (double-click or F2), a value or a key copied from the node or its menu."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractItemView, QMenu, QTreeView, QWidget

from .models.feature_tree import FeatureTreeModel, Node


class FeatureTreeView(QTreeView):
    """The tree over its :class:`FeatureTreeModel` (``tree_model``)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        from PySide6.QtCore import Qt

        super().__init__(parent)
        self.tree_model = FeatureTreeModel(self)
        self.setModel(self.tree_model)
        self.setAlternatingRowColors(True)
        self.setUniformRowHeights(True)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._menu)
        # opened nodes widen the key column (box keys read "xmin", never "x…")
        self.expanded.connect(lambda _index: self.resizeColumnToContents(0))
        self.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )

    def selected_node(self) -> Node | None:
        index = self.currentIndex()
        return self.tree_model.node(index) if index.isValid() else None

    def copy(self, value: bool) -> None:
        """The selected node's value (``value``) or its key, to the clipboard."""
        node = self.selected_node()
        if node is None:
            return
        QGuiApplication.clipboard().setText(
            node.copy or node.value if value else node.key or node.name
        )

    def _menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        menu.addAction("Copy value", lambda: self.copy(value=True))
        menu.addAction("Copy key", lambda: self.copy(value=False))
        menu.exec(self.viewport().mapToGlobal(pos))
