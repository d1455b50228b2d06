"""What a tree view shows open and selected, kept across a new model of the same record
(an edit rebuilds the feature tree; the user's open nodes and selection stay)."""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QModelIndex
from PySide6.QtWidgets import QTreeView

Path = tuple[str, ...]


def _path(index: QModelIndex) -> Path:
    names: list[str] = []
    while index.isValid():
        names.append(str(index.siblingAtColumn(0).data() or ""))
        index = index.parent()
    return tuple(reversed(names))


@dataclass
class TreeState:
    expanded: set[Path] = field(default_factory=set)
    current: Path | None = None

    @classmethod
    def of(cls, view: QTreeView) -> TreeState:
        """The open nodes and the current one of ``view``, by their names from the top."""
        model = view.model()
        state = cls()
        stack = [QModelIndex()]
        while stack:
            parent = stack.pop()
            for row in range(model.rowCount(parent)):
                index = model.index(row, 0, parent)
                if view.isExpanded(index):
                    state.expanded.add(_path(index))
                    stack.append(index)
        if view.currentIndex().isValid():
            state.current = _path(view.currentIndex())
        return state

    def restore(self, view: QTreeView) -> None:
        """Open the nodes of the same names in ``view``'s model, and select the current."""
        model = view.model()
        stack = [QModelIndex()]
        while stack:
            parent = stack.pop()
            for row in range(model.rowCount(parent)):
                index = model.index(row, 0, parent)
                path = _path(index)
                if path in self.expanded:
                    view.setExpanded(index, True)
                    stack.append(index)
                if path == self.current:
                    view.setCurrentIndex(index)
