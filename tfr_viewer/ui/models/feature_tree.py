"""A tree of the selected record: keys grouped by ``/``, values, nested payloads.

Nodes are made from the outline each payload's decoder gives
(:mod:`tfr_viewer.core.decode.outline`); the model itself parses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt, Signal

from ...core.decode import Decoded
from ...core.decode.outline import Outline
from ...core.decode.payloads import payload_outline
from ...core.io import STATUS_HELP, Problem

Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("key", "kind", "count", "value")


@dataclass(eq=False)
class Node:
    name: str
    kind: str = ""
    count: str = ""
    value: str = ""
    key: str = ""  # full feature key (for copy key)
    copy: str = ""  # full value text (for copy value)
    children: list[Node] = field(default_factory=list)
    parent: Node | None = None

    def add(self, child: Node) -> Node:
        child.parent = self
        self.children.append(child)
        return child

    @classmethod
    def of(cls, outline: Outline) -> Node:
        """The node of an outline, its children too."""
        node = cls(outline.name, outline.kind, outline.count, outline.value, outline.key)
        node.copy = outline.copy
        for child in outline.children:
            node.add(cls.of(child))
        return node


def payload_nodes(decoded: Decoded) -> list[Node]:
    """Top-level nodes for any decoded payload (its outline, made by its decoder)."""
    return [Node.of(o) for o in payload_outline(decoded)]


def named(node: Node, names: dict[str, list[str]]) -> None:
    """Class ids of the keys ``names`` covers shown with their names: ``2 (triangle)``,
    ``[0, 1] (small, large)``; the node's children too."""
    known = names.get(node.key) if node.kind == "int64" else None
    if known:
        ids = [
            int(w)
            for w in node.copy.strip("[]").replace(",", " ").split()
            if w.lstrip("-").isdigit()
        ]
        shown = [known[i] for i in ids if 0 <= i < len(known)]
        if shown and len(shown) == len(ids):
            node.value = f"{node.value} ({', '.join(shown)})"
    for child in node.children:
        named(child, names)


def region_nodes(region: Problem) -> list[Node]:
    """What the tree shows for a damaged region that belongs to no record."""
    size = f"{region.size:,} bytes" if region.size else "unknown (the rest of the stream)"
    return [
        Node("status", region.kind, "", STATUS_HELP.get(region.kind, "")),
        Node("where", "", "", f"{region.file}, byte {region.offset:,}"),
        Node("size", "", "", size),
        Node("message", "", "", region.message, copy=region.message),
    ]


class FeatureTreeModel(QAbstractItemModel):
    """``edit_requested(key, text)`` asks for a feature's values to become ``text``
    (the value column of a feature is editable; the window validates and applies)."""

    edit_requested = Signal(str, str)
    element_edit_requested = Signal(str, int, str)  # a key, a value's place in it, the text

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._root = Node("")
        self._message = False  # the payload shown is of a user's message type
        # class names by key where the dataset's folder gives them (TFDS ClassLabel files)
        self.class_names: dict[str, list[str]] = {}

    def set_decoded(self, decoded: Decoded | None, damage: str | None = None) -> None:
        """Show a decoded payload; ``damage`` (what is wrong with a damaged record) is
        its first node, before anything of it. Nodes are built before the model resets,
        so a failure leaves the model consistent and shows the error in the tree."""
        self._message = decoded is not None and decoded.payload.type == "message"
        try:
            nodes = payload_nodes(decoded) if decoded is not None else []
            if damage is not None:
                nodes.insert(0, Node("⚠ damaged", "", "", damage))
            if self.class_names:
                for node in nodes:
                    named(node, self.class_names)
        except Exception as exc:  # a viewer must never break the window
            nodes = [Node("error", "", "", f"cannot show this record: {type(exc).__name__}: {exc}")]
        self.set_nodes(nodes)

    def set_nodes(self, nodes: list[Node]) -> None:
        """Show these top-level nodes (for things that are not payloads)."""
        self.beginResetModel()
        self._root = Node("")
        for node in nodes:
            self._root.add(node)
        self.endResetModel()

    def node(self, index: Index) -> Node:
        return index.internalPointer() if index.isValid() else self._root

    def index_of_key(self, key: str, item: int | None = None) -> QModelIndex:
        """The node of feature ``key`` (first found, depth first), or an invalid index;
        with ``item``, the node of that value of the feature when it has one."""

        def find(node: Node) -> Node | None:
            for child in node.children:
                if child.key == key:
                    return child
                found = find(child)
                if found is not None:
                    return found
            return None

        hit = find(self._root)
        if hit is None or hit.parent is None:
            return QModelIndex()
        value = f"[{item}]"
        child = next((c for c in hit.children if c.name == value), None)
        if item is not None and child is not None:
            hit = child
        assert hit.parent is not None
        return self.createIndex(hit.parent.children.index(hit), 0, hit)

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        node = self.node(parent)
        if not (0 <= row < len(node.children) and 0 <= column < len(COLUMNS)):
            return QModelIndex()
        return self.createIndex(row, column, node.children[row])

    def parent(self, index: Index) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        parent = self.node(index).parent
        if parent is None or parent is self._root or parent.parent is None:
            return QModelIndex()
        return self.createIndex(parent.parent.children.index(parent), 0, parent)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self.node(parent).children)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return len(COLUMNS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node = self.node(index)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            text = (node.name, node.kind, node.count, node.value)[index.column()]
            if role == Qt.ItemDataRole.ToolTipRole:
                return node.key or None
            return text.replace("\n", " ⏎ ") if index.column() == 3 else text
        if role == Qt.ItemDataRole.EditRole and index.column() == 3:
            return node.copy if node.kind != "bytes" or len(node.children) == 0 else node.value
        return None

    def _editable(self, node: Node) -> bool:
        """A feature's node (its whole list), or one value of a list (``[i]``); in a
        message of the user's own type, a field's one value that is no message, list,
        map or bytes (its path the node's key)."""
        if self._message:
            return bool(node.key) and not node.children and node.count == ""
        return node.kind in ("bytes", "float", "int64") and bool(node.key)

    @staticmethod
    def _element(node: Node) -> int | None:
        """The place of a value node (``[3]``) in its feature's list; None for others."""
        inner = node.name[1:-1]
        in_list = node.parent is not None and bool(node.parent.key)
        if in_list and node.name.startswith("[") and node.name.endswith("]") and inner.isdigit():
            return int(inner)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = super().flags(index)
        if index.isValid() and index.column() == 3 and self._editable(self.node(index)):
            return base | Qt.ItemFlag.ItemIsEditable
        return base

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        node = self.node(index)
        if not self._editable(node):
            return False
        element = None if self._message else self._element(node)
        if element is None:
            self.edit_requested.emit(node.key, str(value))
        else:
            self.element_edit_requested.emit(node.key, element, str(value))
        return True

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None
