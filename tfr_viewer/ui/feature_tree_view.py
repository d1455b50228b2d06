"""The feature tree of the selected record: its keys grouped by ``/``, values editable
in place (double-click or F2), a value or a key copied from the node or its menu."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractItemView, QMenu, QTreeView, QWidget

from .models.feature_tree import FeatureTreeModel, Node

LONG = 64  # children of a node opened by itself at most


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
        self.expanded.connect(lambda _index: self._widen())
        self._opening = False
        self.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )

    def open_first_levels(self) -> None:
        """Open the top nodes and their children (as ``expandToDepth(1)``), but a node
        of more than :data:`LONG` children (an episode's steps) stays closed: opening it
        is the user's choice, not a wait on every selection. The key column is widened
        once, at the end."""
        model = self.tree_model
        self._opening = True
        try:
            for row in range(model.rowCount()):
                top = model.index(row, 0)
                if model.rowCount(top) > LONG:
                    continue
                self.setExpanded(top, True)
                for child_row in range(model.rowCount(top)):
                    child = model.index(child_row, 0, top)
                    if 0 < model.rowCount(child) <= LONG:
                        self.setExpanded(child, True)
        finally:
            self._opening = False
        self.resizeColumnToContents(0)

    def _widen(self) -> None:
        if not self._opening:
            self.resizeColumnToContents(0)

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
